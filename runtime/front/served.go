package front

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/vllm-sr/systemone/generated/vocab"
)

// HeaderXRequestID is the de facto request id header: both servers take a
// client's well-formed one, answer with it, and the Router sends it
// upstream. The standard's own header (vocab.HeaderRequestID) carries the
// same id.
const HeaderXRequestID = "X-Request-Id"

// MaxRequestIDLen bounds a client's x-request-id the servers take.
const MaxRequestIDLen = 128

// typesafeIDKey is the standard's request id header, canonical, so
// setting it allocates nothing.
var typesafeIDKey = http.CanonicalHeaderKey(vocab.HeaderRequestID)

// RequestIDs makes request ids in the standard's format, "req_" and 32 hex
// digits: a random 64-bit prefix drawn once and a 64-bit counter, unique
// within a server and unlikely to collide across servers.
type RequestIDs struct {
	prefix [8]byte
	next   atomic.Uint64
}

// NewRequestIDs returns a generator with a fresh random prefix.
func NewRequestIDs() *RequestIDs {
	ids := &RequestIDs{}
	_, _ = rand.Read(ids.prefix[:]) // crypto/rand.Read never fails (Go 1.24+)
	return ids
}

// New returns a new id.
func (ids *RequestIDs) New() string {
	var raw [16]byte
	copy(raw[:8], ids.prefix[:])
	binary.BigEndian.PutUint64(raw[8:], ids.next.Add(1))
	var buf [4 + 32]byte
	copy(buf[:], "req_")
	hex.Encode(buf[4:], raw[:])
	return string(buf[:])
}

// WellFormedRequestID reports whether a client's id may be taken as the
// request's: 1 to MaxRequestIDLen printable ASCII characters, so it can
// go into headers and log lines as it is.
func WellFormedRequestID(id string) bool {
	if id == "" || len(id) > MaxRequestIDLen {
		return false
	}
	for i := 0; i < len(id); i++ {
		if id[i] < 0x20 || id[i] > 0x7e {
			return false
		}
	}
	return true
}

// Served is one request as a server answers it, from Front.Begin to
// Front.Finish: its id, the labels it is counted under, the status and
// error code it was answered with, and what the access log line adds. It
// wraps the handler's ResponseWriter: the first WriteHeader sets both
// request id headers (replacing any a proxied upstream sent), and every
// Write runs under the server's write deadline.
type Served struct {
	http.ResponseWriter
	// ID is the request id, the client's when well-formed.
	ID string
	// Listener, API and Endpoint are the request's metric labels: the
	// listener's name, the API served ("" for none) and the endpoint's
	// path ("unknown" for a path no endpoint has: a path is request data
	// until it is known).
	Listener, API, Endpoint string
	// Model is a configured name the request was routed by, for the log.
	Model string
	// Status is the status answered; 0 until WriteHeader.
	Status int
	// Code is the answer's error code, "" for none; Reason its System One
	// reason, a word of the specification's error_reasons ("" for none,
	// and for an LLM API's failures, whose shapes have only a code).
	Code, Reason string
	// Probe marks a health, readiness or metrics request, logged at DEBUG
	// when it succeeds.
	Probe bool

	ids          [1]string // ID as a header value, shared by both headers
	start        time.Time
	method       string
	writeTimeout time.Duration
	cause        atomic.Pointer[string]
	attrs        []slog.Attr // added by AddAttrs, in addedBuf while they fit
	// written counts the answer's body bytes the connection took (Write).
	written int64

	// Storage a request uses in place of allocations of its own, sized for
	// the usual request: the body, counted under its read deadline, and
	// the attributes a handler adds.
	body     servedBody
	addedBuf [8]slog.Attr
}

// accessAttrs is room for an access line's attributes (Finish): its own
// 13, cut and upstream_cause, and addedBuf's.
const accessAttrs = 15 + len(Served{}.addedBuf)

// WriteHeader records the final status and sets the request id headers;
// informational statuses pass through.
func (s *Served) WriteHeader(status int) {
	if status >= 200 && s.Status == 0 {
		s.Status = status
		h := s.ResponseWriter.Header()
		h[HeaderXRequestID] = s.ids[:]
		h[typesafeIDKey] = s.ids[:]
	}
	s.ResponseWriter.WriteHeader(status)
}

