package router

import (
	"context"
	"slices"
	"strconv"
	"time"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/engine"
	"github.com/vllm-sr/systemone/runtime/fleet"
	"github.com/vllm-sr/systemone/runtime/front"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/registry"
	"github.com/vllm-sr/systemone/runtime/routerconfig"
	tc "github.com/vllm-sr/systemone/runtime/target"
)

// itemModel is the model b's items name when b names none (the reader
// has checked they all repeat one), else "".
func itemModel(b *ir.Batch) string {
	for i := range b.Items {
		if m := b.Items[i].Request.Model; m != nil {
			return *m
		}
	}
	return ""
}

// forward routes a read request by its model and runs it through the
// engine: on the deployment it names (refused before any call when that
// deployment cannot carry or answer it, or its circuit is open; on
// /v1/decisions only the questions that need what it cannot fail, each on
// its own), or on the capable members of the pool it names, failing over
// (failover.go), whose answer adds routing. On an error, retryAfter is the
// delay the upstream asked for with the failure that answers the request,
// or the cool-down left of an open circuit (zero when none).
func (r *Router) forward(ctx context.Context, listenerName string, api *routerconfig.ListenerAPI, x *engine.Exchange,
	took *routed) (out listener.Outcome, retryAfter time.Duration, e *ir.ErrorBody) {
	if x.Model == "" { // optional while the listener answers with one model
		served := r.servedModels(api)
		if len(served) != 1 {
			return listener.Outcome{}, 0, listener.InvalidRequest(vocab.ReasonMissingModel,
				"the request names no model, and listener "+quote(listenerName)+" serves "+strconv.Itoa(len(served))+" models; name a deployment or a pool")
		}
		x.Model = served[0]
		if named := itemModel(x.Batch); named != "" && named != x.Model { // an item may only repeat it
			_, direct := r.cfg.Deployment(named)
			_, pooled := r.cfg.Pool(named)
			return listener.Outcome{}, 0, modelNotFound(listenerName, direct || pooled, served)
		}
	}
	d, direct := r.cfg.Deployment(x.Model)
	pool, pooled := r.cfg.Pool(x.Model)
	known := direct || pooled // the loader keeps deployment and pool names apart
	if known {
		front.NoteModel(ctx, x.Model) // a deployment or pool key: configuration, not request data
	}
	if api.Models != nil && !slices.Contains(api.Models, x.Model) || !known {
		return listener.Outcome{}, 0, modelNotFound(listenerName, known, r.servedModels(api))
	}
	deadline := deadline(x, api, time.Now())
	if limit, capped := api.Setting(registry.MaxDeadlineSetting); capped {
		x.CapDeadline(limit)
	}
	if pooled {
		return r.forwardPool(ctx, pool, x, deadline, took)
	}
	if refusal := r.checks.Refusal(d); refusal != nil { // not ready by its health (runtime/fleet)
		return listener.Outcome{}, 0, refusal
	}
	decisions := x.Client != nil && x.Client.Endpoint == listener.EndpointDecisions
	if decisions { // what d's card refuses fails its questions alone, as the runtime fails them (uncarried.go)
		if refusal := failUnasked(x, d); refusal != nil {
			return listener.Outcome{}, 0, refusal
		}
	}
	caps := r.capabilities(ctx, d)
	switch m := missing(d, caps, x.Batch); {
	case len(m) == 0:
	case decisions: // what d cannot take fails its questions alone (uncarried.go)
		if refusal := failUncarried(x, d, m); refusal != nil {
			return listener.Outcome{}, 0, refusal
		}
	default:
		ce := &tc.CarryError{Deployment: d.Name, Schema: string(d.Schema), Missing: unbatched(m, x.Single)}
		return listener.Outcome{}, 0, ce.ErrorBody()
	}
	dc := r.callers[d]
	refusal, wait, probe := fleet.Admitted(d.Name, dc.health)
	if refusal != nil {
		took.tries = []fleet.Try{{Deployment: d.Name, Outcome: refusal.Reason}}
		return listener.Outcome{}, wait, refusal
	}
	defer dc.health.EndProbe(probe)
	var sender engine.Sender = dc
	var rec *attempt
	if d.Fleet.Retries > 0 { // a record of the retries, for the access line
		rec = &attempt{deploymentCaller: dc}
		sender = rec
	}
	out, retryAfter, e = r.engine.Run(ctx, x, route(dc, caps, deadline, sender))
	if !x.Planned() {
		return listener.Outcome{}, 0, e
	}
	*took = routed{deployment: d.Name, calls: len(x.Plan.Calls), passThrough: x.PassThrough}
	if rec != nil {
		took.tries = fleet.DirectTries(d.Name, &rec.Attempt, len(x.Plan.Calls), x.Results)
	}
	return out, retryAfter, e
}

// route is where x goes on dc's deployment, with the capabilities r
// resolved: planned by its codec (after its deviations), its calls sent
// by sender (dc, or an attempt keeping a record of them), and dc's hooks
// (the plan's span, diagnostics count and credentials).
func route(dc *deploymentCaller, caps tc.CapabilitySet, deadline time.Time, sender engine.Sender) engine.Route {
	d := dc.d
	return engine.Route{Codec: d.Codec, Target: target(d, caps), Policy: tc.Policy{Deadline: deadline},
		Deviations: d.Deviations, Sender: sender, Hooks: dc}
}

// deadline is when every upstream call must have answered: the client's
// deadline_ms capped by the listener's max_deadline_ms, which also applies
// when the client asked for none. Zero for no deadline.
func deadline(x *engine.Exchange, api *routerconfig.ListenerAPI, now time.Time) time.Time {
	ms := x.DeadlineMs()
	limit, capped := api.Setting(registry.MaxDeadlineSetting)
	switch {
	case ms == nil && !capped:
		return time.Time{}
	case ms == nil || capped && *ms > limit:
		return now.Add(ir.DeadlineDuration(limit))
	}
	return now.Add(ir.DeadlineDuration(*ms))
}
