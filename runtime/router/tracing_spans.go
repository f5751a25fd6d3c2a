package router

import (
	"context"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"sync"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/vllm-sr/systemone/runtime/engine"
	"github.com/vllm-sr/systemone/runtime/front"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/routerconfig"
	tc "github.com/vllm-sr/systemone/runtime/target"
)

// The names of the Router's internal spans; a server span is named by
// its method and endpoint, a call's by its method and path, as the
// OpenTelemetry HTTP conventions name them.
const (
	spanRead   = "listener read"
	spanPlan   = "plan"
	spanAnswer = "answer" //vocab:not-spec a span name
)

// The Router's own span attributes, beside the OpenTelemetry semantic
// conventions' (http.*, server.*, url.path, error.type). Their values are
// configuration names and fixed words, never request data: no state, no
// question, no key, no client-chosen path or model.
const (
	attrListener    = attribute.Key("vsr.listener")
	attrAPI         = attribute.Key("vsr.api")
	attrDeployment  = attribute.Key("vsr.deployment")
	attrUpstream    = attribute.Key("vsr.upstream")
	attrSchema      = attribute.Key("vsr.schema")
	attrCalls       = attribute.Key("vsr.upstream_calls")
	attrPassThrough = attribute.Key("vsr.pass_through_bytes")
)

// methodWord is a method as the Router's spans name it: one HTTP
// defines (front.MethodWord), else the conventions' _OTHER.
func methodWord(method string) string {
	if w := front.MethodWord(method); w != "other" { //vocab:not-spec front.MethodWord's word for any other method
		return w
	}
	return semconv.HTTPRequestMethodOther.Value.AsString()
}

// errorType is error.type of a failed answer: its error code (a fixed
// word), else its status.
func errorType(code string, status int) string {
	if code != "" {
		return code
	}
	return strconv.Itoa(status)
}

// failSpan marks a recording span failed with errType, a fixed word.
func failSpan(sp span, errType string) {
	sp.s.SetAttributes(semconv.ErrorTypeKey.String(errType))
	sp.s.SetStatus(codes.Error, errType)
}

// endWith ends sp with e's reason as error.type when e is set, failed
// when e is a 5xx (a refusal of the client's request is its outcome, not
// the Router's error).
func endWith(sp span, e *ir.ErrorBody) {
	if e != nil && sp.recording() {
		if e.Status >= http.StatusInternalServerError {
			failSpan(sp, errorType(e.Reason, e.Status))
		} else {
			sp.s.SetAttributes(semconv.ErrorTypeKey.String(errorType(e.Reason, e.Status)))
		}
	}
	sp.end()
}

// logTraceID is the access line's attribute of a request's trace.
func logTraceID(id trace.TraceID) slog.Attr {
	return slog.String("trace_id", id.String()) //vocab:not-spec log attribute key
}

// endRequest ends a request's server span with what it answered.
func endRequest(sp span, req *http.Request, s *front.Served) {
	if !sp.recording() {
		sp.end()
		return
	}
	status := s.Status
	if status == 0 {
		status = http.StatusOK // what Finish logs for a handler that wrote nothing
	}
	if s.Endpoint != front.EndpointUnknown {
		// A registry path (or an admin one), never the client's own: the
		// span's name and route stay a fixed set.
		sp.s.SetName(methodWord(req.Method) + " " + s.Endpoint)
		sp.s.SetAttributes(semconv.HTTPRoute(s.Endpoint), semconv.URLPath(s.Endpoint))
	}
	sp.s.SetAttributes(semconv.HTTPResponseStatusCode(status))
	if s.API != "" {
		sp.s.SetAttributes(attrAPI.String(s.API))
	}
	if status >= http.StatusInternalServerError { // a 4xx is the client's, not the server span's error
		failSpan(sp, errorType(s.Code, status))
	}
	sp.end()
}

// startRead begins the listener read span of a request of api: its body
// read, then by the listener's codec.
func (t *tracing) startRead(ctx context.Context, api *routerconfig.ListenerAPI) span {
	_, sp := t.start(ctx, spanRead)
	if sp.recording() {
		sp.s.SetAttributes(attrSchema.String(string(api.Schema)))
	}
	return sp
}

