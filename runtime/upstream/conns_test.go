package upstream

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tc "github.com/vllm-sr/systemone/runtime/target"
)

// rawUpstream accepts connections and answers each request read on one
// with reply(n), n counting requests across connections from 1; a reply
// ending the connection (close) is followed by closing it.
type rawUpstream struct {
	ln       net.Listener
	accepted atomic.Int32
	requests atomic.Int32
	lastHead atomic.Value // string: the last request's head
}

func newRawUpstream(t *testing.T, reply func(n int32) (answer string, close bool)) *rawUpstream {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	u := &rawUpstream{ln: ln}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			u.accepted.Add(1)
			go u.serve(c, reply)
		}
	}()
	return u
}

func (u *rawUpstream) serve(c net.Conn, reply func(int32) (string, bool)) {
	defer c.Close()
	br := bufio.NewReader(c)
	for {
		_ = c.SetDeadline(time.Now().Add(5 * time.Second))
		req, err := http.ReadRequest(br)
		if err != nil {
			return
		}
		var head strings.Builder
		_ = req.Header.Write(&head)
		u.lastHead.Store(req.Method + " " + req.RequestURI + " Host=" + req.Host + "\n" + head.String())
		_, _ = io.Copy(io.Discard, req.Body)
		answer, closeAfter := reply(u.requests.Add(1))
		if answer == "" { // never answer
			time.Sleep(5 * time.Second)
			return
		}
		if _, err := io.WriteString(c, answer); err != nil || closeAfter {
			return
		}
	}
}

func (u *rawUpstream) url() string { return "http://" + u.ln.Addr().String() + "/v1/systemone" }

const okReply = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"

func sendTo(t *testing.T, u *upstreamConns, ctx context.Context, url string) tc.WireReply {
	t.Helper()
	target, err := u.target(url)
	if err != nil || !target.plain {
		t.Fatalf("target %q: %v (plain %v)", url, err, target != nil && target.plain)
	}
	call := &tc.WireCall{Method: http.MethodPost, URL: url, Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(`{"q":1}`)}
	return u.send(ctx, target, call, &callOptions{requestID: "req-1", numbers: &testCallNumbers})
}

// testCallNumbers numbers the calls of sendTo.
var testCallNumbers atomic.Uint64

// Calls reuse one kept-alive connection, and send the call's headers,
// the request id, the host and the body's length.
func TestUpstreamConnsReuseAConnection(t *testing.T) {
	up := newRawUpstream(t, func(int32) (string, bool) { return okReply, false })
	conns := upstreamConns{maxIdle: 4}
	defer conns.close()
	for range 5 {
		if r := sendTo(t, &conns, context.Background(), up.url()); r.Err != nil || r.Status != 200 || string(r.Body) != "{}" {
			t.Fatalf("reply %d %q %v", r.Status, r.Body, r.Err)
		}
	}
	if n := up.accepted.Load(); n != 1 {
		t.Errorf("5 calls opened %d connections, want 1", n)
	}
	head, _ := up.lastHead.Load().(string)
	for _, want := range []string{"POST /v1/systemone Host=" + up.ln.Addr().String(), "Content-Type: application/json", "X-Request-Id: req-1." + strconv.FormatUint(testCallNumbers.Load(), 10), "Content-Length: 7"} {
		if !strings.Contains(head, want) {
			t.Errorf("request head lacks %q:\n%s", want, head)
		}
	}
}

// An idle connection the upstream closed is replaced, and the call sent
// again on a new one; a reply asking to close is not kept.
func TestUpstreamConnsReplaceAClosedConnection(t *testing.T) {
	for _, c := range []struct {
		name  string
		reply string
		close bool
	}{
		{"closed silently after a reply", okReply, true},
		{"Connection: close", "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\n{}", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			up := newRawUpstream(t, func(int32) (string, bool) { return c.reply, c.close })
			conns := upstreamConns{maxIdle: 4}
			defer conns.close()
			for i := range 3 {
				if r := sendTo(t, &conns, context.Background(), up.url()); r.Err != nil || r.Status != 200 {
					t.Fatalf("call %d: reply %d %v", i, r.Status, r.Err)
				}
				time.Sleep(10 * time.Millisecond) // the upstream's close arrives
			}
			if n := up.accepted.Load(); n != 3 {
				t.Errorf("3 calls opened %d connections, want 3", n)
			}
		})
	}
}

