package router_test

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// connUpstream is an upstream over raw sockets whose replies to System One
// calls the test writes per connection: answer(conn, n, call) is the raw
// reply to the n-th request (from 1) on the conn-th connection accepted
// (from 1), "" to close the connection without a reply, as a server
// closing an idle connection does when a call arrives. GET /health and
// GET /v1/models are answered as a vllm-sr/5.0 runtime would. Each
// call's id and whether it asked to close are kept.
type connUpstream struct {
	ln       net.Listener
	accepted atomic.Int32
	answer   atomic.Pointer[func(conn, n int, c connCall) string]

	mu    sync.Mutex
	conns []net.Conn
	calls []connCall
	wg    sync.WaitGroup
}

// connCall is one System One call a connUpstream read.
type connCall struct {
	conn       int
	id         string // X-Request-Id
	closeAfter bool   // Connection: close
	state      string // the request's state ("id:N"), and its batch item's name
	item       string
}

func newConnUpstream(t *testing.T, answer func(conn, n int, c connCall) string) *connUpstream {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	u := &connUpstream{ln: ln}
	u.answer.Store(&answer)
	u.wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			u.mu.Lock()
			u.conns = append(u.conns, c)
			conn := len(u.conns)
			u.mu.Unlock()
			u.accepted.Add(1)
			u.wg.Go(func() { u.serve(c, conn) })
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

func (u *connUpstream) url() string { return "http://" + u.ln.Addr().String() + "/v1/systemone" }

func (u *connUpstream) serve(c net.Conn, conn int) {
	defer c.Close()
	br := bufio.NewReader(c)
	for n := 1; ; {
		_ = c.SetDeadline(time.Now().Add(10 * time.Second))
		req, err := http.ReadRequest(br)
		if err != nil {
			return
		}
		body, _ := io.ReadAll(io.LimitReader(req.Body, 1<<20))
		switch {
		case req.Method == http.MethodGet && req.URL.Path == "/health":
			_, _ = io.WriteString(c, plain(`{"status":"ready","api_version":"5.0.0","version":"5.0","model":"d3","schema":"vllm-sr/5.0"}`))
			continue
		case req.Method == http.MethodGet:
			_, _ = io.WriteString(c, plain(`{"models":[{"name":"d3","description":"a test upstream","release_date":"2026-01-01"}]}`))
			continue
		}
		call := connCall{conn: conn, id: req.Header.Get("X-Request-Id"), closeAfter: req.Close}
		var sent struct {
			State    string
			Requests map[string]struct{ State string }
		}
		_ = json.Unmarshal(body, &sent)
		call.state = sent.State
		for name, r := range sent.Requests {
			call.item, call.state = name, r.State
		}
		u.mu.Lock()
		u.calls = append(u.calls, call)
		u.mu.Unlock()
		reply := (*u.answer.Load())(conn, n, call)
		n++
		if reply == "" {
			return
		}
		if _, err := io.WriteString(c, reply); err != nil {
			return
		}
	}
}

// sendOn writes raw on the conn-th connection, which is idle.
func (u *connUpstream) sendOn(conn int, raw string) error {
	u.mu.Lock()
	c := u.conns[conn-1]
	u.mu.Unlock()
	_, err := io.WriteString(c, raw)
	return err
}

// seen is every System One call read so far.
func (u *connUpstream) seen() []connCall {
	u.mu.Lock()
	defer u.mu.Unlock()
	return append([]connCall(nil), u.calls...)
}

// answerOf is the reply to call with request id's answer (ownAnswer),
// echoing echo as its X-Request-Id ("" for none): a 5.0 batch response
// for a batch call, else a standard response.
func answerOf(call connCall, id int, echo string) string {
	own := ownAnswer(id)
	if call.item != "" {
		own = `{"model":"d3","responses":{` + strconv.Quote(call.item) + `:` + own + `},"usage":{"input_tokens":` + strconv.Itoa(id) + `,"output_tokens":0}}`
	}
	head := "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
	if echo != "" {
		head += "X-Request-Id: " + echo + "\r\n"
	}
	return head + "Content-Length: " + strconv.Itoa(len(own)) + "\r\n\r\n" + own
}

// stateID is N of a call's state "id:N"; -1 for another state.
func stateID(call connCall) int {
	m := framedState.FindStringSubmatch(call.state)
	if m == nil {
		return -1
	}
	id, _ := strconv.Atoi(m[1])
	return id
}
