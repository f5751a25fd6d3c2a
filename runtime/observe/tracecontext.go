package observe

import (
	"context"
	"math/rand/v2"
	"net/http"
	"strings"

	"go.opentelemetry.io/otel/propagation"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/vllm-sr/systemone/runtime/front"
)

// The W3C trace context headers, as net/http canonicalizes them.
const (
	headerTraceparent = "Traceparent"
	headerTracestate  = "Tracestate"
)

// traceContext is the W3C Trace Context propagator: it reads a client's
// traceparent and tracestate, and writes the ones a call sends upstream.
var traceContext propagation.TraceContext

// TraceRequest reads the client's W3C trace context and returns req with
// the Router's own in its context, which every call the request makes
// sends upstream (TraceHeaders):
//   - With tracing on, the request's server span is the Router's: a child
//     of the client's span when its traceparent is valid (its sampled
//     flag deciding, sample_ratio otherwise), else a new trace's root.
//   - With tracing off, a valid client context goes on with a new span id
//     of the Router's, its flags and tracestate as the client sent them;
//     a request without one, or with one that is not valid, sends none
//     upstream. Nothing is recorded, so a trace id the Router made would
//     identify nothing; and a request with no traceparent costs nothing.
//
// A probe (probe true: /health, /ready, /metrics) is not traced: it calls
// nothing upstream. The trace id joins the request's access line.
func TraceRequest(t *Tracing, req *http.Request, s *front.Served, probe bool) (*http.Request, Span) {
	_, sent := req.Header[headerTraceparent]
	if (t == nil && !sent) || probe {
		return req, Span{}
	}
	ctx := req.Context()
	if sent {
		ctx = traceContext.Extract(ctx, clientTrace{req.Header})
	}
	var sp Span
	if t != nil {
		var ts trace.Span
		method := methodWord(req.Method)
		ctx, ts = t.tracer.Start(ctx, method, trace.WithSpanKind(trace.SpanKindServer))
		sp = Span{ts}
		if sp.Recording() {
			ts.SetAttributes(semconv.HTTPRequestMethodKey.String(method), attrListener.String(s.Listener))
		}
	} else if sc := trace.SpanContextFromContext(ctx); sc.IsValid() {
		ctx = trace.ContextWithSpanContext(ctx, sc.WithSpanID(newSpanID()).WithRemote(false))
	}
	sc := trace.SpanContextFromContext(ctx)
	if !sc.IsValid() {
		return req, sp
	}
	s.AddAttrs(logTraceID(sc.TraceID()))
	return req.WithContext(ctx), sp
}

// TraceHeaders are the traceparent and tracestate a call made in ctx
// sends upstream: the trace context of ctx's Span, the call's own with
// tracing on (its parent-id the call's span id), else the Router's Span
// of the request (TraceRequest); "" when there is none.
func TraceHeaders(ctx context.Context) (parent, state string) {
	sc := trace.SpanContextFromContext(ctx)
	if !sc.IsValid() {
		return "", ""
	}
	var c headerPair
	traceContext.Inject(ctx, &c)
	return c.parent, c.state
}

// SetTraceHeaders replaces h's trace context with the one a call made in
// ctx sends (TraceHeaders): a client's own never goes upstream as it
// came, and one that was not valid not at all. h is the call's own copy.
func SetTraceHeaders(h http.Header, ctx context.Context) {
	delete(h, headerTraceparent)
	delete(h, headerTracestate)
	parent, state := TraceHeaders(ctx)
	if parent != "" {
		h[headerTraceparent] = []string{parent}
	}
	if state != "" {
		h[headerTracestate] = []string{state}
	}
}

// clientTrace is a client's headers as the propagator reads them
// (propagation.TextMapCarrier): a traceparent sent once (two are
// ambiguous, so neither is taken), and the tracestate lines joined, as
// W3C Trace Context says a list header split over lines is read. It reads
// the canonical names directly, without the copy http.Header.Get makes of
// the propagator's lower-case ones.
type clientTrace struct{ h http.Header }

func (c clientTrace) Get(key string) string {
	switch key {
	case "traceparent": //vocab:not-spec W3C Trace Context's header, as the propagator names it
		if vs := c.h[headerTraceparent]; len(vs) == 1 {
			return vs[0]
		}
	case "tracestate": //vocab:not-spec W3C Trace Context's header, as the propagator names it
		return strings.Join(c.h[headerTracestate], ",")
	}
	return ""
}

func (c clientTrace) Set(string, string) {}
func (c clientTrace) Keys() []string     { return traceContext.Fields() }

// headerPair is a propagation.TextMapCarrier that keeps what Inject sets.
type headerPair struct{ parent, state string }

func (c *headerPair) Get(string) string { return "" }
func (c *headerPair) Keys() []string    { return nil }
func (c *headerPair) Set(key, value string) {
	switch key {
	case "traceparent": //vocab:not-spec W3C Trace Context's header, as the propagator names it
		c.parent = value
	case "tracestate": //vocab:not-spec W3C Trace Context's header, as the propagator names it
		c.state = value
	}
}

// newSpanID is a random span id that is valid (not all zeros).
func newSpanID() trace.SpanID {
	var id trace.SpanID
	for !id.IsValid() {
		v := rand.Uint64()
		for i := range id {
			id[i] = byte(v >> (8 * i))
		}
	}
	return id
}
