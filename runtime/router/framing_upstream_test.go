package router_test

import (
	"bufio"
	"encoding/json"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// framingUpstream is a systemone/0.2 upstream over raw sockets that frames
// each reply as the request's state asks: a state "id:N frame:NAME" is
// answered with the framing framings[NAME], any other "id:N" plainly. The
// answer is derived from N alone (ownAnswer), so a client can tell its
// own answer from anyone else's, and what a framing sends late is the
// same caller's answer again: bytes that, read by the next call, would
// hand one client's answer to another.
//
// Late bytes are held until sendLate, which the tests call when no call
// is in flight: they then arrive on connections the Router holds idle,
// which is what the Router must catch. (Bytes an upstream writes while
// the Router is writing the next call to the same connection cannot be
// told apart from that call's reply, by any client.)
type framingUpstream struct {
	ln net.Listener
	wg sync.WaitGroup

	mu      sync.Mutex
	conns   []net.Conn // every connection accepted, closed by the test's cleanup
	pending []lateBytes
	// lateSent counts the late sends made: each is a fault that fired.
	lateSent atomic.Int64
	// echo: every reply's head (200 OK) echoes the request's X-Request-Id,
	// late ones too (a late reply is the same call's answer again), as a
	// vllm-sr server's does.
	echo bool
	// lateWithin, when set, sends what a framing sends late by itself,
	// after a random delay up to it, whatever calls are in flight then
	// (the mixed phase, framing_mixed_test.go); else sendLate does.
	lateWithin time.Duration
}

// lateBytes is what a framing sends on c after its reply, and whether c
// is closed then.
type lateBytes struct {
	c     net.Conn
	bytes string
	close bool
}

// lateArrival is how long late bytes sent on loopback are given to reach
// the Router's socket before the next call.
const lateArrival = 20 * time.Millisecond

// framing is one way of framing a reply: what is sent at once for a
// request whose own reply body is own, what is sent late (nil: nothing),
// whether the connection is then closed, and what the call gets: its own
// answer (status 0) or an error's status and reason.
type framing struct {
	now    func(own string) string
	late   func(own string) string
	close  bool
	status int
	reason string
}

// Framings of the suite. Every one that leaves bytes no call asked for
// (a second reply, junk, a body the head did not frame) must not reach the
// next call.
var framings = map[string]framing{
	"plain":      {now: plain},
	"late-reply": {now: plain, late: plain},
	"late-junk":  {now: plain, late: func(string) string { return "garbage\r\n\r\n" }},
	"late-cut":   {now: plain, late: func(string) string { return "HTTP/1.1 200 OK\r\nContent-Length: 500\r\n\r\n{\"model\"" }},
	"late-204": {now: plain, late: func(own string) string {
		return "HTTP/1.1 204 No Content\r\nContent-Length: " + strconv.Itoa(len(own)) + "\r\n\r\n" + own
	}},
	"late-408": {now: plain, late: func(string) string {
		return "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
	}, close: true},
	"late-close":          {now: plain, late: func(string) string { return "" }, close: true},
	"chunked":             {now: chunked},
	"chunked-and-a-reply": {now: func(own string) string { return chunked(own) + plain(own) }},
	"chunked-then-late":   {now: chunked, late: plain},
	"switching-protocols": {now: func(own string) string {
		return "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: h2c\r\n\r\n" + plain(own)
	}, close: true, status: 502, reason: "upstream_malformed_reply"}, // closed: net/http's client reads a 101's body to the end
	"length-and-chunked": {now: func(own string) string {
		body, smuggled := inChunks(own), plain(own)
		return "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + strconv.Itoa(len(body)+len(smuggled)) +
			"\r\nTransfer-Encoding: chunked\r\n\r\n" + body + smuggled
	}},
	"length-and-chunked-late": {now: func(own string) string {
		return "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n" + inChunks(own)
	}, late: plain},
	"two-codings":    {now: headed("Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked"), status: 502, reason: "upstream_malformed_reply"},
	"coding-list":    {now: headed("Transfer-Encoding: gzip, chunked"), status: 502, reason: "upstream_malformed_reply"},
	"unknown-coding": {now: headed("Transfer-Encoding: gzip"), status: 502, reason: "upstream_malformed_reply"},
	"obs-fold":       {now: headed("X-Folded: a\r\n b"), status: 502, reason: "upstream_malformed_reply"},
	"informational-framed": {now: func(own string) string {
		return "HTTP/1.1 100 Continue\r\nContent-Length: 5\r\n\r\n" + plain(own)
	}, late: plain},
	"five-informational": {now: func(own string) string { return strings.Repeat("HTTP/1.1 100 Continue\r\n\r\n", 5) + plain(own) }},
	"six-informational": {now: func(own string) string { return strings.Repeat("HTTP/1.1 100 Continue\r\n\r\n", 6) + plain(own) },
		status: 502, reason: "upstream_malformed_reply"},
	"204-with-body": {now: func(own string) string {
		return "HTTP/1.1 204 No Content\r\nContent-Length: " + strconv.Itoa(len(plain(own))) + "\r\n\r\n" + plain(own)
	}, status: 502, reason: "invalid_upstream_reply"},
	"304-with-body": {now: func(own string) string {
		return "HTTP/1.1 304 Not Modified\r\nContent-Length: " + strconv.Itoa(len(plain(own))) + "\r\n\r\n" + plain(own)
	}, status: 502, reason: "upstream_redirect"},
	"to-the-close": {now: func(own string) string { return "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n" + own }, close: true},
	"body-longer-than-length": {now: func(own string) string {
		return "HTTP/1.1 200 OK\r\nContent-Length: " + strconv.Itoa(len(own)) + "\r\n\r\n" + own + plain(own)
	}},
	"body-shorter-than-length": {now: func(own string) string {
		return "HTTP/1.1 200 OK\r\nContent-Length: " + strconv.Itoa(len(own)+20) + "\r\n\r\n" + own
	}, close: true, status: 502, reason: "upstream_reply_cut"},
	"bad-chunk-size": {now: func(own string) string {
		return "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n" + own + "\r\n0\r\n\r\n"
	}, status: 502, reason: "upstream_malformed_reply"},
	"two-lengths": {now: func(own string) string {
		return "HTTP/1.1 200 OK\r\nContent-Length: " + strconv.Itoa(len(own)) + "\r\nContent-Length: " + strconv.Itoa(len(own)+1) + "\r\n\r\n" + own + " "
	}, status: 502, reason: "upstream_malformed_reply"},
	"equal-lengths": {now: func(own string) string {
		n := strconv.Itoa(len(own))
		return "HTTP/1.1 200 OK\r\nContent-Length: " + n + "\r\nContent-Length: " + n + "\r\n\r\n" + own
	}, late: plain},
	"bad-status-line": {now: func(own string) string { return strings.Replace(plain(own), "200 OK", "2000 OK", 1) },
		status: 502, reason: "upstream_malformed_reply"},
	"huge-header":   {now: headed("X-Big: " + strings.Repeat("a", 100<<10)), status: 502, reason: "upstream_malformed_reply"},
	"many-headers":  {now: headed(strings.TrimSuffix(strings.Repeat("X-N: v\r\n", 10000), "\r\n")), status: 502, reason: "upstream_malformed_reply"},
	"nul-in-header": {now: headed("X-Nul: a\x00b"), status: 502, reason: "upstream_malformed_reply"},
	"cr-in-header":  {now: headed("X-Cr: a\rb"), status: 502, reason: "upstream_malformed_reply"},
	"http10-keep-alive": {now: func(own string) string {
		return "HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: " + strconv.Itoa(len(own)) + "\r\n\r\n" + own
	}},
	"nothing-back": {now: func(string) string { return "" }, close: true, status: 503, reason: "upstream_unreachable"},
}

// plain is own framed by its length.
func plain(own string) string {
	return "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + strconv.Itoa(len(own)) + "\r\n\r\n" + own
}

// chunked is own in two chunks.
func chunked(own string) string {
	return "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n" + inChunks(own)
}

func inChunks(own string) string {
	half := len(own) / 2
	return strconv.FormatInt(int64(half), 16) + "\r\n" + own[:half] + "\r\n" +
		strconv.FormatInt(int64(len(own)-half), 16) + "\r\n" + own[half:] + "\r\n0\r\n\r\n"
}

// headed is a reply with the extra header lines fields, own as a chunked
// body when fields set a coding, else framed by its length.
func headed(fields string) func(own string) string {
	return func(own string) string {
		head := "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n" + fields + "\r\n"
		if strings.Contains(fields, "Transfer-Encoding") {
			return head + "\r\n" + inChunks(own)
		}
		return head + "Content-Length: " + strconv.Itoa(len(own)) + "\r\n\r\n" + own
	}
}

// ownAnswer is the reply body of request id: noul id/1e6, id input tokens.
func ownAnswer(id int) string {
	return `{"model":"d3","answers":{"q":{"type":"noul","noul":` + strconv.FormatFloat(float64(id)/1e6, 'g', -1, 64) +
		`}},"usage":{"input_tokens":` + strconv.Itoa(id) + `,"output_tokens":0}}`
}

var framedState = regexp.MustCompile(`^id:([0-9]+)(?: frame:([a-z0-9-]+))?$`)

func newFramingUpstream(t testing.TB) *framingUpstream {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	u := &framingUpstream{ln: ln}
	u.wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			u.mu.Lock()
			u.conns = append(u.conns, c)
			u.mu.Unlock()
			u.wg.Go(func() { u.serve(c) })
		}
	})
	t.Cleanup(func() {
		_ = ln.Close()
		u.mu.Lock()
		for _, c := range u.conns {
			_ = c.Close()
		}
		u.mu.Unlock()
		u.wg.Wait()
	})
	return u
}

