package bodylimit

import (
	"io"
	"net/http"
	"strings"
	"time"
)

// How long, and how much, Linger reads of a refused body after the answer
// went out: enough for a client that sends a whole body just past the
// 32 MiB limit before it reads (Python's http.client, requests) at a
// modest rate, bounded so a client cannot hold the connection.
const (
	LingerBytes = 64 << 20
	LingerTime  = 5 * time.Second
)

// lingerTime is LingerTime; tests shorten it.
var lingerTime = LingerTime

// Linger reads and discards what is left of r's body after the handler
// has written an early answer (a 413 before the body was read, a 400 for
// a coding it does not undo), at most LingerBytes for at most LingerTime,
// as nginx's lingering close does. A server that closes a connection with
// unread request bytes makes the kernel reset it, and a client that sends
// the whole body before reading then sees a broken pipe instead of the
// answer; once the rest is read, the close is orderly and the client reads
// the answer. The connection is not reused (the answer says Connection:
// close).
//
// A request that asked for 100-continue is not read: the client sends no
// body after a final status. Nor is a body whose reading already failed
// (one that says so, as a FailedBody does): a client that stalled past
// the body-read deadline is not sending, and lingering would hold its
// connection LingerTime past that deadline. Call Linger last, after the
// answer is written; it flushes the answer first.
func Linger(w http.ResponseWriter, r *http.Request) {
	if r.Body == nil || r.Body == http.NoBody || expectsContinue(r) {
		return
	}
	if f, ok := r.Body.(FailedBody); ok && f.ReadFailed() {
		return
	}
	rc := http.NewResponseController(w)
	_ = rc.Flush()
	_ = rc.SetReadDeadline(time.Now().Add(lingerTime))
	_, _ = io.CopyN(io.Discard, r.Body, LingerBytes)
}

// FailedBody is a request body that knows whether reading it failed (the
// servers' body under its read deadline, runtime/listener).
type FailedBody interface {
	ReadFailed() bool
}

// answerEarly prepares w for an answer written before the body is read
// to its end: the handler will read (Linger) after writing, and the
// connection closes after the answer. Called where a body is refused.
func answerEarly(w http.ResponseWriter, r *http.Request) {
	if w == nil || expectsContinue(r) {
		return
	}
	_ = http.NewResponseController(w).EnableFullDuplex()
	w.Header().Set("Connection", "close")
}

func expectsContinue(r *http.Request) bool {
	return strings.EqualFold(strings.TrimSpace(r.Header.Get("Expect")), "100-continue")
}
