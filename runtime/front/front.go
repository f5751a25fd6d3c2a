package front

import (
	"cmp"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"sync/atomic"
	"time"
)

// Timeouts bound a server's connections and requests, the same on
// vllm-srun and the Router; a zero field takes its default (WithDefaults).
type Timeouts struct {
	// ReadTimeout bounds reading a request's body, from when its handler
	// starts; WriteTimeout bounds each write of an answer (Front): a
	// stalled client frees its connection within them, a stream that keeps
	// flowing is never cut.
	ReadTimeout, WriteTimeout time.Duration
	// ReadHeaderTimeout bounds reading a request's headers, from when the
	// connection is accepted or its next request begins: a client that
	// trickles its headers, or sends none, is cut off within it.
	// IdleTimeout bounds how long a keep-alive connection waits for its
	// next request.
	ReadHeaderTimeout, IdleTimeout time.Duration
	// ShutdownTimeout bounds how long a graceful shutdown waits for the
	// requests in flight.
	ShutdownTimeout time.Duration
}

// Defaults of Timeouts. DefaultReadHeaderTimeout and DefaultIdleTimeout
// are net/http's common choices: headers arrive in one round trip, and a
// client between requests comes back within a couple of minutes or opens
// a new connection.
const (
	DefaultReadTimeout       = 10 * time.Second
	DefaultWriteTimeout      = 10 * time.Second
	DefaultReadHeaderTimeout = 10 * time.Second
	DefaultIdleTimeout       = 2 * time.Minute
	DefaultShutdownTimeout   = 10 * time.Second
)

// WithDefaults is t with every zero field at its default.
func (t Timeouts) WithDefaults() Timeouts {
	t.ReadTimeout = cmp.Or(t.ReadTimeout, DefaultReadTimeout)
	t.WriteTimeout = cmp.Or(t.WriteTimeout, DefaultWriteTimeout)
	t.ReadHeaderTimeout = cmp.Or(t.ReadHeaderTimeout, DefaultReadHeaderTimeout)
	t.IdleTimeout = cmp.Or(t.IdleTimeout, DefaultIdleTimeout)
	t.ShutdownTimeout = cmp.Or(t.ShutdownTimeout, DefaultShutdownTimeout)
	return t
}

// Server is an http.Server for h whose errors go to log at WARN. Headers
// and idle connections have their deadlines here; the body's and the
// answer's are per request (Front), so a long answer or stream is bounded
// by its own progress, not by a whole-request timeout. Requests do not
// inherit the context that stops the server: stopping it is a graceful
// Shutdown, which lets the requests in flight finish.
func (t Timeouts) Server(h http.Handler, log *slog.Logger) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: t.ReadHeaderTimeout, IdleTimeout: t.IdleTimeout,
		ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
}

// Shutdown stops s, served through f, gracefully: no new connections,
// and the requests in flight get ShutdownTimeout to finish. Past it s is
// closed, which cuts the requests still in flight: f logs each as cut,
// never with a status its client did not get (Front.Cut), and Shutdown
// waits up to CutGrace for their handlers to return, so that their lines
// are logged. The error says the time ran out.
func (t Timeouts) Shutdown(s *http.Server, f *Front) error {
	ctx, cancel := context.WithTimeout(context.Background(), t.ShutdownTimeout)
	defer cancel()
	if s.Shutdown(ctx) == nil {
		return nil
	}
	f.Cut(time.Now())
	_ = s.Close()
	f.waitServed(CutGrace)
	return errors.New("shutdown timed out with requests in flight")
}

// Front is what a System One server does around every request it serves,
// the same on vllm-srun and every listener of the Router: the request id,
// the body-read and write deadlines, the request metrics and the access
// log line. It is safe for concurrent use.
type Front struct {
	Metrics *Metrics
	IDs     *RequestIDs
	// Log receives the access log lines; WithRequestIDs has wrapped it, so
	// every line logged with a request's context names its id.
	Log *slog.Logger
	// ReadTimeout bounds reading a request body, from when the handler
	// starts; WriteTimeout bounds each write of the answer. Zero is none.
	ReadTimeout, WriteTimeout time.Duration

	// serving counts the requests between Begin and Finish; cutAt is when
	// a shutdown closed their connections (Cut), in Unix nanoseconds, 0
	// before.
	serving, cutAt atomic.Int64
}

