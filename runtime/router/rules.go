package router

import (
	"context"
	"time"

	"github.com/vllm-sr/systemone/runtime/engine"
	"github.com/vllm-sr/systemone/runtime/fleet"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/routerconfig"
	"github.com/vllm-sr/systemone/runtime/rules"
)

// Decide evaluates the named rules as one stage over the input parts
// (rules.Evaluator.Decide): what `vllm-sr decide` runs.
func (r *Router) Decide(ctx context.Context, names []string, input map[string]string) ([]rules.Result, error) {
	return r.rules.Decide(ctx, names, input)
}

// DecideJSON writes results as `vllm-sr decide` prints them, each
// response in the shape of the schema a System One listener speaks by
// default (rules.JSON).
func (r *Router) DecideJSON(results []rules.Result) ([]byte, error) {
	return rules.JSON(r.systemone.Codec, results)
}

// ruleDeployments are r's deployments as its rules reach them.
type ruleDeployments struct{ r *Router }

// Admit refuses d's rules while its health refuses it or its circuit is
// open (runtime/fleet).
func (rd ruleDeployments) Admit(d *routerconfig.Deployment) (*ir.ErrorBody, func()) {
	if refused := rd.r.checks.Refusal(d); refused != nil {
		return refused, func() {}
	}
	h := rd.r.callers[d].health
	refused, _, probe := fleet.Admitted(d.Name, h)
	return refused, func() { h.EndProbe(probe) }
}

// Run runs a rule batch on d through the engine, as a request is run.
func (rd ruleDeployments) Run(ctx context.Context, d *routerconfig.Deployment, batch *ir.Batch, deadline time.Time) (listener.Outcome, *ir.ErrorBody) {
	dc := rd.r.callers[d]
	out, _, e := rd.r.engine.Run(ctx, &engine.Exchange{Batch: batch}, route(dc, rd.r.capabilities(ctx, d), deadline, dc))
	return out, e
}
