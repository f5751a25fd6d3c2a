package router

import (
	"bufio"
	"context"
	"errors"
	"net"
	"net/url"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/vllm-sr/systemone/runtime/listener"
	tc "github.com/vllm-sr/systemone/runtime/target"
)

// upstreamConns sends the System One calls to plain-HTTP deployments over
// HTTP/1.1 connections it keeps alive, each call written and its reply
// read in the calling goroutine. That is the Router's per-request cost
// the profile showed: net/http's Transport hands every round trip to two
// goroutines of its own (a connection's read and write loops) and back,
// several scheduler wake-ups and futex calls per call; here a call is one
// write and, for a reply of a few KiB, one read.
//
// What it speaks is the subset of HTTP/1.1 a System One reply needs:
// readReplyHead (upstream_reply.go, fuzzed against net/http's
// ReadResponse) parses the status, headers and body framing (length,
// chunked, or to the end of the connection), 1xx answers are skipped, a redirect is returned unread (the Router follows none) and a
// connection is reused only after a reply read whole that did not ask to
// close it. Other schemes (https) go through the Router's http.Client.
//
// Invariants: a connection is in the idle pool or owned by exactly one
// call; a call's connection has the call's deadline, and the call's
// context being done (the client gone, shutdown) unblocks its reads and
// writes; a reply is read no further than maxReplyBytes.
type upstreamConns struct {
	maxIdle int // idle connections kept per host
	// dial opens a connection; nil is a net.Dialer's DialContext.
	dial    func(ctx context.Context, network, addr string) (net.Conn, error)
	mu      sync.Mutex
	idle    map[string][]*upstreamConn // by host:port, most recently used last
	targets sync.Map                   // call URL → *upstreamTarget, parsed once
	closed  bool
}

// Bounds of the idle pool.
const (
	// maxIdleAge is how long a connection may have been idle and still be
	// used: well under the idle timeouts of servers (vllm-srun's is
	// 120 s), so a call rarely meets one the server is closing.
	maxIdleAge = 30 * time.Second
	// maxReplyWait bounds a call whose context has no deadline.
	maxReplyWait = 10 * time.Minute
)

type upstreamConn struct {
	net.Conn
	br *bufio.Reader
	// What each call needs, kept from call to call so that a call on a
	// reused connection allocates none of it: the request head (written
	// with the body in one writev, listener.WriteBuffers); the reader of a
	// body of a given length; and abort, which unblocks the connection's
	// reads and writes when the call's context is done.
	head      []byte
	body      lengthBody
	abort     func()
	read      int64 // bytes read since the call began
	idleSince time.Time
}

func (c *upstreamConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.read += int64(n)
	return n, err
}

// upstreamTarget is a call URL's parts the wire needs.
type upstreamTarget struct {
	plain      bool // http://, which these connections serve
	hostPort   string
	host       string // the Host header
	requestURI string
}

func (u *upstreamConns) target(rawURL string) (*upstreamTarget, error) {
	if t, ok := u.targets.Load(rawURL); ok {
		return t.(*upstreamTarget), nil
	}
	parsed, err := url.Parse(rawURL)
	if err != nil {
		return nil, err
	}
	t := &upstreamTarget{plain: parsed.Scheme == "http" && parsed.User == nil, host: parsed.Host, requestURI: parsed.RequestURI()}
	t.hostPort = parsed.Host
	if parsed.Port() == "" {
		t.hostPort = net.JoinHostPort(parsed.Hostname(), "80")
	}
	u.targets.Store(rawURL, t)
	return t, nil
}

// send makes one call to a plain-HTTP target, as httpCaller.send does
// with an http.Client. A connection taken from the idle pool that fails
// before a byte of reply came (the server closed it while it was idle) is
// replaced by a new one once; the call is sent again, which System One
// calls allow: they decide, they change nothing.
func (u *upstreamConns) send(ctx context.Context, t *upstreamTarget, call *tc.WireCall, requestID string) tc.WireReply {
	for attempt := 0; ; attempt++ {
		conn, reused, err := u.get(ctx, t.hostPort)
		if err != nil {
			return tc.WireReply{Err: noReplyCause(ctx, err)}
		}
		reply, keep := u.roundTrip(ctx, conn, t, call, requestID)
		if keep {
			u.put(t.hostPort, conn)
			return reply
		}
		conn.Close()
		if reply.Err == nil || !reused || conn.read > 0 || ctx.Err() != nil || attempt > 0 || isTimeout(reply.Err) {
			return reply
		}
	}
}