// traceRouted adds where a System One request went to its server span:
// the listener's schema, the deployment and the plan.
func traceRouted(ctx context.Context, api *routerconfig.ListenerAPI, took *routed) {
	s := trace.SpanFromContext(ctx)
	if !s.IsRecording() {
		return
	}
	s.SetAttributes(attrSchema.String(string(api.Schema)))
	if took.deployment != "" {
		s.SetAttributes(attrDeployment.String(took.deployment), attrCalls.Int(took.calls), attrPassThrough.Bool(took.passThrough))
	}
}

// startPlan begins the plan span of an exchange for deployment d.
func (t *tracing) startPlan(ctx context.Context, deployment, schema string) span {
	_, sp := t.start(ctx, spanPlan)
	if sp.recording() {
		sp.s.SetAttributes(attrDeployment.String(deployment), attrSchema.String(schema))
	}
	return sp
}

// endPlan ends a plan span with what was planned.
func endPlan(sp span, x *engine.Exchange, e *ir.ErrorBody) {
	if sp.recording() && e == nil {
		sp.s.SetAttributes(attrCalls.Int(len(x.Plan.Calls)), attrPassThrough.Bool(x.PassThrough))
	}
	endWith(sp, e)
}

// startCall begins the client span of one System One call and returns
// the context its trace context goes upstream from (traceHeaders).
func (t *tracing) startCall(ctx context.Context, rt *engine.Route, call *tc.WireCall) (context.Context, span) {
	if t == nil {
		return ctx, span{}
	}
	target := t.calls.get(call.Method, call.URL)
	ctx, s := t.tracer.Start(ctx, target.name, trace.WithSpanKind(trace.SpanKindClient))
	sp := span{s}
	if sp.recording() {
		s.SetAttributes(target.attrs...)
		s.SetAttributes(attrDeployment.String(rt.Target.Deployment), attrSchema.String(string(rt.Codec.Traits().Schema)))
	}
	return ctx, sp
}

// endCall ends a call's span with its reply: the status, and error.type
// for a 4xx or 5xx (the status) or no reply (the reason the client would
// get, a fixed word: upstream_unreachable, deadline_exceeded ...).
func endCall(sp span, reply *tc.WireReply) {
	if sp.recording() {
		if reply.Status > 0 {
			sp.s.SetAttributes(semconv.HTTPResponseStatusCode(reply.Status))
		}
		switch {
		case reply.Err != nil:
			failSpan(sp, tc.NoReplyError(reply.Err).Reason)
		case reply.Status >= http.StatusBadRequest:
			failSpan(sp, strconv.Itoa(reply.Status))
		}
	}
	sp.end()
}

// callTargets holds, for each method and call URL (a deployment's
// endpoint and the codec's paths below it: configuration), the name and
// attributes of its calls' spans, made on the first call.
type callTargets struct{ m sync.Map }

type callKey struct{ method, url string }

type callTarget struct {
	name  string
	attrs []attribute.KeyValue
}

func (c *callTargets) get(method, rawURL string) *callTarget {
	key := callKey{method, rawURL}
	if t, ok := c.m.Load(key); ok {
		return t.(*callTarget)
	}
	word := methodWord(method)
	t := &callTarget{name: word, attrs: []attribute.KeyValue{semconv.HTTPRequestMethodKey.String(word)}}
	if u, err := url.Parse(rawURL); err == nil {
		t.name += " " + u.Path
		t.attrs = append(append(t.attrs, serverAttrs(u)...), semconv.URLPath(u.Path))
	}
	got, _ := c.m.LoadOrStore(key, t)
	return got.(*callTarget)
}

// serverAttrs are server.address and server.port of a configured
// upstream URL; never its user information.
func serverAttrs(u *url.URL) []attribute.KeyValue {
	port := u.Port()
	if port == "" {
		port = "80"
		if u.Scheme == "https" {
			port = "443"
		}
	}
	attrs := []attribute.KeyValue{semconv.ServerAddress(u.Hostname())}
	if p, err := strconv.Atoi(port); err == nil {
		attrs = append(attrs, semconv.ServerPort(p))
	}
	return attrs
}
