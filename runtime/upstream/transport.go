package upstream

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptrace"
	"sync/atomic"
	"time"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/front"
	tc "github.com/vllm-sr/systemone/runtime/target"
)

// MaxReplyBytes bounds an upstream reply the Router reads: the standard's
// 32 MiB body limit, and one byte to tell a larger body apart.
const MaxReplyBytes = vocab.LimitBodyBytes + 1

// maxReplyBytes is MaxReplyBytes, the name this package's code reads.
const maxReplyBytes = MaxReplyBytes

// Transport sends wire calls and returns their raw replies: bytes in,
// bytes out. It knows no codec: what a reply says is the caller's to
// read. One serves every call of a Router, and is safe for concurrent
// use.
type Transport struct {
	client *http.Client
	// conns, set when client is the Router's own, carries the calls to
	// plain-HTTP deployments (conns.go); client carries the rest.
	conns *upstreamConns
	// callTimeout bounds a call of Go's client whose context has no
	// deadline; zero is defaultCallTimeout.
	callTimeout time.Duration
	// callNumbers numbers the upstream calls, for their ids (ids.go).
	callNumbers atomic.Uint64
}

// Options configure a Transport.
type Options struct {
	// Client carries the calls; it should follow no redirect
	// (WithoutRedirects).
	Client *http.Client
	// Own: Client is the Router's own, so calls to plain-HTTP upstreams
	// go on the Transport's own connections instead, MaxIdle of them kept
	// per host, opened with Dial (nil: a net.Dialer's).
	Own     bool
	MaxIdle int
	Dial    func(ctx context.Context, network, addr string) (net.Conn, error)
	// Log gets each stray (bytes no call asked for); nil logs none.
	Log *slog.Logger
}

// New returns a Transport with o's settings.
func New(o Options) *Transport {
	t := &Transport{client: o.Client}
	if o.Own {
		t.conns = &upstreamConns{maxIdle: o.MaxIdle, dial: o.Dial, log: o.Log}
	}
	return t
}

// Call is how one wire call goes out, besides the call itself.
type Call struct {
	// Echoes: the upstream echoes the call id in X-Request-Id on every
	// reply (a vllm-sr schema's server), so a reply that echoes another is
	// refused (IsOtherCallsReply) and its connection closed.
	Echoes bool
	// Deployment names the deployment, for the log.
	Deployment string
	// NoReuse and StrayPause are the deployment's connection settings
	// (routerconfig.Connections).
	NoReuse    bool
	StrayPause time.Duration
	// Traceparent and Tracestate are the W3C trace context the call sends
	// ("" for none); a client's own in the call's header never goes.
	Traceparent, Tracestate string
}

// CloseIdle closes the idle upstream connections: no call is left to
// make.
func (t *Transport) CloseIdle() {
	if t.conns != nil {
		t.conns.close()
	}
	t.client.CloseIdleConnections()
}

// Send makes one wire call. A transport failure, a deadline passing, a
// reply over the body limit (tc.ErrReplyTooLarge, refused on its
// Content-Length before a byte is read, else read one byte past the
// limit and no further) or one cut off mid-body (tc.ErrReplyCut) is a
// reply with Err set and no status. A redirect is never followed (the
// client's CheckRedirect, WithoutRedirects) and its body never read. The
// call carries its own id (ids.go), the request's from ctx and a number
// of t's; when c.Echoes, a reply echoing another id is refused
// (IsOtherCallsReply) and its connection closed. A call with no deadline
// in ctx is bounded by defaultCallTimeout.
func (t *Transport) Send(ctx context.Context, call *tc.WireCall, c *Call) tc.WireReply {
	o := callOptions{echoes: c.Echoes, deployment: c.Deployment, noReuse: c.NoReuse, strayPause: c.StrayPause,
		traceparent: c.Traceparent, tracestate: c.Tracestate, numbers: &t.callNumbers}
	if served := front.ServedFrom(ctx); served != nil {
		o.requestID = served.ID
	}
	if t.conns != nil {
		target, err := t.conns.target(call.URL)
		if err != nil {
			return tc.WireReply{Err: err}
		}
		if target.plain {
			return t.conns.send(ctx, target, call, &o)
		}
	}
	return t.sendClient(ctx, call, &o)
}