// Begin starts serving r on the listener named listenerName: it takes
// the client's x-request-id when well-formed (else makes one), sends it on
// in r's header (so a proxied request carries it upstream), puts the
// returned *Served in r's context, counts the request in flight, clears
// any write deadline a previous request on the connection left, and
// counts the bytes read of a request's body, under its body-read
// deadline. The caller answers through the *Served and calls Finish.
func (f *Front) Begin(w http.ResponseWriter, r *http.Request, listenerName string) (*Served, *http.Request) {
	id := r.Header.Get(HeaderXRequestID)
	if !WellFormedRequestID(id) {
		id = f.IDs.New()
	}
	s := &Served{ResponseWriter: w, ID: id, Listener: listenerName, Endpoint: EndpointUnknown,
		ids: [1]string{id}, start: time.Now(), method: MethodWord(r.Method), writeTimeout: f.WriteTimeout}
	s.attrs = s.addedBuf[:0]
	r.Header[HeaderXRequestID] = s.ids[:]
	r = r.WithContext(context.WithValue(r.Context(), servedKey{}, s))
	if len(r.TransferEncoding) > 0 {
		// A chunked request is answered, then its connection closed, so
		// that no request hidden in its body is ever read: RFC 9112 6.1
		// says so of a request with both Content-Length and
		// Transfer-Encoding, and net/http drops the Content-Length before
		// a handler could tell the two apart (a front end framing by it
		// would have sent the hidden request as body).
		w.Header().Set("Connection", "close")
	}
	if f.WriteTimeout > 0 {
		_ = http.NewResponseController(w).SetWriteDeadline(time.Time{})
	}
	if r.Body != nil && r.Body != http.NoBody {
		s.body = servedBody{ReadCloser: r.Body, w: w}
		s.body.deadline = f.ReadTimeout > 0 && http.NewResponseController(w).SetReadDeadline(s.start.Add(f.ReadTimeout)) == nil
		r.Body = &s.body
	}
	f.serving.Add(1)
	f.Metrics.inFlight.WithLabelValues(listenerName).Inc()
	return s, r
}

// EndpointUnknown is the endpoint label of a path no endpoint has.
const EndpointUnknown = "unknown"

// Finish ends serving s: it bounds the final flush of the answer by the
// write timeout, counts the request (vsr_requests_total, its duration)
// and writes its access log line: ERROR for a 5xx, WARN for a 4xx, else
// INFO (DEBUG for a probe that succeeded). A request a shutdown cut
// (Cut) is counted and logged as cut, at ERROR: its client got no answer,
// whatever the handler wrote.
func (f *Front) Finish(s *Served, r *http.Request) {
	defer f.serving.Add(-1) // once the line is logged (Timeouts.Shutdown waits for it)
	now := time.Now()
	s.writeDeadline(now)
	if s.Status == 0 {
		s.Status = http.StatusOK // a handler that wrote nothing answered 200
	}
	cut := f.wasCut(s)
	if cut {
		s.Status, s.Code, s.Reason = 0, "", "" // none of them reached the client
	}
	took := now.Sub(s.start)
	m := f.Metrics
	m.inFlight.WithLabelValues(s.Listener).Dec()
	m.requests.WithLabelValues(s.Listener, s.API, s.Endpoint, StatusLabel(s.Status), s.Code).Inc()
	m.duration.WithLabelValues(s.Listener, s.API, s.Endpoint).Observe(took.Seconds())
	level := AccessLevel(s.Status)
	switch {
	case cut:
		level = slog.LevelError
	case s.Probe && level == slog.LevelInfo:
		level = slog.LevelDebug
	}
	ctx := r.Context()
	if !f.Log.Enabled(ctx, level) {
		return
	}
	// The line's attributes are gathered on the stack: LogAttrs copies
	// them into its record, so they need no storage of their own.
	var buf [accessAttrs]slog.Attr
	attrs := append(buf[:0],
		slog.String("method", s.method), slog.String("path", s.Endpoint), slog.String("listener", s.Listener), //vocab:not-spec log attribute keys
		slog.String("api", s.API), slog.String("model", s.Model), //vocab:not-spec log attribute keys
		slog.Int("status", s.Status), slog.String("code", s.Code), slog.String("reason", s.Reason), //vocab:not-spec log attribute keys
		slog.Float64("duration_ms", float64(took.Microseconds())/1000),
		slog.String("client_address", r.RemoteAddr), slog.String("user_agent", logUserAgent(r.Header["User-Agent"])), //vocab:not-spec log attribute keys
		slog.Int64("request_bytes", s.body.n), slog.Int64("response_bytes", s.written)) //vocab:not-spec log attribute keys
	if cut {
		attrs = append(attrs, slog.String("cut", cutByShutdown)) //vocab:not-spec log attribute key
	}
	if cause := s.Cause(); cause != "" {
		attrs = append(attrs, slog.String("upstream_cause", cause))
	}
	f.Log.LogAttrs(ctx, level, "request", append(attrs, s.attrs...)...) //vocab:not-spec the access line's message
}

// AccessLevel is the level of a request's access log line by its status:
// ERROR for a 5xx, WARN for a 4xx, INFO otherwise.
func AccessLevel(status int) slog.Level {
	switch {
	case status >= 500:
		return slog.LevelError
	case status >= 400:
		return slog.LevelWarn
	}
	return slog.LevelInfo
}

// WithRequestIDs wraps log so that every line logged with a request's
// context (LogAttrs(ctx, ...), InfoContext, ...) carries request_id.
func WithRequestIDs(log *slog.Logger) *slog.Logger {
	if _, done := log.Handler().(idHandler); done {
		return log
	}
	return slog.New(idHandler{log.Handler()})
}

// idHandler adds the request id of the request served in the record's
// context.
type idHandler struct{ slog.Handler }

func (h idHandler) Handle(ctx context.Context, rec slog.Record) error {
	if s := ServedFrom(ctx); s != nil {
		rec.AddAttrs(slog.String("request_id", s.ID))
	}
	return h.Handler.Handle(ctx, rec)
}

func (h idHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return idHandler{h.Handler.WithAttrs(attrs)}
}

func (h idHandler) WithGroup(name string) slog.Handler { return idHandler{h.Handler.WithGroup(name)} }
