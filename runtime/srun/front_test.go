package srun_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vllm-sr/systemone/runtime/bodylimit"
	"github.com/vllm-sr/systemone/runtime/srun"
)

// Every answer carries the request id in x-request-id and the standard's
// x-typesafe-request-id: the client's when well-formed, else a new one;
// the id is in the request's log line.
func TestRequestIDs(t *testing.T) {
	s := start(t, srun.Config{})
	r := s.post("/v1/systemone", urgent, "X-Request-Id", "client-id-42")
	if r.status != http.StatusOK || r.header.Get("X-Request-Id") != "client-id-42" || r.header.Get("X-Typesafe-Request-Id") != "client-id-42" {
		t.Fatalf("the client's id was not taken: %d %v", r.status, r.header)
	}
	if !strings.Contains(s.logs.String(), `"request_id":"client-id-42"`) {
		t.Errorf("the log lacks the client's id:\n%s", s.logs)
	}
	for _, bad := range []string{strings.Repeat("x", 129), "caf\u00e9"} {
		r := s.post("/v1/systemone", urgent, "X-Request-Id", bad).want(t, http.StatusOK)
		if id := r.header.Get("X-Request-Id"); !requestID.MatchString(id) || r.header.Get("X-Typesafe-Request-Id") != id {
			t.Errorf("a malformed client id gave %q / %q", id, r.header.Get("X-Typesafe-Request-Id"))
		}
	}
	// Refusals and probes carry it too.
	if r := s.get("/nowhere"); !requestID.MatchString(r.header.Get("X-Request-Id")) {
		t.Errorf("a 404 has no id: %v", r.header)
	}
}

// GET /ready answers as GET /health does: 503 starting until the
// self-test passes, then 200 ready.
func TestReady(t *testing.T) {
	g := newGate(srun.ReferenceEngine(), true)
	s := startNotReady(t, srun.Config{Engine: g})
	if !g.waitEntered(1) {
		t.Fatal("the self-test did not start")
	}
	s.get("/ready").wantError(t, http.StatusServiceUnavailable, "starting")
	g.armed.Store(false)
	g.release()
	s.waitReady()
	if r := s.get("/ready").want(t, http.StatusOK); r.str("status") != "ready" {
		t.Errorf("ready: %s", r.body)
	}
}

// 64 clients that stop in the middle of their bodies hold no admission
// slot (admission counts from when a body has been read): every other
// request is answered 200, not 529; the body-read deadline then closes
// each stalled connection.
func TestStalledBodiesHoldNoSlot(t *testing.T) {
	const stalled = srun.DefaultMaxInFlight
	const readTimeout = 1500 * time.Millisecond
	s := start(t, srun.Config{ReadTimeout: readTimeout})
	conns := make([]net.Conn, stalled)
	for i := range conns {
		c, err := net.DialTimeout("tcp", s.run.Addr().String(), 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		fmt.Fprintf(c, "POST /v1/systemone HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s",
			len(urgent), urgent[:10])
		conns[i] = c
	}
	time.Sleep(200 * time.Millisecond) // let the server start reading every stalled body
	for range 8 {
		s.post("/v1/systemone", urgent).want(t, http.StatusOK)
	}
	began := time.Now()
	var wg sync.WaitGroup
	for _, c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
			resp, err := http.ReadResponse(bufio.NewReader(c), nil)
			if err == nil {
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
			// Closed by the server (EOF) or answered: either frees it.
			for {
				if _, err := c.Read(make([]byte, 512)); err != nil {
					if ne, ok := err.(net.Error); ok && ne.Timeout() {
						t.Error("a stalled connection was still open after 10s")
					}
					return
				}
			}
		}()
	}
	wg.Wait()
	// The refused body's lingering read (bodylimit.Linger) may hold a
	// connection a little longer, never unboundedly.
	if limit := readTimeout + bodylimit.LingerTime + 2*time.Second; time.Since(began) > limit {
		t.Errorf("the stalled connections took %v to be freed, want under %v", time.Since(began), limit)
	}
}
