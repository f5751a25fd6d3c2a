package router

import (
	"context"
	"time"

	"github.com/vllm-sr/systemone/runtime/engine"
	"github.com/vllm-sr/systemone/runtime/fleet"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/routerconfig"
)

// forwardPool runs x on pool's members in the order candidates gives,
// passing over a member whose circuit is open, that its health refuses,
// or whose Retry-After has not ended, and failing over to the next when
// the whole plan failed before any answer (runtime/fleet: every call refused,
// reset, timed out on its own bound, or answered 502, 503, 504 or 529),
// while ctx lasts and the deadline, the caller's capped by the listener's
// max_deadline_ms, has not passed. A plan of several calls some of which
// answered is the member's answer: its failed calls' items carry their
// errors, and the calls that answered are not sent twice.
//
// The last member tried answers; when every capable member is passed
// over, the first one's refusal does (503 circuit_open, its health's
// refusal, or the busy answer it gave, with the delay left). What was
// tried goes into the answer's routing and the access line.
func (r *Router) forwardPool(ctx context.Context, pool *routerconfig.Pool, x *engine.Exchange, deadline time.Time,
	took *routed) (out listener.Outcome, retryAfter time.Duration, e *ir.ErrorBody) {
	cands, refusal := r.candidates(ctx, pool, x.Batch, x.Single)
	if refusal != nil {
		return listener.Outcome{}, 0, refusal
	}
	var tries []fleet.Try
	var passed *ir.ErrorBody // the first passed-over member's refusal
	var passedWait time.Duration
	var answered *choice
	failed := "" // the member the last try failed over from
	for i := range cands {
		c := &cands[i]
		dc := r.callers[c.deployment]
		why, wait, probe := passOver(c, dc)
		if why != nil {
			tries = append(tries, fleet.Try{Deployment: c.deployment.Name, Outcome: why.Reason})
			if passed == nil {
				passed, passedWait = why, wait
			}
			continue
		}
		if answered != nil && (ctx.Err() != nil || !deadline.IsZero() && !time.Now().Before(deadline)) {
			dc.health.EndProbe(probe)
			break // no time left for another member: the last one's answer stands
		}
		if failed != "" {
			r.metrics.fleet.FailedOver(pool.Name, failed)
		}
		rec := &attempt{deploymentCaller: dc}
		out, retryAfter, e = r.engine.Run(ctx, x, route(dc, c.caps, deadline, rec)) // planned afresh for this member
		dc.health.EndProbe(probe)
		if !x.Planned() {
			return listener.Outcome{}, 0, e
		}
		*took = routed{deployment: c.deployment.Name, calls: len(x.Plan.Calls), passThrough: x.PassThrough}
		answered = c
		t := fleet.Try{Deployment: c.deployment.Name, Outcome: fleet.TryAnswered, Calls: rec.Calls()}
		if rec.FailedOver(len(x.Plan.Calls)) {
			t.Outcome, failed = fleet.Failure(x.Results), c.deployment.Name
			tries = append(tries, t)
			continue
		}
		tries = append(tries, t)
		break
	}
	took.tries = tries
	if answered == nil {
		return listener.Outcome{}, passedWait, passed
	}
	if e == nil {
		addRouting(&out, routing(pool.Name, *answered, len(x.Plan.Calls), tries))
	}
	return out, retryAfter, e
}

// passOver is why a pool request passes member c over without a call
// (nil: it does not), with the delay left: its health refuses it, or its
// fleet state does (fleet.PassOver); else the probe it holds when c's
// circuit is half-open (0 for none), which the caller ends.
func passOver(c *choice, dc *deploymentCaller) (why *ir.ErrorBody, wait time.Duration, probe uint64) {
	if c.refusal != nil {
		return c.refusal, 0, 0
	}
	return fleet.PassOver(c.deployment.Name, dc.health)
}
