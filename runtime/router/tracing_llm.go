package router

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"
)

// llmCall is the client span of one LLM pass-through, which
// httputil.ReverseProxy sends: started before the proxy runs, named by
// the path once the request is rewritten, given the upstream's status
// or failure, and ended once the answer (a stream's included) has been
// relayed. A nil *llmCall, tracing off, does nothing and costs nothing.
type llmCall struct {
	sp  span
	ctx context.Context
	// status is the upstream's reply status, 0 for none; failure the
	// reason of a pass-through that failed (a fixed word), "" for none.
	status  int
	failure string
}

// startLLMCall begins the client span of req's pass-through of api to
// upstream at target, its configured endpoint.
func (t *tracing) startLLMCall(req *http.Request, api, upstream string, target *url.URL) *llmCall {
	if t == nil {
		return nil
	}
	word := methodWord(req.Method)
	ctx, s := t.tracer.Start(req.Context(), word, trace.WithSpanKind(trace.SpanKindClient))
	c := &llmCall{sp: span{s}, ctx: ctx}
	if c.sp.recording() {
		s.SetAttributes(semconv.HTTPRequestMethodKey.String(word), attrAPI.String(api), attrUpstream.String(upstream))
		s.SetAttributes(serverAttrs(target)...)
	}
	return c
}

// request is req in the call's span, whose trace context the rewritten
// request sends upstream (setTraceHeaders).
func (c *llmCall) request(req *http.Request) *http.Request {
	if c == nil {
		return req
	}
	return req.WithContext(c.ctx)
}

// sending names the span by the path out is sent to: the upstream's base
// path and the API's (a registry path, never the client's own).
func (c *llmCall) sending(out *http.Request) {
	if c == nil || !c.sp.recording() {
		return
	}
	c.sp.s.SetName(methodWord(out.Method) + " " + out.URL.Path)
	c.sp.s.SetAttributes(semconv.URLPath(out.URL.Path))
}

// modifyResponse is next, noting the reply's status first.
func (c *llmCall) modifyResponse(next func(*http.Response) error) func(*http.Response) error {
	if c == nil {
		return next
	}
	return func(resp *http.Response) error {
		c.status = resp.StatusCode
		return next(resp)
	}
}

// failed notes why the pass-through failed: a fixed reason word.
func (c *llmCall) failed(reason string) {
	if c != nil {
		c.failure = reason
	}
}

// end ends the span with the upstream's status, failed for a 4xx or 5xx
// or a failure.
func (c *llmCall) end() {
	if c == nil {
		return
	}
	if c.sp.recording() {
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
	c.sp.end()
}
