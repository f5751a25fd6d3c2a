package upstream

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"sync"
	"time"

	"github.com/vllm-sr/systemone/runtime/socket"
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
// readReplyHead (reply.go, fuzzed against net/http's
// ReadResponse) parses the status, headers and body framing (length,
// chunked, or to the end of the connection), at most five 1xx answers
// are skipped, a redirect is returned unread (the Router follows none).
// Other schemes (https) go through the Router's http.Client.
//
// Invariants: a connection is in the idle pool or owned by exactly one
// call; a call's connection has the call's deadline (the context's, else
// defaultCallTimeout), and the call's context being done (the client
// gone, shutdown) unblocks its reads and writes; a reply is read no
// further than maxReplyBytes. A reply is only ever read by the call that
// asked for it: a connection goes back to the pool only after a reply
// read whole, framed plainly and followed by nothing (keep), and is taken
// from it only when nothing arrived while it was idle (reusable); the
// bytes of a reply the upstream sent late, a second reply, a 408 or an
// end of stream, close it instead. A reply that echoes another call's id
// (ids.go) is never delivered.
type upstreamConns struct {
	maxIdle int // idle connections kept per host
	// dial opens a connection; nil is a net.Dialer's DialContext.
	dial func(ctx context.Context, network, addr string) (net.Conn, error)
	// callTimeout bounds a call whose context has no deadline; zero is
	// defaultCallTimeout.
	callTimeout time.Duration
	mu          sync.Mutex
	idle        map[string][]*upstreamConn // by host:port, most recently used last
	targets     sync.Map                   // call URL → *upstreamTarget, parsed once
	closed      bool
	// strayAt is when each host last sent bytes no call asked for
	// (ids.go), for the deployments that pause reuse after it.
	strayAt map[string]time.Time
	// log gets each stray (nil: none logged).
	log *slog.Logger
}

// Bounds of the idle pool and of a call.
const (
	// maxIdleAge is how long a connection may have been idle and still be
	// used: well under the idle timeouts of servers (vllm-srun's is
	// 120 s), so a call rarely meets one the server is closing.
	maxIdleAge = 30 * time.Second
	// defaultCallTimeout bounds an upstream call that has no deadline of
	// its own (no deadline_ms from the client, no max_deadline_ms on the
	// listener): a stalled upstream frees its caller within it.
	defaultCallTimeout = 30 * time.Second
)

