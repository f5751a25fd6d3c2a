package bodylimit

import (
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
//
// On any error w is prepared for an early answer (Connection: close, and
// reading after writing): write the answer, then call Linger.
func Read(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	wire, err := openWire(w, r, limit)
	if err == nil {
		var body []byte
		if body, err = readWire(wire, r, limit); err == nil {
			return body, nil
		}
	}
	answerEarly(w, r)
	return nil, err
}

// readWire reads the whole of wire, the body as opened by openWire, in
// chunks (fill) sized by its declared length: a body with a
// Content-Length costs exactly its length, one of unknown length at most
// twice its length, never the doubling of a growing buffer.
func readWire(wire io.Reader, r *http.Request, limit int64) ([]byte, error) {
	body, _, err := fill(wire, limit, max(r.ContentLength, 0), nil)
	if err != nil {
		return nil, wireError(err, limit)
	}
	return body, nil
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

// wireError turns MaxBytesReader's refusal (or fill's, which reads the
// same limit) into a *TooLargeError and passes any other read error on.
func wireError(err error, limit int64) error {
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) || errors.Is(err, errPastMax) {
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
