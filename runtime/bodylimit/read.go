package bodylimit

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
)

// TooLargeError is the error of a body over the limit, as sent or
// decoded. It carries the limit only, never any of the body.
type TooLargeError struct {
	Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("bodylimit: the request body is larger than %d bytes", e.Limit)
}

// Read returns r's body as sent, without undoing any Content-Encoding,
// when it is at most limit bytes; a *TooLargeError when it is larger; any
// other error when the body could not be read.
//
// It never reads more than limit+1 bytes from the connection, and never
// any byte of a body whose Content-Length is over the limit. w is the
// handler's ResponseWriter: when the limit is passed, MaxBytesReader tells
// the server (through it) to close the connection after the reply.
func Read(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	wire, err := openWire(w, r, limit)
	if err != nil {
		return nil, err
	}
	return readWire(wire, r, limit)
}

// readWire reads the whole of wire, the body as opened by openWire.
func readWire(wire io.Reader, r *http.Request, limit int64) ([]byte, error) {
	var buf bytes.Buffer
	growForWire(&buf, r)
	if _, err := buf.ReadFrom(wire); err != nil {
		return nil, wireError(err, limit)
	}
	return buf.Bytes(), nil
}

// openWire checks the limit against the declared length and returns the
// body cut off one byte past the limit. A request without a body reads as
// empty.
func openWire(w http.ResponseWriter, r *http.Request, limit int64) (io.Reader, error) {
	if limit < 0 {
		return nil, errors.New("bodylimit: negative limit")
	}
	if r.ContentLength > limit {
		return nil, &TooLargeError{Limit: limit}
	}
	if r.Body == nil || r.Body == http.NoBody {
		return http.NoBody, nil
	}
	return http.MaxBytesReader(innermost(w), r.Body, limit), nil
}

// growForWire sizes buf for the declared length, which openWire has
// already held to the limit.
func growForWire(buf *bytes.Buffer, r *http.Request) {
	if r.ContentLength > 0 {
		buf.Grow(int(r.ContentLength))
	}
}

// wireError turns MaxBytesReader's refusal into a *TooLargeError and
// passes any other read error on.
func wireError(err error, limit int64) error {
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return &TooLargeError{Limit: limit}
	}
	return err
}

// innermost unwraps w to the server's own ResponseWriter, the one
// MaxBytesReader can tell to close the connection; wrappers (recorders,
// metrics) that implement Unwrap are looked through.
func innermost(w http.ResponseWriter) http.ResponseWriter {
	for w != nil {
		u, ok := w.(interface{ Unwrap() http.ResponseWriter })
		if !ok {
			return w
		}
		w = u.Unwrap()
	}
	return w
}
