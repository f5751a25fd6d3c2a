package router

import (
	"context"
	"time"

	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/routerconfig"
	"github.com/vllm-sr/systemone/runtime/table"
	tc "github.com/vllm-sr/systemone/runtime/target"
)

// run is one job's execution on one deployment: its plan and its results.
type run struct {
	plan    tc.Plan
	results []tc.ItemResult
	// passThrough: the client's bytes went to the native endpoint.
	passThrough bool
}

// runOn plans j for d and runs the plan. A request whose listener plan is
// pass-through goes to a vllm-sr deployment's native /v1/decisions with
// the client's own bytes (see passThroughPlan); anything else is planned
// by d's target codec, then rewritten by d's deviations.
func (r *Router) runOn(ctx context.Context, d *routerconfig.Deployment, caps tc.CapabilitySet, j *job, deadline time.Time) (*run, *ir.ErrorBody) {
	out := &run{}
	c := &caller{client: r.client, codec: d.Codec, deviations: d.Deviations,
		observe: func(status int) { r.metrics.recordCall(d.Name, status) }}
	if canPassThrough(d, j) {
		plan, err := passThroughPlan(d, j, deadline)
		if err != nil {
			return nil, planFailed(err)
		}
		out.plan, out.passThrough = plan, true
		c.codec, c.deviations = tc.Internal, nil
	} else {
		plan, diags, err := d.Codec.Plan(j.batch, target(d, caps), tc.Policy{Deadline: deadline})
		if err != nil {
			return nil, planFailed(err)
		}
		devDiags, err := tc.ApplyRequestDeviations(&plan, d.Deviations)
		if err != nil {
			return nil, planFailed(err)
		}
		r.metrics.recordTarget(d.Name, append(diags, devDiags...))
		out.plan = plan
	}
	out.results = c.execute(ctx, &out.plan)
	return out, nil
}

// canPassThrough: the listener codec planned pass-through for a single
// /v1/decisions request, and d is a vllm-sr deployment (whose servers
// read the internal form on /v1/decisions) with no deviation to apply.
func canPassThrough(d *routerconfig.Deployment, j *job) bool {
	return j.cr.Plan == listener.PlanPassThrough && j.cr.Endpoint == listener.EndpointDecisions &&
		j.single && d.Schema == table.SchemaVllmSR50 && len(d.Deviations) == 0
}

// passThroughPlan is the internal codec's plan for the request, whose one
// call carries the client's own bytes when the client's model is what goes
// upstream and the listener did not lower its deadline. Otherwise the call
// keeps the internal codec's body, which is the client's request with only
// its model or deadline_ms rewritten (the internal form is lossless).
func passThroughPlan(d *routerconfig.Deployment, j *job, deadline time.Time) (tc.Plan, error) {
	plan, _, err := tc.Internal.Plan(j.batch, d.Target(), tc.Policy{Deadline: deadline})
	if err != nil {
		return tc.Plan{}, err
	}
	if j.model == d.Model && !j.deadlineCapped && len(plan.Calls) == 1 {
		plan.Calls[0].Body = j.cr.Body
	}
	return plan, nil
}

// outcome turns a run's results into the client's answer: on a fail-fast
// endpoint the first failure answers the whole request (firstFailure),
// with the delay its upstream asked for; otherwise each failed item's
// questions carry their errors. Responses name the model the client asked
// for.
func outcome(j *job, rn *run) (listener.Outcome, time.Duration, *ir.ErrorBody) {
	if j.failFast {
		if f, retryAfter := firstFailure(j, rn); f != nil {
			return listener.Outcome{}, retryAfter, f
		}
	}
	batch := tc.Reassemble(&rn.plan, rn.results)
	model := j.model
	batch.Model = &model
	if j.single {
		resp := batch.Responses[0].Response
		resp.Model = &model
		return listener.Outcome{Response: &resp}, 0, nil
	}
	return listener.Outcome{Batch: batch}, 0, nil
}