// sendClient makes the call with t's http.Client, as Send describes.
func (t *Transport) sendClient(ctx context.Context, call *tc.WireCall, o *callOptions) tc.WireReply {
	if _, has := ctx.Deadline(); !has {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, cmp.Or(t.callTimeout, defaultCallTimeout))
		defer cancel()
	}
	var replied atomic.Bool // a byte of the reply came: a failure is not unreachable
	var conn net.Conn       // the connection the call went on
	ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{GotFirstResponseByte: func() { replied.Store(true) },
		GotConn: func(info httptrace.GotConnInfo) { conn = info.Conn }})
	req, err := http.NewRequestWithContext(ctx, call.Method, call.URL, bytes.NewReader(call.Body))
	if err != nil {
		return tc.WireReply{Err: err}
	}
	for k, vs := range call.Header {
		req.Header[k] = append([]string(nil), vs...)
	}
	callID := string(appendCallID(nil, o.requestID, o.numbers.Add(1)))
	req.Header[front.HeaderXRequestID] = []string{callID}
	setTraceHeaders(req.Header, o.traceparent, o.tracestate) // req.Header is the call's own copy
	resp, err := t.client.Do(req)
	if err != nil {
		if replied.Load() && ctx.Err() == nil && !IsTimeout(err) {
			err = clientReplyFailure(err)
		}
		return tc.WireReply{Err: err}
	}
	defer resp.Body.Close()
	if o.echoes && echoesOther(resp.Header, callID) {
		if conn != nil { // Go's client would keep it, one reply out of step
			conn.Close()
		}
		return tc.WireReply{Err: errOtherCallsReply}
	}
	if resp.StatusCode >= 300 && resp.StatusCode <= 399 {
		return tc.WireReply{Status: resp.StatusCode, Header: resp.Header}
	}
	body, err := replyBody(ctx, resp.Body, resp.ContentLength)
	if err != nil {
		return tc.WireReply{Err: err}
	}
	return tc.WireReply{Status: resp.StatusCode, Header: resp.Header, Body: body}
}

// The W3C trace context headers, as net/http canonicalizes them.
const (
	headerTraceparent = "Traceparent"
	headerTracestate  = "Tracestate"
)

// setTraceHeaders replaces h's trace context with parent and state ("":
// none): a client's own never goes upstream as it came. h is the call's
// own copy.
func setTraceHeaders(h http.Header, parent, state string) {
	delete(h, headerTraceparent)
	delete(h, headerTracestate)
	if parent != "" {
		h[headerTraceparent] = []string{parent}
	}
	if state != "" {
		h[headerTracestate] = []string{state}
	}
}

// echoesOther says whether a reply's header echoes an X-Request-Id other
// than callID.
func echoesOther(h http.Header, callID string) bool {
	for _, v := range h[front.HeaderXRequestID] {
		if v != callID {
			return true
		}
	}
	return false
}

// clientReplyFailure is why net/http's client could not read a reply
// that had begun to come: cut short, else not well-formed (its errors
// for a bad head are not typed).
func clientReplyFailure(err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return errors.Join(tc.ErrReplyCut, err)
	}
	return fmt.Errorf("%w: %w", tc.ErrReplyMalformed, err)
}

// replyBody reads a reply's body whose length is length (-1: not
// given), sized up front when given: a length over the body limit is
// tc.ErrReplyTooLarge before a byte is read, a body found larger is read
// one byte past the limit and no further; a body cut short is
// tc.ErrReplyCut, or the context's error once it is done.
func replyBody(ctx context.Context, r io.Reader, length int64) ([]byte, error) {
	if length >= maxReplyBytes {
		return nil, tc.ErrReplyTooLarge
	}
	var b bytes.Buffer
	if length > 0 {
		b.Grow(int(length) + bytes.MinRead)
	}
	_, err := b.ReadFrom(io.LimitReader(r, maxReplyBytes))
	if err != nil {
		err = chunkError(err) // net/http's client reads chunks with the same reader
	}
	switch {
	case err != nil && ctx.Err() != nil:
		return nil, ctx.Err()
	case errors.Is(err, tc.ErrReplyMalformed):
		return nil, err
	case err != nil:
		return nil, errors.Join(tc.ErrReplyCut, err)
	case int64(b.Len()) >= maxReplyBytes:
		return nil, tc.ErrReplyTooLarge
	}
	return b.Bytes(), nil
}

// WithoutRedirects is client with a CheckRedirect that follows no
// redirect: a 3xx comes back as the reply. Every call the Router makes
// with its client (deployment calls, listings, readiness checks) goes
// through it. The client itself is not modified.
//
// The Router follows no upstream redirect: a 302 would re-send a call as
// a GET, a 307 its body (a client's request, credentials) to whatever URL
// the upstream names.
func WithoutRedirects(client *http.Client) *http.Client {
	c := *client
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &c
}
