package upstream

import (
	"errors"
	"strconv"

	"github.com/vllm-sr/systemone/runtime/front"
	tc "github.com/vllm-sr/systemone/runtime/target"
)

// ErrRequestHeader is a call with a header that is not a valid field.
var ErrRequestHeader = errors.New("upstream: a call's header is not a valid HTTP field")

// appendRequestHead is the request line and headers of call: the call's
// own headers (canonical keys, as the codecs build them), the call's id
// (appendCallID) as its X-Request-Id, the W3C trace context (traceparent
// and tracestate, "" for none), Connection: close when closeAfter, and
// the body's length; not ok when a header name or value is not a valid
// field (a CR or LF in one would end the head early).
func appendRequestHead(b []byte, t *upstreamTarget, call *tc.WireCall, callID []byte, traceparent, tracestate string, closeAfter bool) (_ []byte, ok bool) {
	b = append(b, call.Method...)
	b = append(b, ' ')
	b = append(b, t.requestURI...)
	b = append(b, " HTTP/1.1\r\nHost: "...)
	b = append(b, t.host...)
	b = append(b, "\r\nUser-Agent: vllm-sr\r\n"...)
	for k, vs := range call.Header {
		for _, v := range vs {
			if !validFieldName([]byte(k)) || !validFieldValue([]byte(v)) {
				return b, false
			}
			b = append(b, k...)
			b = append(b, ": "...)
			b = append(b, v...)
			b = append(b, "\r\n"...)
		}
	}
	if len(callID) > 0 { // well-formed: a request id front.WellFormedRequestID took or made, '.', digits
		b = append(b, front.HeaderXRequestID...)
		b = append(b, ": "...)
		b = append(b, callID...)
		b = append(b, "\r\n"...)
	}
	if closeAfter {
		b = append(b, "Connection: close\r\n"...)
	}
	// Written by the trace propagator, or a client's tracestate it
	// read: checked as a field, as the call's own headers are.
	for _, h := range [2][2]string{{headerTraceparent, traceparent}, {headerTracestate, tracestate}} {
		if h[1] == "" {
			continue
		}
		if !validFieldValue(h[1]) {
			return b, false
		}
		b = append(b, h[0]...)
		b = append(b, ": "...)
		b = append(b, h[1]...)
		b = append(b, "\r\n"...)
	}
	b = append(b, "Content-Length: "...)
	b = strconv.AppendInt(b, int64(len(call.Body)), 10)
	return append(b, "\r\n\r\n"...), true
}
