package router

import (
	"context"
	"strings"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/fleet"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/routerconfig"
	tc "github.com/vllm-sr/systemone/runtime/target"
)

// The fixed words of the routing member an auto-routed answer adds.
const (
	routingDecision  = "capability"
	routingAlgorithm = "first_capable_member"
	routingStage     = "forward"
)

// choice is a pool member chosen for a request, with its capabilities.
type choice struct {
	deployment *routerconfig.Deployment
	caps       tc.CapabilitySet
	// refusal is the member's health refusal (runtime/fleet): it is passed
	// over; nil for none.
	refusal *ir.ErrorBody
}

// candidates are the members of pool, in the order a request tries them,
// that answer every question type of b and read its media (by card,
// listing or declared capabilities) and whose schema carries b: in pool
// order, those the last readiness check found down after the others (a
// check may be stale, a call is not), each with its health refusal if it
// has one. When none can, the refusal is 400 unsupported_capability
// naming, for each member, what it is missing.
func (r *Router) candidates(ctx context.Context, pool *routerconfig.Pool, b *ir.Batch, single bool) ([]choice, *ir.ErrorBody) {
	var why []string
	var up, down []choice
	for _, member := range pool.Members {
		d, _ := r.cfg.Deployment(member) // the loader checked that each member names one
		caps := r.capabilities(ctx, d)
		if m := missing(d, caps, b); len(m) > 0 {
			why = append(why, (&tc.CarryError{Deployment: d.Name, Schema: string(d.Schema), Missing: unbatched(m, single)}).Error())
			continue
		}
		c := choice{deployment: d, caps: caps, refusal: r.checks.Refusal(d)}
		if r.callers[d].health.Down() {
			down = append(down, c)
			continue
		}
		up = append(up, c)
	}
	if len(up)+len(down) == 0 {
		return nil, listener.ErrorOf(ir.ErrorUnsupportedCapability, vocab.ReasonNoCapableMember,
			"no member of pool "+quote(pool.Name)+" can answer the request: "+strings.Join(why, "; "))
	}
	return append(up, down...), nil
}

// routing is the routing member of an auto-routed answer: the pool
// (recipe), how the member was decided, the deployment chosen, the model
// it answered with, the calls of its plan, and every member tried.
func routing(pool string, c choice, calls int, tries []fleet.Try) jsonvalue.Value {
	items := make([]jsonvalue.Value, len(tries))
	for i, t := range tries {
		items[i], _ = jsonvalue.Object(
			jsonvalue.Member{Name: vocab.RoutingTryDeployment, Value: jsonvalue.String(t.Deployment)},
			jsonvalue.Member{Name: vocab.RoutingTryOutcome, Value: jsonvalue.String(t.Outcome)},
			jsonvalue.Member{Name: vocab.RoutingTryCalls, Value: jsonvalue.Int(int64(t.Calls))},
		)
	}
	v, _ := jsonvalue.Object(
		jsonvalue.Member{Name: vocab.RoutingRecipe, Value: jsonvalue.String(pool)},
		jsonvalue.Member{Name: vocab.RoutingDecision, Value: jsonvalue.String(routingDecision)},
		jsonvalue.Member{Name: vocab.RoutingAlgorithm, Value: jsonvalue.String(routingAlgorithm)},
		jsonvalue.Member{Name: vocab.RoutingStage, Value: jsonvalue.String(routingStage)},
		jsonvalue.Member{Name: vocab.RoutingDeployment, Value: jsonvalue.String(c.deployment.Name)},
		jsonvalue.Member{Name: vocab.RoutingModel, Value: jsonvalue.String(c.deployment.Model)},
		jsonvalue.Member{Name: vocab.RoutingCalls, Value: jsonvalue.Int(int64(calls))},
		jsonvalue.Member{Name: vocab.RoutingTries, Value: jsonvalue.Array(items...)},
	)
	return v
}

// addRouting sets routing on every response of out.
func addRouting(out *listener.Outcome, routing jsonvalue.Value) {
	if out.Response != nil {
		out.Response.Routing = routing
	}
	if out.Batch != nil {
		for i := range out.Batch.Responses {
			out.Batch.Responses[i].Response.Routing = routing
		}
	}
}
