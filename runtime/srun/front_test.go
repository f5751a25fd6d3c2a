package srun_test

import (
	"net/http"
	"strconv"
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

// A Router's call id (its request's id, '.', the call's number, at most
// 128 bytes) is echoed in x-request-id on every reply, answer or
// refusal, on every endpoint a Router calls: the Router refuses a reply
// that echoes another call's id (runtime/router's upstream_ids.go), so a
// reply without its own id would be refused too.
func TestCallIDsEchoedOnEveryReply(t *testing.T) {
	s := start(t, srun.Config{})
	long := strings.Repeat("r", 124) + ".917" // 128 bytes: the longest a Router sends
	calls := []struct {
		method, path, body string
		status             int
	}{
		{http.MethodPost, "/v1/systemone", urgent, http.StatusOK},
		{http.MethodPost, "/v1/systemone", `{"model":"vllm-sr/vela3-fast"}`, http.StatusUnprocessableEntity},
		{http.MethodPost, "/v1/systemone", `{`, http.StatusBadRequest},
		{http.MethodPost, "/v1/systemone/batch", `{"requests":[]}`, http.StatusUnprocessableEntity},
		{http.MethodPost, "/v1/decisions", `{}`, http.StatusBadRequest},
		{http.MethodPost, "/v1/bundle", `{}`, http.StatusBadRequest},
		{http.MethodPost, "/v1/systemone", `{"model":"` + strings.Repeat("m", 33<<20) + `"}`, http.StatusRequestEntityTooLarge},
		{http.MethodGet, "/v1/models", "", http.StatusOK},
		{http.MethodGet, "/health", "", http.StatusOK},
		{http.MethodGet, "/v1/systemone", "", http.StatusMethodNotAllowed},
		{http.MethodGet, "/nowhere", "", http.StatusNotFound},
	}
	for i, c := range calls {
		for _, id := range []string{"req_4bf92f3577b34da6a3ce929d0e0e4736." + strconv.Itoa(i+1), long} {
			r := s.do(c.method, c.path, []byte(c.body), http.Header{"Content-Type": {"application/json"}, "X-Request-Id": {id}})
			if r.status != c.status {
				t.Errorf("%s %s: status %d, want %d", c.method, c.path, r.status, c.status)
			}
			if got := r.header.Values("X-Request-Id"); len(got) != 1 || got[0] != id {
				t.Errorf("%s %s (%d): x-request-id %q, want %q echoed once", c.method, c.path, r.status, got, id)
			}
		}
	}
}
