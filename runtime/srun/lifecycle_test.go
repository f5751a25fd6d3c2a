package srun_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/vllm-sr/systemone/runtime/front"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/srun"
	"github.com/vllm-sr/systemone/runtime/table"
)

// Past the admission limit the server answers 529 with Retry-After at
// once, and admits again when a slot frees.
func TestOverloadedAnswers529(t *testing.T) {
	g := newGate(srun.ReferenceEngine(), false)
	s := start(t, srun.Config{Engine: g, MaxInFlight: 2})
	g.armed.Store(true)
	done := make(chan *reply, 2)
	for range 2 {
		go func() { done <- s.post("/v1/systemone", urgent) }()
	}
	if !g.waitEntered(2) {
		t.Fatal("the two requests did not reach the engine")
	}
	began := time.Now()
	r := s.post("/v1/systemone", urgent).wantError(t, 529, "overloaded")
	if time.Since(began) > time.Second {
		t.Errorf("the 529 took %v: admission must not wait", time.Since(began))
	}
	if r.header.Get("Retry-After") == "" {
		t.Error("a 529 must carry Retry-After")
	}
	// Health and the listing are not admitted work.
	s.get("/health").want(t, http.StatusOK)
	s.get("/v1/models").want(t, http.StatusOK)

	g.release()
	for range 2 {
		(<-done).want(t, http.StatusOK)
	}
	s.post("/v1/systemone", urgent).want(t, http.StatusOK)
}

// Until the self-test passes the server answers 503 with Retry-After.
func TestStartingAnswers503(t *testing.T) {
	g := newGate(srun.ReferenceEngine(), true)
	s := startNotReady(t, srun.Config{Engine: g})
	if !g.waitEntered(1) {
		t.Fatal("the self-test did not start")
	}
	h := s.get("/health").wantError(t, http.StatusServiceUnavailable, "starting")
	if h.header.Get("Retry-After") == "" || h.str("status") != "starting" || h.str("api_version") != "5.0.0" {
		t.Errorf("health while starting: %v %s", h.header, h.body)
	}
	r := s.post("/v1/systemone", urgent).wantError(t, http.StatusServiceUnavailable, "starting")
	if r.header.Get("Retry-After") == "" {
		t.Error("a 503 starting must carry Retry-After")
	}
	g.armed.Store(false)
	g.release()
	s.waitReady()
	h = s.get("/health").want(t, http.StatusOK)
	if h.str("status") != "ready" || h.str("api_version") != srun.APIVersion || h.str("version") != "5.0" {
		t.Errorf("health when ready: %s", h.body)
	}
}

// A shutdown (SIGINT/SIGTERM in the CLI) stops accepting connections and
// lets the request in flight finish with its answer.
func TestGracefulShutdownFinishesInFlight(t *testing.T) {
	g := newGate(srun.ReferenceEngine(), false)
	s := start(t, srun.Config{Engine: g})
	g.armed.Store(true)
	done := make(chan *reply, 1)
	go func() { done <- s.post("/v1/systemone", urgent) }()
	if !g.waitEntered(1) {
		t.Fatal("the request did not reach the engine")
	}
	s.stop()
	// New connections are refused once the listener is closed.
	refused := false
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		c, err := net.DialTimeout("tcp", s.addr, time.Second)
		if err != nil {
			refused = true
			break
		}
		c.Close()
	}
	if !refused {
		t.Error("the server still accepted connections while shutting down")
	}
	select {
	case <-s.run.Done():
		t.Fatal("the server stopped with a request in flight")
	default:
	}
	g.release()
	r := <-done
	r.want(t, http.StatusOK)
	if r.str("answers", "urgent", "type") != "noul" {
		t.Errorf("the request in flight got %s", r.body)
	}
	if err := s.run.Wait(); err != nil {
		t.Errorf("a requested stop ended with %v", err)
	}
}

// A shutdown that runs out of time says so.
func TestShutdownTimeout(t *testing.T) {
	g := newGate(srun.ReferenceEngine(), false)
	s := start(t, srun.Config{Engine: g, Timeouts: front.Timeouts{ShutdownTimeout: 50 * time.Millisecond}})
	defer g.release()
	g.armed.Store(true)
	go func() {
		req, _ := http.NewRequest(http.MethodPost, s.url+"/v1/systemone", strings.NewReader(urgent))
		if resp, err := client.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	if !g.waitEntered(1) {
		t.Fatal("the request did not reach the engine")
	}
	s.stop()
	if err := s.run.Wait(); err == nil || !strings.Contains(err.Error(), "timed out") {
		t.Errorf("got %v, want a shutdown timeout", err)
	}
}

// A model that fails its self-test never becomes ready: the server stops
// with an error naming the case.
func TestFailedSelfTestStopsTheServer(t *testing.T) {
	broken := engineFunc(func(context.Context, table.Model, *ir.Request) (*ir.Response, error) {
		return nil, errors.New("weights missing")
	})
	s := startNotReady(t, srun.Config{Engine: broken})
	select {
	case <-s.run.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the server kept running after a failed self-test")
	}
	err := s.run.Wait()
	if err == nil || !strings.Contains(err.Error(), "self-test vela3/") {
		t.Errorf("got %v, want the failed self-test case named", err)
	}
}

// The deadline bounds the call: work not started by then is not run, and
// its questions answer deadline_exceeded (504 on /v1/systemone, in the
// answer on /v1/decisions).
func TestDeadline(t *testing.T) {
	s := start(t, srun.Config{Engine: slow{inner: srun.ReferenceEngine(), delay: 3 * time.Second, question: "urgent"}})
	body := `{"model": "vllm-sr/vela3-fast", "state": "Reset my password.", "questions": {"urgent": {"type": "noul", "instructions": "Is it urgent?"}}, "options": {"deadline_ms": 50}}`
	began := time.Now()
	r := s.post("/v1/systemone", body).wantError(t, http.StatusGatewayTimeout, "question_failed")
	if took := time.Since(began); took > 2*time.Second {
		t.Errorf("the 504 took %v for a 50 ms deadline", took)
	}
	if r.str("question") != "urgent" || r.str("reason") == "" {
		t.Errorf("got %s", r.body)
	}
	d := s.post("/v1/decisions", body).want(t, http.StatusOK)
	if d.str("answers", "urgent", "error") != "deadline_exceeded" {
		t.Errorf("decisions: got %s", d.body)
	}
}

// engineFunc adapts a function to srun.Engine (a test double at the seam).
type engineFunc func(context.Context, table.Model, *ir.Request) (*ir.Response, error)

func (f engineFunc) Decide(ctx context.Context, m table.Model, req *ir.Request) (*ir.Response, error) {
	return f(ctx, m, req)
}
