package router

import (
	"context"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/vllm-sr/systemone/runtime/engine"
	"github.com/vllm-sr/systemone/runtime/fleet"
	"github.com/vllm-sr/systemone/runtime/observe"
	"github.com/vllm-sr/systemone/runtime/registry"
	"github.com/vllm-sr/systemone/runtime/routerconfig"
	tc "github.com/vllm-sr/systemone/runtime/target"
	"github.com/vllm-sr/systemone/runtime/upstream"
)

// httpCaller is the Router's engine.Caller: it sends a plan's wire calls
// over HTTP and reads each reply with the route's codec. One serves every
// request of a Router.
type httpCaller struct {
	// transport sends the calls and returns their raw replies
	// (runtime/upstream).
	transport *upstream.Transport
	metrics   *metrics
	// log gets each failed call with the upstream's words.
	log *slog.Logger
	// tracing records each call's span; nil: off (runtime/observe).
	tracing *observe.Tracing
}

// closeIdle closes the idle upstream connections: no call is left to
// make.
func (c *httpCaller) closeIdle() { c.transport.CloseIdle() }

// call runs the plan's calls to deployment dc, at most MaxConcurrency in
// flight, the next call starting as soon as one finishes (a sliding
// window, in plan order), every call bounded by ctx and the plan's
// deadline, and tried again as the deployment's retries say (retry.go).
// Each reply goes through the route's deviations, then its codec's
// DecodeReply, and each call's outcome is counted for the route's
// deployment and noted in its call health (circuit.go) and, when rec is
// not nil, in the request's record of what it tried.
//
// The window is MaxConcurrency workers taking the next call in turn: the
// worker whose call finished starts the next one itself, with no hand-off
// to another goroutine between one call's reply and the next call's send
// (BenchmarkBatchFanOut measures the batch against ceil(calls/window)
// call times).
//
// A call not started before the deadline is never sent: its items get no
// result, which reassembly answers deadline_exceeded, so only their own
// questions are unknown. The results come back in call order.
func (c *httpCaller) call(ctx context.Context, x *engine.Exchange, dc *deploymentCaller, rec *attempt) []tc.ItemResult {
	p, rt := &x.Plan, &x.Route
	if !p.Deadline.IsZero() {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, p.Deadline)
		defer cancel()
	}
	if len(p.Calls) == 1 { // most plans: no window to keep, no results to gather
		if ctx.Err() != nil {
			return nil
		}
		return c.one(ctx, p, rt, &p.Calls[0], dc, rec)
	}
	return c.window(ctx, p, rt, dc, rec)
}

// window runs the calls of a plan of several as call describes.
func (c *httpCaller) window(ctx context.Context, p *tc.Plan, rt *engine.Route, dc *deploymentCaller, rec *attempt) []tc.ItemResult {
	perCall := make([][]tc.ItemResult, len(p.Calls))
	var next atomic.Int64 // the index of the next call to start
	work := func() {
		for i := int(next.Add(1) - 1); i < len(p.Calls) && ctx.Err() == nil; i = int(next.Add(1) - 1) {
			perCall[i] = c.one(ctx, p, rt, &p.Calls[i], dc, rec)
		}
	}
	workers := min(max(p.MaxConcurrency, 1), len(p.Calls))
	var wg sync.WaitGroup
	for range workers - 1 {
		wg.Go(work)
	}
	work() // the request's own goroutine is one of the workers
	wg.Wait()
	var out []tc.ItemResult
	for _, rs := range perCall {
		out = append(out, rs...)
	}
	return out
}

// one sends one call, again while it fails before any answer and the
// deployment's retries allow (retry.go), and decodes the last reply into
// its items' results. A failed call is logged with the upstream's own
// words (which no client gets), and each of its items' errors names the
// deployment.
func (c *httpCaller) one(ctx context.Context, p *tc.Plan, rt *engine.Route, call *tc.WireCall, dc *deploymentCaller, rec *attempt) []tc.ItemResult {
	reply, o := c.try(ctx, rt, call, dc, rec)
	if o == fleet.OutcomeFailed && dc.d.Fleet.Retries > 0 {
		reply, o = fleet.Retry(ctx, dc.d.Fleet.Retries, dc.health, reply, func() (tc.WireReply, fleet.Outcome) {
			c.metrics.fleet.Retried(dc.d.Name)
			return c.try(ctx, rt, call, dc, rec)
		})
	}
	var results []tc.ItemResult
	reply, err := deviated(reply, rt.Deviations)
	if err == nil {
		results, err = rt.Codec.DecodeReply(*p, *call, reply)
	}
	if err != nil {
		results = tc.MalformedReply(p, call, err)
	}
	c.logMalformed(ctx, rt.Target.Deployment, results)
	nameDeployment(results, rt.Target.Deployment)
	if rec != nil {
		rec.Note(o, results)
	}
	return results
}

