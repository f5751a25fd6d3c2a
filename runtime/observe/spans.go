package observe

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

	"github.com/vllm-sr/systemone/runtime/front"
	"github.com/vllm-sr/systemone/runtime/ir"
	tc "github.com/vllm-sr/systemone/runtime/target"
)

// The names of the Router's internal spans; a server span is named by
// its method and endpoint, a call's by its method and path, as the
// OpenTelemetry HTTP conventions name them.
const (
	spanRead   = "listener read"
	spanPlan   = "plan"
	SpanAnswer = "answer" //vocab:not-spec a span name
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
func failSpan(sp Span, errType string) {
	sp.s.SetAttributes(semconv.ErrorTypeKey.String(errType))
	sp.s.SetStatus(codes.Error, errType)
}

// EndWith ends sp with e's reason as error.type when e is set, failed
// when e is a 5xx (a refusal of the client's request is its outcome, not
// the Router's error).
func EndWith(sp Span, e *ir.ErrorBody) {
	if e != nil && sp.Recording() {
		if e.Status >= http.StatusInternalServerError {
			failSpan(sp, errorType(e.Reason, e.Status))
		} else {
			sp.s.SetAttributes(semconv.ErrorTypeKey.String(errorType(e.Reason, e.Status)))
		}
	}
	sp.End()
}

// logTraceID is the access line's attribute of a request's trace.
func logTraceID(id trace.TraceID) slog.Attr {
	return slog.String("trace_id", id.String()) //vocab:not-spec log attribute key
}

// EndRequest ends a request's server span with what it answered.
func EndRequest(sp Span, req *http.Request, s *front.Served) {
	if !sp.Recording() {
		sp.End()
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
	sp.End()
}

// StartRead begins the listener read span of a request to a listener of
// schema: its body read, then by the listener's codec.
func (t *Tracing) StartRead(ctx context.Context, schema string) Span {
	_, sp := t.Start(ctx, spanRead)
	if sp.Recording() {
		sp.s.SetAttributes(attrSchema.String(schema))
	}
	return sp
}

// TraceRouted adds where a System One request went to its server span:
// the listener's schema, and the deployment it was planned for ("" for
// none), its calls and whether they carried the client's own bytes.
func TraceRouted(ctx context.Context, schema, deployment string, calls int, passThrough bool) {
	s := trace.SpanFromContext(ctx)
	if !s.IsRecording() {
		return
	}
	s.SetAttributes(attrSchema.String(schema))
	if deployment != "" {
		s.SetAttributes(attrDeployment.String(deployment), attrCalls.Int(calls), attrPassThrough.Bool(passThrough))
	}
}

// StartPlan begins the plan span of an exchange for deployment, whose
// schema is schema, and returns the context it is current in, which
// EndPlan ends it from (ctx itself with tracing off).
func (t *Tracing) StartPlan(ctx context.Context, deployment, schema string) context.Context {
	if t == nil {
		return ctx
	}
	ctx, sp := t.Start(ctx, spanPlan)
	if sp.Recording() {
		sp.s.SetAttributes(attrDeployment.String(deployment), attrSchema.String(schema))
	}
	return ctx
}

// EndPlan ends the plan span StartPlan put in ctx with what was planned:
// its calls, and whether its one call carries the client's bytes; e is
// why nothing was.
func (t *Tracing) EndPlan(ctx context.Context, calls int, passThrough bool, e *ir.ErrorBody) {
	if t == nil {
		return
	}
	sp := Span{trace.SpanFromContext(ctx)}
	if sp.Recording() && e == nil {
		sp.s.SetAttributes(attrCalls.Int(calls), attrPassThrough.Bool(passThrough))
	}
	EndWith(sp, e)
}

// StartCall begins the client span of one System One call to deployment,
// whose schema is schema, and returns the context its trace context goes
// upstream from (TraceHeaders).
func (t *Tracing) StartCall(ctx context.Context, deployment, schema string, call *tc.WireCall) (context.Context, Span) {
	if t == nil {
		return ctx, Span{}
	}
	target := t.calls.get(call.Method, call.URL)
	ctx, s := t.tracer.Start(ctx, target.name, trace.WithSpanKind(trace.SpanKindClient))
	sp := Span{s}
	if sp.Recording() {
		s.SetAttributes(target.attrs...)
		s.SetAttributes(attrDeployment.String(deployment), attrSchema.String(schema))
	}
	return ctx, sp
}

// EndCall ends a call's span with its reply: the status, and error.type
// for a 4xx or 5xx (the status) or no reply (the reason the client would
// get, a fixed word: upstream_unreachable, deadline_exceeded ...).
func EndCall(sp Span, reply *tc.WireReply) {
	if sp.Recording() {
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
	sp.End()
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