// Chunked replies and informational replies before the final one are
// read as net/http reads them, and the connection is kept.
func TestUpstreamConnsReadFraming(t *testing.T) {
	up := newRawUpstream(t, func(int32) (string, bool) {
		return "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\n{\"a\r\n5\r\n\":1}\n\r\n0\r\n\r\n", false
	})
	conns := upstreamConns{maxIdle: 4}
	defer conns.close()
	for range 2 {
		if r := sendTo(t, &conns, context.Background(), up.url()); r.Err != nil || r.Status != 200 || string(r.Body) != "{\"a\":1}\n" {
			t.Fatalf("reply %d %q %v", r.Status, r.Body, r.Err)
		}
	}
	if n := up.accepted.Load(); n != 1 {
		t.Errorf("2 chunked calls opened %d connections, want 1", n)
	}
}

// A call whose context ends while the upstream is silent returns at once
// with the context's error, and its connection is not kept; nothing is
// sent again.
func TestUpstreamConnsStopWithTheContext(t *testing.T) {
	up := newRawUpstream(t, func(int32) (string, bool) { return "", false })
	conns := upstreamConns{maxIdle: 4}
	defer conns.close()

	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	r := sendTo(t, &conns, ctx, up.url())
	if !errors.Is(r.Err, context.DeadlineExceeded) || time.Since(start) > 2*time.Second {
		t.Errorf("deadline: err %v after %v", r.Err, time.Since(start))
	}

	ctx, cancel = context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	start = time.Now()
	r = sendTo(t, &conns, ctx, up.url())
	if !errors.Is(r.Err, context.Canceled) || time.Since(start) > 2*time.Second {
		t.Errorf("cancel: err %v after %v", r.Err, time.Since(start))
	}
	if n := up.requests.Load(); n != 2 {
		t.Errorf("the upstream got %d requests, want 2 (none sent again)", n)
	}
}

// A reply whose length is over the limit is refused unread; a redirect is
// returned unread; neither connection is kept.
func TestUpstreamConnsRefuseWithoutReading(t *testing.T) {
	up := newRawUpstream(t, func(n int32) (string, bool) {
		if n == 1 {
			return "HTTP/1.1 200 OK\r\nContent-Length: 999999999\r\n\r\n{", false
		}
		return "HTTP/1.1 307 Temporary Redirect\r\nLocation: http://elsewhere.invalid/\r\nContent-Length: 0\r\n\r\n", false
	})
	conns := upstreamConns{maxIdle: 4}
	defer conns.close()
	if r := sendTo(t, &conns, context.Background(), up.url()); !errors.Is(r.Err, tc.ErrReplyTooLarge) {
		t.Errorf("a 1 GB length: %v", r.Err)
	}
	r := sendTo(t, &conns, context.Background(), up.url())
	if r.Status != http.StatusTemporaryRedirect || r.Header.Get("Location") == "" || r.Err != nil {
		t.Errorf("a redirect: %d %v", r.Status, r.Err)
	}
	if n := up.accepted.Load(); n != 2 {
		t.Errorf("%d connections, want 2 (neither kept)", n)
	}
}

// https and other schemes are not these connections' to carry.
func TestUpstreamConnsCarryPlainHTTPOnly(t *testing.T) {
	conns := upstreamConns{maxIdle: 4}
	for url, plain := range map[string]bool{
		"http://127.0.0.1:9/v1/systemone":      true,
		"https://example.invalid/v1/systemone": false,
		"http://user:pw@example.invalid/":      false,
	} {
		target, err := conns.target(url)
		if err != nil || target.plain != plain {
			t.Errorf("%s: plain %v, err %v; want plain %v", url, target != nil && target.plain, err, plain)
		}
	}
}

// A call header that is not a valid field (a CR LF in a value would start
// a header, or a request, of its own) is never written.
func TestUpstreamConnsRefuseAnInvalidHeader(t *testing.T) {
	up := newRawUpstream(t, func(int32) (string, bool) { return okReply, false })
	conns := upstreamConns{maxIdle: 4}
	defer conns.close()
	target, _ := conns.target(up.url())
	for _, h := range []http.Header{
		{"X-Deviation": {"on\r\nX-Injected: 1"}},
		{"X Bad": {"v"}},
	} {
		call := &tc.WireCall{Method: http.MethodPost, URL: up.url(), Header: h, Body: []byte(`{}`)}
		if r := conns.send(context.Background(), target, call, &callOptions{numbers: new(atomic.Uint64)}); !errors.Is(r.Err, ErrRequestHeader) {
			t.Errorf("header %v: reply %d, err %v", h, r.Status, r.Err)
		}
	}
	if n := up.requests.Load(); n != 0 {
		t.Errorf("the upstream got %d requests", n)
	}
}

