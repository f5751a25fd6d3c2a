package observe

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"
)

// LLMCall is the client span of one LLM pass-through, which
// httputil.ReverseProxy sends: started before the proxy runs, named by
// the path once the request is rewritten, given the upstream's status
// or failure, and ended once the answer (a stream's included) has been
// relayed. A nil *LLMCall, tracing off, does nothing and costs nothing.
type LLMCall struct {
	sp  Span
	ctx context.Context
	// status is the upstream's reply status, 0 for none; failure the
	// reason of a pass-through that failed (a fixed word), "" for none.
	status  int
	failure string
}

// StartLLMCall begins the client span of req's pass-through of api to
// upstream at target, its configured endpoint.
func (t *Tracing) StartLLMCall(req *http.Request, api, upstream string, target *url.URL) *LLMCall {
	if t == nil {
		return nil
	}
	word := methodWord(req.Method)
	ctx, s := t.tracer.Start(req.Context(), word, trace.WithSpanKind(trace.SpanKindClient))
	c := &LLMCall{sp: Span{s}, ctx: ctx}
	if c.sp.Recording() {
		s.SetAttributes(semconv.HTTPRequestMethodKey.String(word), attrAPI.String(api), attrUpstream.String(upstream))
		s.SetAttributes(serverAttrs(target)...)
	}
	return c
}

// Request is req in the call's Span, whose trace context the rewritten
// request sends upstream (SetTraceHeaders).
func (c *LLMCall) Request(req *http.Request) *http.Request {
	if c == nil {
		return req
	}
	return req.WithContext(c.ctx)
}

// Sending names the span by the path out is sent to: the upstream's base
// path and the API's (a registry path, never the client's own).
func (c *LLMCall) Sending(out *http.Request) {
	if c == nil || !c.sp.Recording() {
		return
	}
	c.sp.s.SetName(methodWord(out.Method) + " " + out.URL.Path)
	c.sp.s.SetAttributes(semconv.URLPath(out.URL.Path))
}

// ModifyResponse is next, noting the reply's status first.
func (c *LLMCall) ModifyResponse(next func(*http.Response) error) func(*http.Response) error {
	if c == nil {
		return next
	}
	return func(resp *http.Response) error {
		c.status = resp.StatusCode
		return next(resp)
	}
}

// Failed notes why the pass-through failed: a fixed reason word.
func (c *LLMCall) Failed(reason string) {
	if c != nil {
		c.failure = reason
	}
}

// End ends the span with the upstream's status, failed for a 4xx or 5xx
// or a failure.
func (c *LLMCall) End() {
	if c == nil {
		return
	}
	if c.sp.Recording() {
		if c.status > 0 {
			c.sp.s.SetAttributes(semconv.HTTPResponseStatusCode(c.status))
		}
		switch {
		case c.failure != "":
			failSpan(c.sp, c.failure)
		case c.status >= http.StatusBadRequest:
			failSpan(c.sp, strconv.Itoa(c.status))
		}
	}
	c.sp.End()
}
