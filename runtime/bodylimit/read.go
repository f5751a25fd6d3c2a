package bodylimit

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
)

// TooLargeError is the error of a body over the limit. It carries the
// limit only, never any of the body.
type TooLargeError struct {
	Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("bodylimit: the request body is larger than %d bytes", e.Limit)
}

// Read returns r's body when it is at most limit bytes; a *TooLargeError
// when it is larger; any other error when the body could not be read.
//
// It never reads more than limit+1 bytes from the connection, and never
// any byte of a body whose Content-Length is over the limit. w is the
// handler's ResponseWriter: when the limit is passed, MaxBytesReader tells
// the server (through it) to close the connection after the reply.
func Read(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	if limit < 0 {
		return nil, errors.New("bodylimit: negative limit")
	}
	if r.ContentLength > limit {
		return nil, &TooLargeError{Limit: limit}
	}
	if r.Body == nil || r.Body == http.NoBody {
		return []byte{}, nil
	}
	var buf bytes.Buffer
	if r.ContentLength > 0 {
		buf.Grow(int(r.ContentLength))
	}
	_, err := buf.ReadFrom(http.MaxBytesReader(innermost(w), r.Body, limit))
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		return nil, &TooLargeError{Limit: limit}
	case err != nil:
		return nil, err
	}
	return buf.Bytes(), nil
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