func (u *framingUpstream) url() string { return "http://" + u.ln.Addr().String() + "/v1/systemone" }

// serve answers the requests of one connection until it closes, is to be
// closed, or stays silent for 10 s.
func (u *framingUpstream) serve(c net.Conn) {
	defer c.Close()
	br := bufio.NewReader(c)
	for {
		_ = c.SetDeadline(time.Now().Add(10 * time.Second))
		req, err := http.ReadRequest(br)
		if err != nil {
			return
		}
		body, _ := io.ReadAll(io.LimitReader(req.Body, 1<<20))
		if req.Method == http.MethodGet && req.URL.Path == "/health" { // a vllm-sr/5.0 deployment's contract
			_, _ = io.WriteString(c, plain(`{"status":"ready","api_version":"5.0.0","version":"5.0","model":"d3","schema":"vllm-sr/5.0"}`))
			continue
		}
		if req.Method == http.MethodGet {
			_, _ = io.WriteString(c, plain(`{"models":[{"name":"d3","description":"a framing upstream","release_date":"2026-01-01"}]}`))
			continue
		}
		var sent struct {
			State    string
			Requests map[string]struct{ State string } // a vllm-sr/5.0 batch call's
		}
		_ = json.Unmarshal(body, &sent)
		item := ""
		for name, r := range sent.Requests {
			item, sent.State = name, r.State
		}
		m := framedState.FindStringSubmatch(sent.State)
		if m == nil {
			_, _ = io.WriteString(c, "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
			continue
		}
		id, _ := strconv.Atoi(m[1])
		f := framings[cmpOr(m[2], "plain")]
		own := ownAnswer(id)
		if item != "" {
			own = `{"model":"d3","responses":{` + strconv.Quote(item) + `:` + own + `},"usage":{"input_tokens":` + strconv.Itoa(id) + `,"output_tokens":0}}`
		}
		if _, err := io.WriteString(c, u.echoed(f.now(own), req)); err != nil {
			return
		}
		if f.late != nil && u.lateWithin > 0 {
			u.wg.Go(func() { u.sendLateNow(c, u.echoed(f.late(own), req), f.close) })
			continue
		}
		if f.late != nil {
			u.mu.Lock()
			u.pending = append(u.pending, lateBytes{c: c, bytes: u.echoed(f.late(own), req), close: f.close})
			u.mu.Unlock()
			continue // sendLate closes c when the framing says so
		}
		if f.close {
			return
		}
	}
}

// echoed is raw with the request's X-Request-Id echoed in each 200 head,
// when the upstream echoes.
func (u *framingUpstream) echoed(raw string, req *http.Request) string {
	if !u.echo {
		return raw
	}
	return strings.ReplaceAll(raw, "HTTP/1.1 200 OK\r\n", "HTTP/1.1 200 OK\r\nX-Request-Id: "+req.Header.Get("X-Request-Id")+"\r\n")
}

// sendLateNow sends late on c after a random delay within lateWithin,
// then closes c when asked.
func (u *framingUpstream) sendLateNow(c net.Conn, late string, closeAfter bool) {
	time.Sleep(rand.N(u.lateWithin))
	if _, err := io.WriteString(c, late); err == nil {
		u.lateSent.Add(1)
	}
	if closeAfter {
		_ = c.Close()
	}
}

// sendLate sends the late bytes held since the last call, on connections
// idle now (no call may be in flight), and waits lateArrival for them to
// arrive.
func (u *framingUpstream) sendLate() {
	u.mu.Lock()
	pending := u.pending
	u.pending = nil
	u.mu.Unlock()
	for _, l := range pending {
		if _, err := io.WriteString(l.c, l.bytes); err == nil {
			u.lateSent.Add(1)
		}
		if l.close {
			_ = l.c.Close()
		}
	}
	if len(pending) > 0 {
		time.Sleep(lateArrival)
	}
}

// accepted is how many connections the upstream accepted.
func (u *framingUpstream) accepted() int {
	u.mu.Lock()
	defer u.mu.Unlock()
	return len(u.conns)
}
