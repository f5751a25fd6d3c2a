package router

import (
	"cmp"
	"context"
	"strings"

	"github.com/vllm-sr/systemone/generated/vocab"
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
}

// choose returns the first member of pool, in pool order, that answers
// every question type of b and reads its media (by card, listing or
// declared capabilities) and whose schema carries b, skipping a member its
// health refuses (contract.go). When none can, the refusal is the first
// capable member's health refusal (503) if there is one, else 400
// unsupported_capability naming, for each member, what it is missing.
func (r *Router) choose(ctx context.Context, pool *routerconfig.Pool, b *ir.Batch, single bool) (choice, *ir.ErrorBody) {
	var why []string
	var refused *ir.ErrorBody
	for _, member := range pool.Members {
		d, _ := r.cfg.Deployment(member) // the loader checked that each member names one
		caps := r.capabilities(ctx, d)
		m := missing(d, caps, b)
		if len(m) == 0 {
			if e := r.checks.refusal(d); e != nil {
				refused = cmp.Or(refused, e)
				continue
			}
			return choice{deployment: d, caps: caps}, nil
		}
		why = append(why, (&tc.CarryError{Deployment: d.Name, Schema: string(d.Schema), Missing: unbatched(m, single)}).Error())
	}
	if refused != nil {
		return choice{}, refused
	}
	return choice{}, listener.ErrorOf(ir.ErrorUnsupportedCapability, vocab.ReasonNoCapableMember,
		"no member of pool "+quote(pool.Name)+" can answer the request: "+strings.Join(why, "; "))
}

// routing is the routing member of an auto-routed answer: the pool
// (recipe), how the member was decided, the deployment chosen, the model
// it answered with, and how many upstream calls were made.
func routing(pool string, c choice, calls int) jsonvalue.Value {
	v, _ := jsonvalue.Object(
		jsonvalue.Member{Name: "recipe", Value: jsonvalue.String(pool)},
		jsonvalue.Member{Name: "decision", Value: jsonvalue.String(routingDecision)},
		jsonvalue.Member{Name: "algorithm", Value: jsonvalue.String(routingAlgorithm)},
		jsonvalue.Member{Name: "stage", Value: jsonvalue.String(routingStage)},
		jsonvalue.Member{Name: "deployment", Value: jsonvalue.String(c.deployment.Name)},
		jsonvalue.Member{Name: vocab.ResponseModel, Value: jsonvalue.String(c.deployment.Model)}, // the model named as a response names it
		jsonvalue.Member{Name: "calls", Value: jsonvalue.Int(int64(calls))},
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