// try sends call once, under the deployment's timeout_ms when it has
// one, counts it, logs a failure, and notes what it says of the
// deployment's health.
func (c *httpCaller) try(ctx context.Context, rt *engine.Route, call *tc.WireCall, dc *deploymentCaller, rec *attempt) (tc.WireReply, fleet.Outcome) {
	callCtx := ctx
	if t := dc.d.Fleet.Timeout; t > 0 { // the call's own bound, under ctx's deadline
		var cancel context.CancelFunc
		callCtx, cancel = context.WithTimeout(ctx, t)
		defer cancel()
	}
	counted := c.metrics.StartCall(ctx, registry.SystemOne, rt.Target.Deployment)
	callCtx, sp := c.tracing.StartCall(callCtx, rt.Target.Deployment, string(rt.Codec.Traits().Schema), call)
	parent, state := observe.TraceHeaders(callCtx)
	opts := upstream.Call{Echoes: rt.Codec.Traits().Native, Deployment: dc.d.Name, NoReuse: dc.d.Fleet.Connections.NoReuse,
		StrayPause: dc.d.Fleet.Connections.StrayPause, Traceparent: parent, Tracestate: state}
	reply := c.transport.Send(callCtx, call, &opts)
	observe.EndCall(sp, &reply)
	counted.End(reply.Status, reply.Err)
	if reply.Err != nil || reply.Status < 200 || reply.Status > 299 {
		c.logFailure(ctx, rt.Target.Deployment, &reply)
	}
	o := fleet.Judge(ctx, &reply)
	dc.health.Note(o, dc.d.Fleet.Circuit)
	dc.health.NoteBusy(&reply)
	if rec != nil {
		rec.Sent()
	}
	return reply, o
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

// deploymentCaller is the engine.Caller of one deployment's plans: the
// Router's httpCaller with the deployment's fleet settings and call
// health. One is made per deployment with each configuration
// (Router.withConfig) and shared by its requests.
type deploymentCaller struct {
	c      *httpCaller
	d      *routerconfig.Deployment
	health *fleet.Health
}

var _ engine.Caller = (*deploymentCaller)(nil)

func (dc *deploymentCaller) Call(ctx context.Context, x *engine.Exchange) []tc.ItemResult {
	return dc.c.call(ctx, x, dc, nil)
}

// attempt is the engine.Caller of one request's plan on one deployment
// when the request keeps a record of what it tried (a pool's, or one to a
// deployment with retries).
type attempt struct {
	fleet.Attempt
	dc *deploymentCaller
}

var _ engine.Caller = (*attempt)(nil)

func (a *attempt) Call(ctx context.Context, x *engine.Exchange) []tc.ItemResult {
	return a.dc.c.call(ctx, x, a.dc, a)
}

// nameDeployment prefixes each item error's message (and its detail
// items') with the deployment that failed: configuration, not request
// data.
func nameDeployment(results []tc.ItemResult, deployment string) {
	var prefix string // made for the first error: most calls have none
	for i := range results {
		e := results[i].Error
		if e == nil {
			continue
		}
		if prefix == "" {
			prefix = "deployment " + quote(deployment) + ": "
		}
		e.Message = prefix + e.Message
		e.Detail = slices.Clone(e.Detail) // the call's items' copies share it
		for j := range e.Detail {
			e.Detail[j].Msg = prefix + e.Detail[j].Msg
		}
	}
}

// maxLoggedReply bounds the excerpt of a failed reply's body in the log.
const maxLoggedReply = 512

// logFailure logs a call that got no reply or a non-2xx one, with what
// the upstream said: its status, the transport error, the redirect's
// target and an excerpt of its body. These are the upstream's words, kept
// to the log; no client gets them. A refusal that blames the request
// (400, 413, 422) is the client's doing, not the upstream's: it is logged
// at INFO, and its body is not logged, as it may echo request values (the
// standard's 422 items carry the offending input).
func (c *httpCaller) logFailure(ctx context.Context, deployment string, reply *tc.WireReply) {
	attrs := []slog.Attr{slog.String("deployment", deployment), slog.Int("upstream_status", reply.Status)} //vocab:not-spec log attribute keys
	if reply.Err != nil {
		attrs = append(attrs, slog.String("upstream_err", reply.Err.Error()))
	}
	if loc := reply.Header.Get("Location"); loc != "" {
		attrs = append(attrs, slog.String("upstream_location", loc))
	}
	if len(reply.Body) > 0 && !blamesRequest(reply.Status) {
		excerpt := reply.Body[:min(len(reply.Body), maxLoggedReply)]
		attrs = append(attrs, slog.String("upstream_body", strings.ToValidUTF8(string(excerpt), "\ufffd")))
	}
	if blamesRequest(reply.Status) {
		c.log.LogAttrs(ctx, slog.LevelInfo, "upstream refused the request", attrs...)
		return
	}
	c.log.LogAttrs(ctx, slog.LevelWarn, "upstream call failed", attrs...)
}

// logMalformed logs, once per call, a reply that breaks its schema with
// the member at fault (the upstream's word, which the client's error
// leaves out: tc.MalformedReplyError).
func (c *httpCaller) logMalformed(ctx context.Context, deployment string, results []tc.ItemResult) {
	for i := range results {
		if cause := results[i].Cause; cause != nil {
			c.log.LogAttrs(ctx, slog.LevelWarn, "upstream reply breaks its schema", slog.String("deployment", deployment), //vocab:not-spec log attribute key
				slog.String("upstream_err", cause.Error())) //vocab:not-spec log attribute key
			return
		}
	}
}

func blamesRequest(status int) bool {
	return status == http.StatusBadRequest || status == http.StatusRequestEntityTooLarge || status == http.StatusUnprocessableEntity
}
