package router

import (
	"time"

	"github.com/vllm-sr/systemone/runtime/apiregistry"
	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/routerconfig"
	sp "github.com/vllm-sr/systemone/runtime/systemoneprotocol"
)

// singleItem names the one batch item a single client request travels as.
const singleItem = "request"

// job is one client System One request as the Forward path runs it: the
// batch a target codec plans, and how its results answer the client.
type job struct {
	cr    *listener.ClientRequest
	batch *sp.Batch
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
		j.batch = &sp.Batch{Model: cr.Request.Model}
		for _, st := range cr.Request.States {
			one := *cr.Request
			one.State, one.States = st.Value, nil
			j.batch.Items = append(j.batch.Items, sp.BatchItem{Name: st.Name, Request: one})
		}
	default:
		j.single = true
		j.model = deref(cr.Request.Model)
		j.batch = &sp.Batch{Model: cr.Request.Model, Items: []sp.BatchItem{{Name: singleItem, Request: *cr.Request}}}
	}
	return j
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// deadlineMs is the deadline the client asked for, in milliseconds; nil
// when it asked for none.
func (j *job) deadlineMs() *int64 {
	if o := j.batch.Options; o != nil && o.DeadlineMs != nil {
		return o.DeadlineMs
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
	limit, capped := api.Setting(apiregistry.MaxDeadlineSetting)
	switch {
	case ms == nil && !capped:
		return time.Time{}
	case ms == nil || capped && *ms > limit:
		return now.Add(time.Duration(limit) * time.Millisecond)
	}
	return now.Add(time.Duration(*ms) * time.Millisecond)
}
