package srun

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/vllm-sr/systemone/generated/fieldtable"
	sp "github.com/vllm-sr/systemone/runtime/systemoneprotocol"
)

// BodyLimit is the largest request body the server reads, in bytes, both
// as sent and after a Content-Encoding is undone: the generated body_bytes
// limit (32 MiB).
var BodyLimit = mustLimit("body_bytes")

func mustLimit(name string) int64 {
	l, ok := fieldtable.LimitOf(name)
	if !ok || !l.HasMax {
		// The limit is part of the generated tables the server is built
		// with; its absence is a build error, not a request error.
		panic("srun: the generated limit " + name + " has no maximum")
	}
	return l.Max
}

// readBody reads a request body of at most limit bytes, decoded. It
// decides a body is too large without reading more than limit+1 bytes: a
// Content-Length above the limit is refused before any byte is read, and
// a chunked or lying body is cut off by http.MaxBytesReader one byte past
// the limit (which also makes the server close the connection instead of
// draining the rest).
func readBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, *sp.ErrorBody) {
	if r.ContentLength > limit {
		return nil, tooLarge(limit)
	}
	wire := http.MaxBytesReader(innermost(w), r.Body, limit)
	src, refusal := decodedReader(wire, r.Header, limit)
	if refusal != nil {
		return nil, refusal
	}
	// One byte past the limit is enough to know the decoded body is too
	// large; a gzip bomb stops inflating there.
	var buf bytes.Buffer
	if r.ContentLength > 0 {
		buf.Grow(int(r.ContentLength))
	}
	n, err := buf.ReadFrom(io.LimitReader(src, limit+1))
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig) || n > limit:
		return nil, tooLarge(limit)
	case errors.Is(err, gzip.ErrChecksum) || errors.Is(err, gzip.ErrHeader) || errors.Is(err, io.ErrUnexpectedEOF) && isGzip(r.Header):
		return nil, invalidRequest("invalid_gzip", "the gzip request body is corrupt or truncated")
	case err != nil:
		return nil, invalidRequest("unreadable_body", "the request body could not be read")
	}
	return buf.Bytes(), nil
}

// decodedReader undoes the request's Content-Encoding: none, identity or
// gzip. Anything else is refused, naming the supported codings.
func decodedReader(body io.Reader, h http.Header, limit int64) (io.Reader, *sp.ErrorBody) {
	switch coding := contentEncoding(h); coding {
	case "", "identity":
		return body, nil
	case "gzip", "x-gzip":
		gz, err := gzip.NewReader(body)
		if err != nil {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				return nil, tooLarge(limit)
			}
			return nil, invalidRequest("invalid_gzip", "the request body is not gzip data")
		}
		return gz, nil
	default:
		return nil, invalidRequest("unsupported_content_encoding",
			"the Content-Encoding is not supported; send gzip or identity")
	}
}

func contentEncoding(h http.Header) string {
	return strings.ToLower(strings.TrimSpace(h.Get("Content-Encoding")))
}

func isGzip(h http.Header) bool {
	c := contentEncoding(h)
	return c == "gzip" || c == "x-gzip"
}

func tooLarge(limit int64) *sp.ErrorBody {
	return &sp.ErrorBody{
		Status:  requestStatus(sp.ErrorRequestTooLarge),
		Code:    sp.ErrorRequestTooLarge,
		Message: fmt.Sprintf("the request body is larger than %d bytes", limit),
		Reason:  "body_too_large",
		Limit:   &limit,
	}
}

// innermost unwraps w to the server's own ResponseWriter, which
// MaxBytesReader tells to close the connection once the limit is passed.
func innermost(w http.ResponseWriter) http.ResponseWriter {
	for {
		u, ok := w.(interface{ Unwrap() http.ResponseWriter })
		if !ok {
			return w
		}
		w = u.Unwrap()
	}
}
