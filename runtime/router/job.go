package router

import (
	"slices"
	"time"

	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/registry"
	"github.com/vllm-sr/systemone/runtime/routerconfig"
)

// singleItem names the one batch item a single client request travels as.
const singleItem = "request" //vocab:not-spec a batch item's name (data), not the request part

// job is one client System One request as the Forward path runs it: the
// batch a target codec plans, and how its results answer the client.
type job struct {
	cr    *listener.ClientRequest
	batch *ir.Batch
	// single: one request, answered with a Response. states: a
	// vllm-sr/4.0 states request, each state a batch item, answered per
	// state.
	single, states bool
	// failFast: the first failed question answers the whole request
	// (/v1/systemone, /v1/systemone/batch); otherwise each failed
	// question carries its error in a 200 (/v1/decisions).
	failFast bool
	// model is the name the client asked for: a deployment or a pool.
	model string
	// deadlineCapped: the client's deadline_ms was above the listener's
	// max_deadline_ms and the batch carries the cap instead (capDeadline).
	deadlineCapped bool
}

// jobOf turns a read client request into the batch targets plan. The IR
// the codec read is not modified: items are shallow copies.
func jobOf(cr *listener.ClientRequest) *job {
	j := &job{cr: cr, failFast: cr.Endpoint != listener.EndpointDecisions && cr.Endpoint != listener.EndpointBundle}
	switch {
	case cr.Batch != nil:
		j.batch = cr.Batch
		j.model = deref(cr.Batch.Model)
	case cr.Request.States != nil:
		j.states = true
		j.model = deref(cr.Request.Model)
		j.batch = &ir.Batch{Model: cr.Request.Model}
		for _, st := range cr.Request.States {
			one := *cr.Request
			one.State, one.States = st.Value, nil
			j.batch.Items = append(j.batch.Items, ir.BatchItem{Name: st.Name, Request: one})
		}
	default:
		j.single = true
		j.model = deref(cr.Request.Model)
		j.batch = &ir.Batch{Model: cr.Request.Model, Items: []ir.BatchItem{{Name: singleItem, Request: *cr.Request}}}
	}
	return j
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// deadlineMs is the deadline the job goes with, in milliseconds: the
// batch's, else, for a single or states request, its items' (which share
// the request's options, capped or not); nil when the client asked for
// none.
func (j *job) deadlineMs() *int64 {
	if o := j.batch.Options; o != nil && o.DeadlineMs != nil {
		return o.DeadlineMs
	}
	if (j.single || j.states) && len(j.batch.Items) > 0 {
		if o := j.batch.Items[0].Request.Options; o != nil {
			return o.DeadlineMs
		}
		return nil
	}
	if j.cr.Request != nil && j.cr.Request.Options != nil {
		return j.cr.Request.Options.DeadlineMs
	}
	return nil
}

// deadline is when every upstream call must have answered: the client's
// deadline_ms capped by the listener's max_deadline_ms, which also applies
// when the client asked for none. Zero for no deadline.
func (j *job) deadline(api *routerconfig.ListenerAPI, now time.Time) time.Time {
	ms := j.deadlineMs()
	limit, capped := api.Setting(registry.MaxDeadlineSetting)
	switch {
	case ms == nil && !capped:
		return time.Time{}
	case ms == nil || capped && *ms > limit:
		return now.Add(time.Duration(limit) * time.Millisecond)
	}
	return now.Add(time.Duration(*ms) * time.Millisecond)
}

// capDeadline lowers the options.deadline_ms that goes upstream to the
// listener's max_deadline_ms when the client asked for more, so a
// deployment that reads the deadline (vllm-sr/5.0, the internal form)
// works to the deadline the Router enforces. The IR the codec read is not
// modified: the batch, its items and their options are copies. A capped
// request never goes on with the client's own bytes, which carry the
// client's deadline.
func (j *job) capDeadline(api *routerconfig.ListenerAPI) {
	ms := j.deadlineMs()
	limit, capped := api.Setting(registry.MaxDeadlineSetting)
	if ms == nil || !capped || *ms <= limit {
		return
	}
	b := *j.batch
	b.Options = cappedOptions(b.Options, limit)
	b.Items = slices.Clone(b.Items)
	for i := range b.Items {
		b.Items[i].Request.Options = cappedOptions(b.Items[i].Request.Options, limit)
	}
	j.batch = &b
	j.deadlineCapped = true
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