// Write writes under a fresh write deadline, so a client that stops
// reading frees its connection within the write timeout while a stream
// that keeps flowing is never cut.
func (s *Served) Write(b []byte) (int, error) {
	if s.Status == 0 {
		s.WriteHeader(http.StatusOK)
	}
	s.writeDeadline(time.Now())
	n, err := s.ResponseWriter.Write(b)
	s.written += int64(n)
	return n, err
}

// Unwrap lets http.ResponseController (Flush, deadlines) and the body
// limit reach the server's own writer.
func (s *Served) Unwrap() http.ResponseWriter { return s.ResponseWriter }

func (s *Served) writeDeadline(now time.Time) {
	if s.writeTimeout > 0 {
		_ = http.NewResponseController(s.ResponseWriter).SetWriteDeadline(now.Add(s.writeTimeout))
	}
}

// AddAttrs adds attributes to the request's access log line.
func (s *Served) AddAttrs(attrs ...slog.Attr) { s.attrs = append(s.attrs, attrs...) }

// NoteCause records why an upstream failed, for the access log (an
// upstream's own words go to logs, never to clients); the first cause
// noted is kept.
func (s *Served) NoteCause(cause string) { s.cause.CompareAndSwap(nil, &cause) }

// Cause is the first upstream cause noted, or "".
func (s *Served) Cause() string {
	if c := s.cause.Load(); c != nil {
		return *c
	}
	return ""
}

// servedKey is the context key of the request's *Served.
type servedKey struct{}

// ServedFrom is the request being served in ctx, or nil outside one.
func ServedFrom(ctx context.Context) *Served {
	s, _ := ctx.Value(servedKey{}).(*Served)
	return s
}

// NoteCause records an upstream failure's cause on the request served in
// ctx, if any.
func NoteCause(ctx context.Context, cause string) {
	if s := ServedFrom(ctx); s != nil {
		s.NoteCause(cause)
	}
}

// NoteModel records the configured name a request in ctx was routed by,
// for its access log line.
func NoteModel(ctx context.Context, model string) {
	if s := ServedFrom(ctx); s != nil {
		s.Model = model
	}
}

// WriteJSON answers with a JSON body and its status: every answer of both
// servers but GET /metrics and the LLM pass-through's relayed ones. The
// declared length lets the client read the whole answer as soon as it is
// flushed, even while the server still reads the rest of a refused body
// (bodylimit.Linger).
func WriteJSON(w http.ResponseWriter, status int, body []byte) {
	h := w.Header()
	h.Set(vocab.HeaderContentType, "application/json")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// SetCode records the error code w's request is answered with, when w is
// (or wraps) a *Served.
func SetCode(w http.ResponseWriter, code string) { SetError(w, code, "") }

// SetError records the error code and System One reason w's request is
// answered with, when w is (or wraps) a *Served.
func SetError(w http.ResponseWriter, code, reason string) {
	for w != nil {
		if s, ok := w.(*Served); ok {
			s.Code, s.Reason = code, reason
			return
		}
		u, ok := w.(interface{ Unwrap() http.ResponseWriter })
		if !ok {
			return
		}
		w = u.Unwrap()
	}
}

// servedBody is a request body as the server reads it: its bytes
// counted (as sent, before any content coding is undone), under the
// server's body-read deadline when it has one (deadline), which it lifts
// once the whole body has been read: the server's background read that
// notices a client going away then never times out while the handler
// works. A body that failed keeps the deadline, so the server's drain of
// its rest cannot wait on the client, and says it failed
// (bodylimit.FailedBody): a client that stalled past the deadline is not
// sending, so the refusal's lingering read must not give it a later
// deadline.
type servedBody struct {
	io.ReadCloser
	w        http.ResponseWriter
	n        int64
	deadline bool
	done     bool
	failed   bool
}

func (b *servedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.n += int64(n)
	switch {
	case err == io.EOF && !b.done:
		b.done = true
		if b.deadline {
			_ = http.NewResponseController(b.w).SetReadDeadline(time.Time{})
		}
	case err != nil && err != io.EOF:
		b.failed = true
	}
	return n, err
}

// ReadFailed reports whether a read of the body failed (bodylimit.FailedBody).
func (b *servedBody) ReadFailed() bool { return b.failed }

// MethodWord is the request method when it is a standard one, so a log
// line or label never carries an arbitrary client token.
func MethodWord(m string) string {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions, http.MethodConnect, http.MethodTrace:
		return m
	}
	return "other"
}
