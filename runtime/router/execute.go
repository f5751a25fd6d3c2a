package router

import (
	"context"
	"log/slog"
	"net/http"
	"strings"

	"github.com/vllm-sr/systemone/runtime/engine"
	"github.com/vllm-sr/systemone/runtime/fleet"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/observe"
	"github.com/vllm-sr/systemone/runtime/registry"
	"github.com/vllm-sr/systemone/runtime/routerconfig"
	tc "github.com/vllm-sr/systemone/runtime/target"
	"github.com/vllm-sr/systemone/runtime/upstream"
)

// httpCaller sends the Router's wire calls to its deployments
// (runtime/upstream), with their fleet settings (runtime/fleet), counted,
// traced and logged; it returns raw replies, which the engine decodes.
// One serves every request of a Router.
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

// send sends one of a plan's calls to deployment dc, again while it
// fails before any answer and the deployment's retries allow
// (runtime/fleet), and returns the last reply, raw: the engine decodes it
// with the route's codec. Each try is counted for the deployment, noted
// in its call health and, when rec is not nil, in the request's record of
// what it tried; a failed one is logged with the upstream's own words
// (which no client gets).
func (c *httpCaller) send(ctx context.Context, rt *engine.Route, call *tc.WireCall, dc *deploymentCaller, rec *attempt) tc.WireReply {
	reply, o := c.try(ctx, rt, call, dc, rec)
	if o == fleet.OutcomeFailed && dc.d.Fleet.Retries > 0 {
		reply, o = fleet.Retry(ctx, dc.d.Fleet.Retries, dc.health, reply, func() (tc.WireReply, fleet.Outcome) {
			c.metrics.fleet.Retried(dc.d.Name)
			return c.try(ctx, rt, call, dc, rec)
		})
	}
	if rec != nil {
		rec.Note(o)
	}
	return reply
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

// deploymentCaller is the engine.Sender and engine.Hooks of one
// deployment's plans: the Router's httpCaller with the deployment's fleet
// settings and call health, and the plan's span, diagnostics count and
// credentials. One is made per deployment with each configuration
// (Router.withConfig) and shared by its requests.
type deploymentCaller struct {
	c      *httpCaller
	d      *routerconfig.Deployment
	health *fleet.Health
}

var (
	_ engine.Sender = (*deploymentCaller)(nil)
	_ engine.Hooks  = (*deploymentCaller)(nil)
)

func (dc *deploymentCaller) Send(ctx context.Context, x *engine.Exchange, call *tc.WireCall) tc.WireReply {
	return dc.c.send(ctx, &x.Route, call, dc, nil)
}

// Planning starts the request's plan span.
func (dc *deploymentCaller) Planning(ctx context.Context, _ *engine.Exchange) context.Context {
	return dc.c.tracing.StartPlan(ctx, dc.d.Name, string(dc.d.Schema))
}

// Planned counts the plan's diagnostics, sets the deployment's key on its
// calls (auth.go) and ends its span.
func (dc *deploymentCaller) Planned(ctx context.Context, x *engine.Exchange, e *ir.ErrorBody) {
	if e == nil && len(x.Diagnostics) > 0 {
		dc.c.metrics.RecordTarget(dc.d.Name, x.Diagnostics)
	}
	authorizeCalls(&x.Plan, dc.d.APIKey)
	dc.c.tracing.EndPlan(ctx, len(x.Plan.Calls), x.PassThrough, e)
}

// Decoded logs a reply that broke its schema.
func (dc *deploymentCaller) Decoded(ctx context.Context, x *engine.Exchange, results []tc.ItemResult) {
	dc.c.logMalformed(ctx, x.Route.Target.Deployment, results)
}

// attempt is the engine.Sender of one request's plan on one deployment
// when the request keeps a record of what it tried (a pool's, or one to a
// deployment with retries); its hooks are the deployment's.
type attempt struct {
	fleet.Attempt
	*deploymentCaller
}

var _ engine.Sender = (*attempt)(nil)

func (a *attempt) Send(ctx context.Context, x *engine.Exchange, call *tc.WireCall) tc.WireReply {
	return a.c.send(ctx, &x.Route, call, a.deploymentCaller, a)
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
