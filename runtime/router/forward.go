package router

import (
	"context"
	"slices"
	"strconv"
	"time"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/engine"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/registry"
	"github.com/vllm-sr/systemone/runtime/routerconfig"
	tc "github.com/vllm-sr/systemone/runtime/target"
)

// forward routes a read request by its model and runs it through the
// engine: on the deployment it names (refused before any call when that
// deployment cannot carry or answer it; on /v1/decisions only the
// questions that need what it cannot fail, each on its own), or on the first capable member of
// the pool it names, whose answer adds routing. On an error, retryAfter is
// the delay the upstream asked for with the failure that answers the
// request (zero when none).
func (r *Router) forward(ctx context.Context, listenerName string, api *routerconfig.ListenerAPI, x *engine.Exchange,
	took *routed) (out listener.Outcome, retryAfter time.Duration, e *ir.ErrorBody) {
	if x.Model == "" { // optional while the listener answers with one model
		served := r.servedModels(api)
		if len(served) != 1 {
			return listener.Outcome{}, 0, listener.InvalidRequest(vocab.ReasonMissingModel,
				"the request names no model, and listener "+quote(listenerName)+" serves "+strconv.Itoa(len(served))+" models; name a deployment or a pool")
		}
		x.Model = served[0]
	}
	d, direct := r.cfg.Deployment(x.Model)
	pool, pooled := r.cfg.Pool(x.Model)
	known := direct || pooled // the loader keeps deployment and pool names apart
	if known {
		listener.NoteModel(ctx, x.Model) // a deployment or pool key: configuration, not request data
	}
	if api.Models != nil && !slices.Contains(api.Models, x.Model) || !known {
		return listener.Outcome{}, 0, modelNotFound(listenerName, known, r.servedModels(api))
	}
	deadline := deadline(x, api, time.Now())
	if limit, capped := api.Setting(registry.MaxDeadlineSetting); capped {
		x.CapDeadline(limit)
	}
	var chosen choice
	if pooled {
		c, refusal := r.choose(ctx, pool, x.Batch, x.Single)
		if refusal != nil {
			return listener.Outcome{}, 0, refusal
		}
		chosen = c
	} else {
		if refusal := r.checks.refusal(d); refusal != nil { // not ready by its health (contract.go)
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
		chosen = choice{deployment: d, caps: caps}
	}
	if e := r.plan(ctx, x, chosen.deployment, chosen.caps, deadline); e != nil {
		return listener.Outcome{}, 0, e
	}
	*took = routed{deployment: chosen.deployment.Name, calls: len(x.Plan.Calls), passThrough: x.PassThrough}
	out, retryAfter, e = x.Call(ctx)
	if e == nil && pooled {
		addRouting(&out, routing(x.Model, chosen, len(x.Plan.Calls)))
	}
	return out, retryAfter, e
}

// plan has the engine plan x for d, with the capabilities r resolved, and
// counts the plan's diagnostics, in the request's plan span.
func (r *Router) plan(ctx context.Context, x *engine.Exchange, d *routerconfig.Deployment, caps tc.CapabilitySet, deadline time.Time) *ir.ErrorBody {
	sp := r.tracing.startPlan(ctx, d.Name, string(d.Schema))
	e := r.engine.Plan(x, engine.Route{Codec: d.Codec, Target: target(d, caps), Policy: tc.Policy{Deadline: deadline},
		Deviations: d.Deviations, Caller: r.caller})
	if e == nil && len(x.Diagnostics) > 0 {
		r.metrics.recordTarget(d.Name, x.Diagnostics)
	}
	authorizeCalls(&x.Plan, d.APIKey) // the deployment's key, if any (auth.go)
	endPlan(sp, x, e)
	return e
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
