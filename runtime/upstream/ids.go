package upstream

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/vllm-sr/systemone/runtime/front"
	tc "github.com/vllm-sr/systemone/runtime/target"
)

// Every upstream call carries an id of its own, its X-Request-Id: the
// client's request id, '.', and the call's number, counted across the
// Router (callNumbers), so that each call's id is unique however clients
// name their requests, and a log line of the upstream joins the client's
// request by its prefix. vllm-sr's own servers (vllm-srun, a Router)
// echo it on every reply (front.Served), so a reply that echoes another
// id answers another call: bytes an upstream sent late, read as the
// next call's reply on a kept-alive connection. Such a reply is never
// delivered (conns.go's send closes the connection and sends the call
// again on a new one). An upstream that echoes nothing (systemone/0.2)
// cannot be checked: its deployments' connections settings
// (Call.NoReuse, Call.StrayPause) bound what a stray reply can do.

// callOptions are how one call goes out: its id's parts, whether the
// upstream echoes it, and the deployment's connection settings.
type callOptions struct {
	// requestID is the client's request id ("" outside a request);
	// numbers draws each wire call's number.
	requestID string
	numbers   *atomic.Uint64
	// echoes: the upstream echoes the call id in X-Request-Id on every
	// reply (a vllm-sr schema's server: target.Traits.Native), so a reply
	// that echoes another is refused.
	echoes bool
	// deployment names the deployment, for the log.
	deployment string
	// noReuse and strayPause are the deployment's connection settings.
	noReuse    bool
	strayPause time.Duration
	// traceparent and tracestate are the trace context the call sends.
	traceparent, tracestate string
}

// noRequestID is the prefix of a call id made outside a client request.
const noRequestID = "call"

// appendCallID appends the id of call number n of the request
// requestID: requestID, '.', n in decimal, at most
// front.MaxRequestIDLen bytes, so that an upstream's front takes it as
// well-formed (a longer id would be replaced, and its echo never match).
// A request id too long for the suffix is cut; the number alone keeps
// the id unique.
func appendCallID(b []byte, requestID string, n uint64) []byte {
	var digits [20]byte
	num := strconv.AppendUint(digits[:0], n, 10)
	if requestID == "" {
		requestID = noRequestID
	}
	b = append(b, requestID[:min(len(requestID), front.MaxRequestIDLen-1-len(num))]...)
	b = append(b, '.')
	return append(b, num...)
}

// NewCallID is the id of a new call of the request in ctx (its served
// request's id, else none), numbered by t: the LLM pass-through's, whose
// upstreams are not vllm-sr's and whose echo is not read.
func (t *Transport) NewCallID(ctx context.Context) string {
	requestID := ""
	if served := front.ServedFrom(ctx); served != nil {
		requestID = served.ID
	}
	return string(appendCallID(nil, requestID, t.callNumbers.Add(1)))
}

// errOtherCallsReply is a reply that echoes another call's id.
var errOtherCallsReply = fmt.Errorf("%w: the reply echoes another call's X-Request-Id", tc.ErrReplyMalformed)

// IsOtherCallsReply says whether err is a reply that echoed another
// call's id.
func IsOtherCallsReply(err error) bool { return errors.Is(err, errOtherCallsReply) }

// stray is what a connection received that no call asked for.
type stray uint8

const (
	strayNone stray = iota
	// strayWhileIdle: bytes arrived while the connection was idle.
	strayWhileIdle
	// strayAfterReply: bytes followed a reply in the same read.
	strayAfterReply
	// strayOtherID: a reply echoed another call's id.
	strayOtherID
)

// String is the stray's word in the log.
func (s stray) String() string {
	switch s {
	case strayWhileIdle:
		return "bytes_while_idle"
	case strayAfterReply:
		return "bytes_after_reply"
	case strayOtherID:
		return "other_call_id"
	}
	return "none"
}

// noteStray records that hostPort sent bytes no call asked for (the
// connection they came on is closed), for the deployments that pause
// reuse after a stray, and logs it with the deployment whose call found
// it: what an operator reads to decide on the deployment's connections
// settings.
func (u *upstreamConns) noteStray(ctx context.Context, hostPort string, o *callOptions, s stray) {
	u.mu.Lock()
	if u.strayAt == nil {
		u.strayAt = map[string]time.Time{}
	}
	u.strayAt[hostPort] = time.Now()
	u.mu.Unlock()
	if u.log != nil {
		u.log.LogAttrs(ctx, slog.LevelWarn, "upstream sent bytes no call asked for; the connection is closed",
			slog.String("deployment", o.deployment), slog.String("upstream", hostPort), slog.String("stray", s.String())) //vocab:not-spec log attribute keys
	}
}

// paused says whether a deployment pausing reuse for pause after a stray
// is in such a pause for hostPort: a stray came less than pause ago.
func (u *upstreamConns) paused(hostPort string, pause time.Duration) bool {
	if pause <= 0 {
		return false
	}
	u.mu.Lock()
	at, ok := u.strayAt[hostPort]
	u.mu.Unlock()
	return ok && time.Since(at) < pause
}
