package engine

import (
	"net/http"
	"slices"

	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/target"
)

// Exchange is one request on its way through the pipeline: what was read,
// the batch that is planned, and, as the stages run, the route, the plan
// and the results. It belongs to one request and one goroutine at a time;
// the IR the listener codec read is never modified through it (the batch
// of a single or states request is built from shallow copies, and
// CapDeadline works on copies).
type Exchange struct {
	// Client is the request as its listener codec read it; nil for a batch
	// a server built itself (the Router's rules: &Exchange{Batch: b},
	// answered per item, never fail-fast).
	Client *listener.ClientRequest
	// Batch is what is planned: the client's batch or bundle, a single
	// request as a batch of one item (target.SingleItem), or a vllm-sr/4.0
	// states request as one item per state.
	Batch *ir.Batch
	// Model is the model answers name: the one the client asked for, which
	// a server may replace (vllm-srun answers with its own model).
	Model string
	// Single: one request, answered with one response. States: a
	// vllm-sr/4.0 states request, answered per state. Neither: a batch or
	// a bundle, answered per item.
	Single, States bool
	// FailFast: the first failure, in request order, answers the whole
	// request (/v1/systemone, /v1/systemone/batch); otherwise each failed
	// question carries its error in a 200 (/v1/decisions, /v1/bundle, the
	// Router's rules).
	FailFast bool

	// Route is where the exchange went; set by Plan (a pass-through swaps
	// in the internal codec and drops the deviations).
	Route Route
	// Plan is the plan made for Route, and Diagnostics the target codec's
	// and the deviations' records of it (none for a pass-through).
	Plan        target.Plan
	Diagnostics ir.Diagnostics
	// PassThrough: the plan's one call carries the client's own bytes.
	PassThrough bool
	// Results are what the caller answered, set by Call.
	Results []ItemResult

	// planned: Plan planned the exchange for Route (Planned).
	planned bool
	// rewritten: the batch is no longer what the client sent (its deadline
	// was capped), so the client's bytes must not go on.
	rewritten bool
	// single holds a single request's batch, so that the exchange and its
	// batch are one allocation.
	single singleBatch
}

// singleBatch is a single request's batch of one item.
type singleBatch struct {
	batch ir.Batch
	one   [1]ir.BatchItem
}

// Read reads a client's body sent to endpoint with codec, the listener
// codec of the client's schema, into an exchange. A body the codec refuses
// returns the error body to answer with (listener.RefusalBody).
func Read(codec listener.Codec, endpoint listener.Endpoint, body []byte, header http.Header) (*Exchange, *ir.ErrorBody) {
	cr, err := codec.Read(endpoint, body, header)
	if err != nil {
		return nil, listener.RefusalBody(err)
	}
	return exchangeOf(cr), nil
}

// exchangeOf turns a read client request into the batch a route plans.
func exchangeOf(cr *listener.ClientRequest) *Exchange {
	x := &Exchange{Client: cr, FailFast: cr.Endpoint != listener.EndpointDecisions && cr.Endpoint != listener.EndpointBundle}
	switch {
	case cr.Batch != nil:
		x.Batch, x.Model = cr.Batch, deref(cr.Batch.Model)
	case cr.Request.States != nil:
		x.States, x.Model = true, deref(cr.Request.Model)
		x.Batch = &ir.Batch{Model: cr.Request.Model, Items: make([]ir.BatchItem, 0, len(cr.Request.States))}
		for _, st := range cr.Request.States {
			one := *cr.Request
			one.State, one.States = st.Value, nil
			x.Batch.Items = append(x.Batch.Items, ir.BatchItem{Name: st.Name, Request: one})
		}
	default:
		x.Single, x.Model = true, deref(cr.Request.Model)
		sb := &x.single
		sb.one = [1]ir.BatchItem{{Name: target.SingleItem, Request: *cr.Request}}
		sb.batch = ir.Batch{Model: cr.Request.Model, Items: sb.one[:]}
		x.Batch = &sb.batch
	}
	return x
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// Planned reports whether the last Plan planned x for its route: false
// before any, and after one that refused it.
func (x *Exchange) Planned() bool { return x.planned }

// DeadlineMs is the deadline the exchange goes with, in milliseconds: the
// batch's, else, for a single or states request, its items' (which share
// the request's options, capped or not; the validators give a states
// request at least one state); nil when the client asked for none.
func (x *Exchange) DeadlineMs() *int64 {
	if o := x.Batch.Options; o != nil && o.DeadlineMs != nil {
		return o.DeadlineMs
	}
	if (x.Single || x.States) && len(x.Batch.Items) > 0 && x.Batch.Items[0].Request.Options != nil {
		return x.Batch.Items[0].Request.Options.DeadlineMs
	}
	return nil
}

// CapDeadline lowers the options.deadline_ms that goes on to limit when
// the client asked for more, so a target that reads the deadline works to
// the one the server enforces. The batch, its items and their options are
// copies; a capped request never goes on with the client's own bytes,
// which carry the client's deadline.
func (x *Exchange) CapDeadline(limit int64) {
	ms := x.DeadlineMs()
	if ms == nil || *ms <= limit {
		return
	}
	b := *x.Batch
	b.Options = cappedOptions(b.Options, limit)
	b.Items = slices.Clone(b.Items)
	for i := range b.Items {
		b.Items[i].Request.Options = cappedOptions(b.Items[i].Request.Options, limit)
	}
	x.Batch = &b
	x.rewritten = true
}

// cappedOptions is a copy of o whose deadline_ms is at most limit; nil
// stays nil.
func cappedOptions(o *ir.Options, limit int64) *ir.Options {
	if o == nil || o.DeadlineMs == nil || *o.DeadlineMs <= limit {
		return o
	}
	c := *o
	c.DeadlineMs = &limit
	return &c
}

// DropQuestions leaves the questions drop reports out of the batch that
// is planned (a server fails them on their own before any call, on
// /v1/decisions), and returns how many questions are left. The batch, its
// items and their question lists are copies, and the client's own bytes
// no longer go on: they carry the dropped questions.
func (x *Exchange) DropQuestions(drop func(q *ir.Question) bool) (left int) {
	b := *x.Batch
	b.Items = slices.Clone(b.Items)
	for i := range b.Items {
		r := &b.Items[i].Request
		kept := make([]ir.Question, 0, len(r.Questions))
		for j := range r.Questions {
			if !drop(&r.Questions[j]) {
				kept = append(kept, r.Questions[j])
			}
		}
		r.Questions = kept
		left += len(kept)
	}
	x.Batch = &b
	x.rewritten = true
	return left
}
