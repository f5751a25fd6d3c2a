package srun_test

import (
	"net/http"
	"strings"
	"testing"

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