// roundTrip writes the call and reads its reply on conn; keep says conn
// is clean for the next call.
func (u *upstreamConns) roundTrip(ctx context.Context, conn *upstreamConn, t *upstreamTarget, call *tc.WireCall, requestID string) (reply tc.WireReply, keep bool) {
	deadline, has := ctx.Deadline()
	if !has {
		deadline = time.Now().Add(maxReplyWait)
	}
	if err := conn.SetDeadline(deadline); err != nil {
		return tc.WireReply{Err: err}, false
	}
	stop := context.AfterFunc(ctx, conn.abort)
	defer func() {
		if !stop() { // the context ended meanwhile: its deadline may yet land on conn
			keep = false
		}
	}()
	conn.read = 0
	var ok bool
	if conn.head, ok = appendRequestHead(conn.head[:0], t, call, requestID); !ok {
		return tc.WireReply{Err: errRequestHeader}, false
	}
	if err := listener.WriteBuffers(conn.Conn, conn.head, call.Body); err != nil {
		return tc.WireReply{Err: noReplyCause(ctx, err)}, false
	}
	head, err := readReplyHead(conn.br)
	if err != nil {
		return tc.WireReply{Err: noReplyCause(ctx, err)}, false
	}
	if head.status >= 300 && head.status <= 399 {
		return tc.WireReply{Status: head.status, Header: head.header}, false
	}
	body, err := replyBody(ctx, head.body(conn.br, &conn.body), head.length)
	if err != nil {
		if isTimeout(err) { // the connection's deadline, the context's, passed first
			err = context.DeadlineExceeded
		}
		return tc.WireReply{Err: err}, false
	}
	keep = !head.close && conn.br.Buffered() == 0
	return tc.WireReply{Status: head.status, Header: head.header, Body: body}, keep
}

// errRequestHeader is a call with a header that is not a valid field.
var errRequestHeader = errors.New("router: a call's header is not a valid HTTP field")

// appendRequestHead is the request line and headers of call: the call's
// own headers (canonical keys, as the codecs build them), the request id
// and the body's length; not ok when a header name or value is not a
// valid field (a CR or LF in one would end the head early).
func appendRequestHead(b []byte, t *upstreamTarget, call *tc.WireCall, requestID string) (_ []byte, ok bool) {
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
	if requestID != "" { // well-formed: listener.WellFormedRequestID, or made here
		b = append(b, listener.HeaderXRequestID...)
		b = append(b, ": "...)
		b = append(b, requestID...)
		b = append(b, "\r\n"...)
	}
	b = append(b, "Content-Length: "...)
	b = strconv.AppendInt(b, int64(len(call.Body)), 10)
	return append(b, "\r\n\r\n"...), true
}

// get is an idle connection to hostPort no older than maxIdleAge, or a
// new one.
func (u *upstreamConns) get(ctx context.Context, hostPort string) (conn *upstreamConn, reused bool, err error) {
	u.mu.Lock()
	for pool := u.idle[hostPort]; len(pool) > 0; pool = u.idle[hostPort] {
		conn = pool[len(pool)-1]
		u.idle[hostPort] = pool[:len(pool)-1]
		if time.Since(conn.idleSince) < maxIdleAge {
			u.mu.Unlock()
			return conn, true, nil
		}
		conn.Close()
	}
	u.mu.Unlock()
	dial := u.dial
	if dial == nil {
		dial = (&net.Dialer{}).DialContext
	}
	c, err := dial(ctx, "tcp", hostPort)
	if err != nil {
		return nil, false, err
	}
	return newUpstreamConn(listener.RawSocket(c)), false, nil
}

func newUpstreamConn(c net.Conn) *upstreamConn {
	conn := &upstreamConn{Conn: c}
	conn.br = bufio.NewReaderSize(conn, 16<<10)
	conn.abort = func() { _ = conn.SetDeadline(time.Unix(1, 0)) }
	return conn
}

func (u *upstreamConns) put(hostPort string, conn *upstreamConn) {
	conn.idleSince = time.Now()
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.closed || len(u.idle[hostPort]) >= u.maxIdle {
		conn.Close()
		return
	}
	if u.idle == nil {
		u.idle = map[string][]*upstreamConn{}
	}
	u.idle[hostPort] = append(u.idle[hostPort], conn)
}

// close closes the idle connections, and every connection put back
// later: the Router has stopped.
func (u *upstreamConns) close() {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.closed = true
	for _, pool := range u.idle {
		for _, c := range pool {
			c.Close()
		}
	}
	u.idle = nil
}

// noReplyCause is why a call got no reply: the context's error once it is
// done, the deadline when a connection's deadline (the context's) passed
// first, else err.
func noReplyCause(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if isTimeout(err) {
		return context.DeadlineExceeded
	}
	return err
}

func isTimeout(err error) bool {
	return errors.Is(err, os.ErrDeadlineExceeded) || errors.Is(err, context.DeadlineExceeded)
}
