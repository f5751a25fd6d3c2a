package engine

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/vllm-sr/systemone/runtime/ir"
	tc "github.com/vllm-sr/systemone/runtime/target"
)

// Sender sends one wire call of an exchange's plan and returns its raw
// reply: a status, headers and body, or the error that left none
// (target.WireReply). It reads no reply with a codec: the engine decodes
// (wire.go). The Router's sends over HTTP, with its fleet's bounds,
// retries and circuits; it is called from several goroutines at once for
// a plan of several calls.
type Sender interface {
	Send(ctx context.Context, x *Exchange, call *tc.WireCall) tc.WireReply
}

// Hooks are what a server splices into Run: its spans, counts and
// credentials, around the stages the engine owns. A route without hooks
// runs none.
type Hooks interface {
	// Planning is called before x is planned for its route, and returns
	// the context Planned is called with (one holding the plan's span).
	Planning(ctx context.Context, x *Exchange) context.Context
	// Planned is called once x is planned: e is the refusal of a request
	// that could not be, nil when x.Plan holds its calls, whose headers
	// Planned may add to (credentials, on copies: a codec shares them).
	Planned(ctx context.Context, x *Exchange, e *ir.ErrorBody)
	// Decoded is called with each call's results once its reply is
	// decoded, from the goroutine that sent it: where a reply that broke
	// its schema is logged with the upstream's words (a result's Cause).
	Decoded(ctx context.Context, x *Exchange, results []ItemResult)
}

// callWire runs the plan's wire calls with the route's sender, at most
// MaxConcurrency in flight, the next call starting as soon as one
// finishes (a sliding window, in plan order), every call bounded by ctx
// and the plan's deadline. Each reply goes through the route's
// deviations, then its codec's DecodeReply (a reply it cannot read is
// each of the call's items' malformed-reply error), and each item error
// names the deployment.
//
// The window is MaxConcurrency workers taking the next call in turn: the
// worker whose call finished decodes it and starts the next one itself,
// with no hand-off to another goroutine between one call's reply and the
// next call's send (BenchmarkBatchFanOut measures the batch against
// ceil(calls/window) call times).
//
// A call not started before the deadline is never sent: its items get no
// result, which reassembly answers deadline_exceeded, so only their own
// questions are unknown. The results come back in call order.
func (x *Exchange) callWire(ctx context.Context) []ItemResult {
	p := &x.Plan
	if !p.Deadline.IsZero() {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, p.Deadline)
		defer cancel()
	}
	if len(p.Calls) == 1 { // most plans: no window to keep, no results to gather
		if ctx.Err() != nil {
			return nil
		}
		return x.callOne(ctx, &p.Calls[0])
	}
	perCall := make([][]ItemResult, len(p.Calls))
	var next atomic.Int64 // the index of the next call to start
	work := func() {
		for i := int(next.Add(1) - 1); i < len(p.Calls) && ctx.Err() == nil; i = int(next.Add(1) - 1) {
			perCall[i] = x.callOne(ctx, &p.Calls[i])
		}
	}
	workers := min(max(p.MaxConcurrency, 1), len(p.Calls))
	var wg sync.WaitGroup
	for range workers - 1 {
		wg.Go(work)
	}
	work() // the request's own goroutine is one of the workers
	wg.Wait()
	var out []ItemResult
	for _, rs := range perCall {
		out = append(out, rs...)
	}
	return out
}

// callOne sends call with the route's sender and decodes its reply.
func (x *Exchange) callOne(ctx context.Context, call *tc.WireCall) []ItemResult {
	rt := &x.Route
	reply := rt.Sender.Send(ctx, x, call)
	var results []ItemResult
	reply, err := deviated(reply, rt.Deviations)
	if err == nil {
		results, err = rt.Codec.DecodeReply(x.Plan, *call, reply)
	}
	if err != nil {
		results = tc.MalformedReply(&x.Plan, call, err)
	}
	if rt.Hooks != nil {
		rt.Hooks.Decoded(ctx, x, results)
	}
	nameDeployment(results, rt.Target.Deployment)
	return results
}

// deviated is reply as the route's deviations rewrite it. The copy they
// rewrite is made only when there are some: a reply with none stays on
// the calling goroutine's stack.
func deviated(reply tc.WireReply, devs []tc.Deviation) (tc.WireReply, error) {
	if len(devs) == 0 {
		return reply, nil
	}
	rewritten := reply
	err := tc.ApplyReplyDeviations(&rewritten, devs)
	return rewritten, err
}

// nameDeployment prefixes each item error's message (and its detail
// items') with the deployment that failed: configuration, not request
// data.
func nameDeployment(results []ItemResult, deployment string) {
	var prefix string // made for the first error: most calls have none
	for i := range results {
		e := results[i].Error
		if e == nil {
			continue
		}
		if prefix == "" {
			prefix = "deployment " + `"` + deployment + `"` + ": "
		}
		e.Message = prefix + e.Message
		e.Detail = slices.Clone(e.Detail) // the call's items' copies share it
		for j := range e.Detail {
			e.Detail[j].Msg = prefix + e.Detail[j].Msg
		}
	}
}
