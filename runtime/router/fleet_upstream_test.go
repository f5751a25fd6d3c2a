package router_test

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// switchUpstream is a systemone/0.2 upstream whose answer to a decision
// call the test switches (mode): "ok" (a noul answer for q), "503", "502",
// "504", "529", "500", "429", "503-after-ms:N" (503 with Retry-After-Ms
// N), "slow-ms:N" (an answer after N ms, sooner if the call is given up),
// or "fail-state:S" (503 for a call whose state is S, the answer for the
// others). Its listing (GET) always answers. It counts the decision calls.
type switchUpstream struct {
	srv   *httptest.Server
	mode  atomic.Value // string
	calls atomic.Int64
}

func newSwitchUpstream(t *testing.T, mode string) *switchUpstream {
	t.Helper()
	u := &switchUpstream{}
	u.mode.Store(mode)
	u.srv = httptest.NewServer(http.HandlerFunc(u.serve))
	t.Cleanup(u.srv.Close)
	return u
}

func (u *switchUpstream) set(mode string) { u.mode.Store(mode) }

// endpoint is the deployment endpoint of the upstream.
func (u *switchUpstream) endpoint() string { return u.srv.URL + "/v1/systemone" }

const switchAnswer = `{"model":"d3","answers":{"q":{"type":"noul","noul":0.5}},"usage":{"input_tokens":1,"output_tokens":0}}`

func (u *switchUpstream) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if r.Method == http.MethodGet {
		reply(w, 200, `{"models":[{"name":"d3","description":"a switched upstream","release_date":"2026-01-01"}]}`)
		return
	}
	u.calls.Add(1)
	mode := u.mode.Load().(string)
	name, arg, _ := strings.Cut(mode, ":")
	switch name {
	case "ok":
		reply(w, 200, switchAnswer)
	case "502", "503", "504", "529", "500", "429":
		status, _ := strconv.Atoi(name)
		reply(w, status, `{"detail":"`+faultMarker+`"}`)
	case "503-after-ms":
		w.Header().Set("Retry-After-Ms", arg)
		reply(w, 503, `{"detail":"`+faultMarker+`"}`)
	case "slow-ms":
		ms, _ := strconv.Atoi(arg)
		select {
		case <-r.Context().Done():
			return
		case <-time.After(time.Duration(ms) * time.Millisecond):
		}
		reply(w, 200, switchAnswer)
	case "fail-state":
		if strings.Contains(string(body), `"state":"`+arg+`"`) {
			reply(w, 503, `{"detail":"`+faultMarker+`"}`)
			return
		}
		reply(w, 200, switchAnswer)
	default:
		reply(w, 500, `{"detail":"no such mode"}`)
	}
}

// alternateResetter is a systemone/0.2 upstream over raw TCP that resets
// every other decision call (the 1st, 3rd, ...) before any reply, and
// answers the others with Connection: close, so no connection is ever
// reused (a reused connection's reset is sent again by the Router's own
// connections, upstream.go, and would hide the failure). Listings (GET)
// are always answered and not counted.
type alternateResetter struct {
	addr  string
	calls atomic.Int64
}

func newAlternateResetter(t *testing.T) *alternateResetter {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	a := &alternateResetter{addr: ln.Addr().String()}
	var wg sync.WaitGroup
	t.Cleanup(func() { _ = ln.Close(); wg.Wait() })
	wg.Go(func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Go(func() { a.serve(conn) })
		}
	})
	return a
}

func (a *alternateResetter) serve(conn net.Conn) {
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(5 * time.Second))
	req, err := http.ReadRequest(bufio.NewReader(conn))
	if err != nil {
		return
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(req.Body, 1<<20))
	body := `{"models":[{"name":"d3","description":"a resetting upstream","release_date":"2026-01-01"}]}`
	if req.Method == http.MethodPost {
		if a.calls.Add(1)%2 == 1 {
			_ = conn.(*net.TCPConn).SetLinger(0) // a reset, not a close
			return
		}
		body = switchAnswer
	}
	_, _ = io.WriteString(conn, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: "+
		strconv.Itoa(len(body))+"\r\n\r\n"+body)
}

// endpoint is the deployment endpoint of the upstream.
func (a *alternateResetter) endpoint() string { return "http://" + a.addr + "/v1/systemone" }