// A 408 on a kept connection is the upstream's idle timeout racing the
// call: the call is sent once more, on a new connection, and answered.
func TestUpstreamConnsRetryA408OnAKeptConnection(t *testing.T) {
	up := newRawUpstream(t, func(n int32) (string, bool) {
		if n == 2 {
			return "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n", true
		}
		return okReply, false
	})
	conns := upstreamConns{maxIdle: 4}
	defer conns.close()
	for i := range 2 {
		if r := sendTo(t, &conns, context.Background(), up.url()); r.Err != nil || r.Status != 200 {
			t.Fatalf("call %d: reply %d %v", i, r.Status, r.Err)
		}
	}
	if n, c := up.requests.Load(), up.accepted.Load(); n != 3 || c != 2 {
		t.Errorf("%d requests on %d connections, want 3 on 2 (the 408's call sent again on a new one)", n, c)
	}
}

// A 408 on a new connection is the upstream's answer to this call: it is
// not sent again.
func TestUpstreamConnsDoNotRetryA408OnANewConnection(t *testing.T) {
	up := newRawUpstream(t, func(int32) (string, bool) {
		return "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n", true
	})
	conns := upstreamConns{maxIdle: 4}
	defer conns.close()
	if r := sendTo(t, &conns, context.Background(), up.url()); r.Status != http.StatusRequestTimeout {
		t.Errorf("reply %d %v, want the 408", r.Status, r.Err)
	}
	if n := up.requests.Load(); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}

// A call with no deadline of its own is bounded by the call timeout, on
// the Router's own connections and on Go's client alike.
func TestCallsWithoutADeadlineAreBounded(t *testing.T) {
	up := newRawUpstream(t, func(int32) (string, bool) { return "", false }) // never answers
	const bound = 200 * time.Millisecond
	conns := &upstreamConns{maxIdle: 4, callTimeout: bound}
	defer conns.close()
	client := &Transport{client: &http.Client{}, callTimeout: bound}
	for name, send := range map[string]func() tc.WireReply{
		"own connections": func() tc.WireReply { return sendTo(t, conns, context.Background(), up.url()) },
		"Go's client": func() tc.WireReply {
			return client.Send(context.Background(), &tc.WireCall{Method: http.MethodPost, URL: up.url(), Body: []byte(`{}`)}, &Call{})
		},
	} {
		start := time.Now()
		r := send()
		if took := time.Since(start); !errors.Is(r.Err, context.DeadlineExceeded) || took < bound || took > bound+2*time.Second {
			t.Errorf("%s: err %v after %v, want the deadline after %v", name, r.Err, took, bound)
		}
	}
}

// A reply echoing another call's id is refused on Go's client too (an
// https:// deployment's path) when the upstream echoes ids, and its
// connection closed; a call of an upstream that echoes nothing takes it.
func TestGoClientRefusesAnotherCallsReply(t *testing.T) {
	up := newRawUpstream(t, func(int32) (string, bool) {
		return "HTTP/1.1 200 OK\r\nX-Request-Id: other.1\r\nContent-Length: 2\r\n\r\n{}", false
	})
	client := New(Options{Client: &http.Client{}})
	call := &tc.WireCall{Method: http.MethodPost, URL: up.url(), Body: []byte(`{}`)}
	if r := client.Send(context.Background(), call, &Call{Echoes: true}); !IsOtherCallsReply(r.Err) || r.Status != 0 {
		t.Errorf("reply %d %q %v, want errOtherCallsReply", r.Status, r.Body, r.Err)
	}
	if r := client.Send(context.Background(), call, &Call{}); r.Err != nil || r.Status != 200 {
		t.Errorf("reply %d %v, want it taken from an upstream that echoes nothing", r.Status, r.Err)
	}
	if n := up.accepted.Load(); n != 2 {
		t.Errorf("%d connections, want 2: the refused reply's connection closed", n)
	}
}
