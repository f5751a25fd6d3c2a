package bodylimit

import (
	"compress/flate"
	"compress/gzip"
	"errors"
	"io"
	"net/http"
	"slices"
	"strings"
)

// supportedEncodings are the Content-Encoding values ReadDecoded undoes
// (besides none at all), in the order error messages name them.
var supportedEncodings = []string{"gzip", "x-gzip", "identity"}

// UnsupportedEncodingError is the error of a Content-Encoding ReadDecoded
// cannot undo. It names the supported codings, never the one sent: header
// values are request data.
type UnsupportedEncodingError struct {
	Supported []string
}

func (e *UnsupportedEncodingError) Error() string {
	return "bodylimit: the Content-Encoding is not supported; supported: " + strings.Join(e.Supported, ", ")
}

// CorruptGzipError is the error of a gzip body that cannot be inflated.
// NotGzip is true when the body does not even start with a gzip header
// (an empty body, or one that was never compressed); otherwise the
// compressed stream is corrupt, fails its checksum or is truncated.
type CorruptGzipError struct {
	NotGzip bool
}

func (e *CorruptGzipError) Error() string {
	if e.NotGzip {
		return "bodylimit: the request body is not gzip data"
	}
	return "bodylimit: the gzip request body is corrupt or truncated"
}

// ReadDecoded returns r's body with its Content-Encoding undone, when it
// is at most limit bytes both as sent and decoded. Errors: *TooLargeError
// when either size is over the limit, *UnsupportedEncodingError for a
// coding other than gzip, x-gzip or identity, *CorruptGzipError for gzip
// that cannot be inflated, *OverBudgetError when the Shared inflating
// budget has no room for a gzip body, any other error when the body could
// not be read.
//
// The wire is read as by Read (never more than limit+1 bytes, nothing
// when Content-Length is over the limit), and inflating stops one byte
// past the limit, into chunks reserved from the budget as they are
// allocated: a gzip bomb costs about limit bytes of memory, and the
// bombs inflated at once together no more than the budget.
//
// On any error w is prepared for an early answer, as by Read.
func ReadDecoded(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	return Shared.ReadDecoded(w, r, limit)
}

// ReadDecoded is the package's ReadDecoded, inflating under b.
func (b *Budget) ReadDecoded(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	body, err := decode(w, r, limit, b)
	if err != nil {
		answerEarly(w, r)
		return nil, err
	}
	return body, nil
}

func decode(w http.ResponseWriter, r *http.Request, limit int64, b *Budget) ([]byte, error) {
	wire, err := openWire(w, r, limit)
	if err != nil {
		return nil, err
	}
	gzipped, err := isGzip(r.Header)
	if err != nil {
		return nil, err
	}
	if !gzipped {
		return readWire(wire, r, limit)
	}
	zr, err := gzip.NewReader(wire)
	if err != nil {
		return nil, inflateError(err, limit, true)
	}
	budget := reservation{b: b, ctx: r.Context()}
	body, held, err := fill(zr, limit, 0, budget)
	if err != nil {
		return nil, inflateError(err, limit, false)
	}
	budget.holdUntilDone(held)
	return body, nil
}

// isGzip reports whether the Content-Encoding is gzip (or its alias
// x-gzip) rather than none or identity, and refuses any other coding or
// a chain of codings. Codings are case-insensitive (RFC 9110 §8.4.1);
// identity entries change nothing and are skipped.
func isGzip(h http.Header) (bool, error) {
	var codings []string
	for _, v := range h.Values("Content-Encoding") {
		for c := range strings.SplitSeq(v, ",") {
			c = strings.ToLower(strings.TrimSpace(c))
			if c != "" && c != "identity" {
				codings = append(codings, c)
			}
		}
	}
	switch {
	case len(codings) == 0:
		return false, nil
	case len(codings) == 1 && (codings[0] == "gzip" || codings[0] == "x-gzip"):
		return true, nil
	}
	return false, &UnsupportedEncodingError{Supported: slices.Clone(supportedEncodings)}
}

// inflateError sorts an error met while inflating: the budget's refusal,
// gzip that is corrupt (inHeader: while reading the gzip header), or as
// on the wire (wireError) the limit passed or a read error passed on.
func inflateError(err error, limit int64, inHeader bool) error {
	var corrupt flate.CorruptInputError
	var over *OverBudgetError
	switch {
	case errors.As(err, &over):
		return over
	case inHeader && (errors.Is(err, gzip.ErrHeader) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)):
		return &CorruptGzipError{NotGzip: true}
	case errors.Is(err, gzip.ErrHeader) || errors.Is(err, gzip.ErrChecksum) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.As(err, &corrupt):
		return &CorruptGzipError{}
	}
	return wireError(err, limit)
}