type upstreamConn struct {
	net.Conn
	br *bufio.Reader
	// What each call needs, kept from call to call so that a call on a
	// reused connection allocates none of it: the request head (written
	// with the body in one writev, socket.WriteBuffers); the reader of a
	// body of a given length; and abort, which unblocks the connection's
	// reads and writes when the call's context is done.
	head      []byte
	body      lengthBody
	abort     func()
	read      int64 // bytes read since the call began
	idleSince time.Time
	// callID is the id of the call on the connection (upstream_ids.go),
	// its buffer kept from call to call.
	callID []byte
	// stray is what the connection received that no call asked for
	// (strayNone for nothing).
	stray stray
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

// send makes one call to a plain-HTTP target, as Transport.sendClient
// does with an http.Client, with o's call id and connection settings. The
// call is sent once more, on a new connection, when the one it took from
// the idle pool turns out to have been closed by the upstream while it
// was idle (nothing of a reply came before the connection ended, or the
// reply is a 408, the server's own idle timeout racing the call), as
// net/http's client does, and when the reply echoes another call's id
// (o.echoes): System One calls allow it, they decide, they change
// nothing, and no byte of the reply reached the client. A new
// connection, not another idle one: the upstream that closed or confused
// one may have done the same to the others.
func (u *upstreamConns) send(ctx context.Context, t *upstreamTarget, call *tc.WireCall, o *callOptions) tc.WireReply {
	fresh := o.noReuse || u.paused(t.hostPort, o.strayPause)
	for attempt := 0; ; attempt++ {
		conn, reused, err := u.get(ctx, t.hostPort, fresh || attempt > 0, o)
		if err != nil {
			return tc.WireReply{Err: noReplyCause(ctx, err)}
		}
		reply, keep := u.roundTrip(ctx, conn, t, call, o, fresh)
		if keep && !fresh {
			u.put(t.hostPort, conn)
			return reply
		}
		conn.Close()
		if conn.stray != strayNone {
			u.noteStray(ctx, t.hostPort, o, conn.stray)
		}
		again := conn.stray == strayOtherID || reused && closedWhileIdle(reply, conn)
		if attempt > 0 || ctx.Err() != nil || !again {
			return reply
		}
	}
}

// closedWhileIdle says whether reply, on a connection taken from the idle
// pool, shows that the upstream had closed that connection: the call got
// nothing back before the connection ended, or a 408.
func closedWhileIdle(reply tc.WireReply, conn *upstreamConn) bool {
	if reply.Err != nil {
		return conn.read == 0 && !IsTimeout(reply.Err)
	}
	return reply.Status == http.StatusRequestTimeout
}

// roundTrip writes the call and reads its reply on conn; keep says conn
// is clean for the next call (readReply). closeAfter asks the upstream
// to close the connection after its reply (Connection: close).
func (u *upstreamConns) roundTrip(ctx context.Context, conn *upstreamConn, t *upstreamTarget, call *tc.WireCall, o *callOptions,
	closeAfter bool) (reply tc.WireReply, keep bool) {
	deadline, has := ctx.Deadline()
	if !has {
		deadline = time.Now().Add(cmp.Or(u.callTimeout, defaultCallTimeout))
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
	conn.read, conn.stray = 0, strayNone
	conn.callID = appendCallID(conn.callID[:0], o.requestID, o.numbers.Add(1))
	var ok bool
	if conn.head, ok = appendRequestHead(conn.head[:0], t, call, conn.callID, o.traceparent, o.tracestate, closeAfter); !ok {
		return tc.WireReply{Err: ErrRequestHeader}, false
	}
	if err := socket.WriteBuffers(conn.Conn, conn.head, call.Body); err != nil {
		return tc.WireReply{Err: noReplyCause(ctx, err)}, false
	}
	var want []byte
	if o.echoes {
		want = conn.callID
	}
	return readReply(ctx, conn, want)
}

// readReply reads the reply to the call just written on conn; keep says
// the reply was read whole, framed plainly, and nothing follows it in the
// buffer (FuzzReplyFraming: a kept connection is at the reply's end).
// want, when not nil, is the call's id: a reply echoing another is
// another call's, errOtherCallsReply with its body unread and the
// connection's stray strayOtherID. Bytes after a reply are
// strayAfterReply.
func readReply(ctx context.Context, conn *upstreamConn, want []byte) (reply tc.WireReply, keep bool) {
	head, err := readReplyHead(conn.br, want)
	if err != nil {
		return tc.WireReply{Err: headFailure(ctx, err, conn.read)}, false
	}
	if head.otherID {
		conn.stray = strayOtherID
		return tc.WireReply{Err: errOtherCallsReply}, false
	}
	if head.status >= 300 && head.status <= 399 {
		return tc.WireReply{Status: head.status, Header: head.header}, false
	}
	body, err := replyBody(ctx, head.body(conn.br, &conn.body), head.length)
	if err != nil {
		if IsTimeout(err) { // the connection's deadline, the context's, passed first
			err = context.DeadlineExceeded
		}
		return tc.WireReply{Err: err}, false
	}
	if conn.br.Buffered() > 0 {
		conn.stray = strayAfterReply
	}
	keep = !head.close && conn.br.Buffered() == 0
	return tc.WireReply{Status: head.status, Header: head.header, Body: body}, keep
}

// headFailure is why a reply's head could not be read, read bytes into
// it: a head that is not well-formed is that; else the call's deadline or
// context, a reply cut once it began, or (nothing came back) the error
// itself, the upstream unreachable.
func headFailure(ctx context.Context, err error, read int64) error {
	switch {
	case errors.Is(err, tc.ErrReplyMalformed):
		return err
	case ctx.Err() != nil || IsTimeout(err) || read == 0:
		return noReplyCause(ctx, err)
	}
	return errors.Join(tc.ErrReplyCut, err)
}

// get is a reusable idle connection to hostPort, or a new one; always a
// new one when fresh. An idle connection on which bytes arrived is
// closed, and noted as a stray of its host.
func (u *upstreamConns) get(ctx context.Context, hostPort string, fresh bool, o *callOptions) (conn *upstreamConn, reused bool, err error) {
	for !fresh {
		if conn = u.takeIdle(hostPort); conn == nil {
			break
		}
		if conn.reusable() {
			return conn, true, nil
		}
		conn.Close()
		if conn.stray != strayNone {
			u.noteStray(ctx, hostPort, o, conn.stray)
		}
	}
	dial := u.dial
	if dial == nil {
		dial = (&net.Dialer{}).DialContext
	}
	c, err := dial(ctx, "tcp", hostPort)
	if err != nil {
		return nil, false, err
	}
	return newUpstreamConn(socket.Raw(c)), false, nil
}

// takeIdle takes the most recently used idle connection to hostPort out
// of the pool; nil when there is none.
func (u *upstreamConns) takeIdle(hostPort string) *upstreamConn {
	u.mu.Lock()
	defer u.mu.Unlock()
	pool := u.idle[hostPort]
	if len(pool) == 0 {
		return nil
	}
	conn := pool[len(pool)-1]
	u.idle[hostPort] = pool[:len(pool)-1]
	return conn
}

// reusable says whether an idle connection may carry the next call: it
// has not been idle past maxIdleAge, and nothing arrived on it while it
// was (socket.Arrived): no late bytes of a reply, no unasked reply, no
// 408, no end of stream. Bytes set its stray to strayWhileIdle.
func (c *upstreamConn) reusable() bool {
	if time.Since(c.idleSince) >= maxIdleAge {
		return false
	}
	switch socket.Arrived(c.Conn) {
	case socket.ArrivedNothing:
		return true
	case socket.ArrivedBytes:
		c.stray = strayWhileIdle
	}
	return false
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
	if IsTimeout(err) {
		return context.DeadlineExceeded
	}
	return err
}

// IsTimeout says whether err is a deadline passing: the context's or a
// connection's.
func IsTimeout(err error) bool {
	return errors.Is(err, os.ErrDeadlineExceeded) || errors.Is(err, context.DeadlineExceeded)
}
