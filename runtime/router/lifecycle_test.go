package router_test

import (
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vllm-sr/systemone/runtime/front"
	"github.com/vllm-sr/systemone/runtime/router"
	"github.com/vllm-sr/systemone/runtime/routerconfig"
	"github.com/vllm-sr/systemone/runtime/testkit"
)

// A second deployment key the good configurations add, on the same
// runtime.
const extraDeployment = `  vela-two:
    provider: systemone
    endpoint: {{VELA}}/v1/systemone
    model: vllm-sr/vela3-fast
    schema: vllm-sr/5.0
`

// brokenDeployment has two problems, which a refused reload logs one per
// line.
const brokenDeployment = `  broken:
    provider: systemone
    endpoint: {{VELA}}/v1/systemone
    model: vllm-sr/vela3-fast
    schema: vllm-sr/9.9
    colour: blue
`

// Under a steady load, reloads with a good configuration (which adds a
// deployment key) and a bad one (refused, every problem logged on its own
// line, the configuration in force kept) fail no request; the reloads go
// through Reload, the function `vllm-sr serve` calls on SIGHUP.
func TestReloadUnderLoad(t *testing.T) {
	p := newProd(t, router.Options{CheckInterval: 50 * time.Millisecond})
	good := writeConfig(t, prodConfig, with(p.values, "EXTRA", extraDeployment))
	bad := writeConfig(t, prodConfig, with(p.values, "EXTRA", brokenDeployment))
	_, loadErr := router.LoadConfig(bad)
	var problems *routerconfig.LoadError
	if !errors.As(loadErr, &problems) || len(problems.Problems) < 2 {
		t.Fatalf("the bad configuration should have at least two problems: %v", loadErr)
	}
	if status, _ := post(t, p.url("/v1/systemone"), strings.Replace(velaRequest, "local-vela", "vela-two", 1)); status != 404 {
		t.Fatalf("vela-two before the reload: %d", status)
	}

	var sent, failed atomic.Int64
	var firstFailure atomic.Value
	stop := make(chan struct{})
	var wg sync.WaitGroup
	client := &http.Client{Timeout: 10 * time.Second}
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				resp, err := client.Post(p.url("/v1/systemone"), "application/json", strings.NewReader(velaRequest))
				sent.Add(1)
				if err == nil {
					resp.Body.Close()
				}
				if err != nil || resp.StatusCode != http.StatusOK {
					failed.Add(1)
					firstFailure.CompareAndSwap(nil, errors.Join(err, errors.New(statusOf(resp))))
				}
			}
		}()
	}
	for i := range 10 {
		time.Sleep(60 * time.Millisecond)
		path, wantErr := good, false
		if i%2 == 1 {
			path, wantErr = bad, true
		}
		if err := p.run.Reload(path); (err != nil) != wantErr {
			t.Errorf("reload %d of %s: %v", i, path, err)
		}
	}
	time.Sleep(60 * time.Millisecond)
	close(stop)
	wg.Wait()
	if failed.Load() > 0 || sent.Load() < 20 {
		t.Fatalf("%d of %d requests failed during the reloads (first: %v)", failed.Load(), sent.Load(), firstFailure.Load())
	}
	t.Logf("%d requests, none failed, over 10 reloads", sent.Load())

	// The last good configuration is in force: vela-two is served.
	if status, out := post(t, p.url("/v1/systemone"), strings.Replace(velaRequest, "local-vela", "vela-two", 1)); status != 200 {
		t.Fatalf("vela-two after the reload: %d %s", status, out)
	}
	logs := p.logs.String()
	for _, problem := range problems.Problems {
		if n := strings.Count(logs, `"msg":"configuration problem","problem":`+quoteJSON(problem.String())); n != 5 {
			t.Errorf("problem %q logged %d times, want once per refused reload (5)", problem.String(), n)
		}
	}
	if n := strings.Count(logs, `"msg":"configuration reloaded"`); n != 5 {
		t.Errorf("%d reloads logged, want 5", n)
	}
}

// with is values with key set to value, whose own {{VELA}} is filled
// first (writeConfig fills placeholders in no fixed order).
func with(values map[string]string, key, value string) map[string]string {
	out := map[string]string{key: strings.ReplaceAll(value, "{{VELA}}", values["VELA"])}
	for k, v := range values {
		if k != key {
			out[k] = v
		}
	}
	return out
}

func statusOf(resp *http.Response) string {
	if resp == nil {
		return "no reply"
	}
	return resp.Status
}

func quoteJSON(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// A reload that moves a listener is refused: sockets are bound at start.
func TestReloadKeepsListeners(t *testing.T) {
	p := newProd(t, router.Options{})
	moved := writeConfig(t, prodConfig, with(p.values, "PORT", freePort(t)))
	if err := p.run.Reload(moved); err == nil || !strings.Contains(err.Error(), "restart the Router") {
		t.Fatalf("got %v", err)
	}
	if status, _ := post(t, p.url("/v1/systemone"), velaRequest); status != 200 {
		t.Fatalf("after the refused reload: %d", status)
	}
}

// A stop (SIGTERM in `vllm-sr serve`) drains: the listener stops
// accepting connections, the request in flight finishes with its answer,
// and the Router ends without error.
func TestStopDrainsInFlight(t *testing.T) {
	p := newProd(t, router.Options{Timeouts: front.Timeouts{ShutdownTimeout: 10 * time.Second}})
	hold := make(chan struct{})
	p.hold.Store(&hold)
	type result struct {
		status int
		body   string
	}
	done := make(chan result, 1)
	go func() {
		resp, err := http.Post(p.url("/v1/chat/completions"), "application/json", strings.NewReader(`{"model":"gpt-4o","messages":[]}`))
		if err != nil {
			done <- result{body: err.Error()}
			return
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		done <- result{resp.StatusCode, string(b)}
	}()
	select {
	case <-p.entered:
	case <-time.After(10 * time.Second):
		t.Fatal("the request did not reach the upstream")
	}
	p.stop()
	refused := false
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		c, err := net.DialTimeout("tcp", p.run.Addr("edge").String(), time.Second)
		if err != nil {
			refused = true
			break
		}
		c.Close()
	}
	if !refused {
		t.Error("the Router still accepted connections while draining")
	}
	select {
	case <-p.run.Done():
		t.Fatal("the Router stopped with a request in flight")
	default:
	}
	close(hold)
	r := <-done
	if r.status != 200 || !strings.Contains(r.body, "chat.completion") {
		t.Fatalf("the request in flight got %d %s", r.status, r.body)
	}
	select {
	case <-p.run.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the Router did not stop after its last request")
	}
	if err := p.run.Wait(); err != nil {
		t.Errorf("a drained stop ended with %v", err)
	}
}

// A drain that runs out of time says so.
func TestStopTimeout(t *testing.T) {
	p := newProd(t, router.Options{Timeouts: front.Timeouts{ShutdownTimeout: 100 * time.Millisecond}})
	hold := make(chan struct{})
	defer close(hold)
	p.hold.Store(&hold)
	go func() {
		if resp, err := http.Post(p.url("/v1/chat/completions"), "application/json", strings.NewReader(`{"model":"gpt-4o"}`)); err == nil {
			resp.Body.Close()
		}
	}()
	<-p.entered
	p.stop()
	err := p.run.Wait()
	if err == nil || !strings.Contains(err.Error(), "timed out") {
		t.Errorf("got %v, want a shutdown timeout", err)
	}
	p.stopErrOK = true
}

// /ready does not cascade: a stopped deployment shows down in /ready's
// body and its gauge, and /ready stays 200 (vsr_ready 1) while it is not
// required; marked required: true, it makes /ready 503 (vsr_ready 0), and
// /ready is 200 again once the configuration no longer has it. /health
// stays 200 throughout.
func TestReadiness(t *testing.T) {
	p := newProd(t, router.Options{CheckInterval: 50 * time.Millisecond})
	waitReady(t, p.url("/ready"))
	stopped := strings.ReplaceAll(extraDeployment, "{{VELA}}", "http://127.0.0.1:"+freePort(t))
	down := writeConfig(t, prodConfig, with(p.values, "EXTRA", stopped))
	if err := p.run.Reload(down); err != nil {
		t.Fatal(err)
	}
	ready := waitReadyBody(t, p.url(""), func(r readyBody) bool { return r.Deployments["vela-two"].Status == "down" })
	if status, body := get(t, p.url("/ready")); status != 200 || ready.Status != "ready" || ready.Deployments["vela-two"].Required ||
		ready.Deployments["vela-two"].Circuit != "closed" || ready.Deployments["local-vela"].Status != "up" {
		t.Errorf("/ready with a stopped deployment that is not required: %d %s", status, body)
	}
	m := testkit.ScrapeMetrics(t, p.url("/metrics"))
	if v, _ := m.Value("vsr_ready"); v != 1 {
		t.Errorf("vsr_ready %v, want 1: the Router's own readiness", v)
	}
	if v, ok := m.Value("vsr_deployment_up", "deployment", "vela-two"); !ok || v != 0 {
		t.Errorf("vsr_deployment_up{vela-two} %v (%v), want 0", v, ok)
	}
	if v, _ := m.Value("vsr_deployment_up", "deployment", "local-vela"); v != 1 {
		t.Errorf("vsr_deployment_up{local-vela} %v, want 1", v)
	}

	required := writeConfig(t, prodConfig, with(p.values, "EXTRA", stopped+"    required: true\n"))
	if err := p.run.Reload(required); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		status, body := get(t, p.url("/ready"))
		got := decodeJSON(t, body)
		vela, _ := got["deployments"].(map[string]any)["vela-two"].(map[string]any)
		if status == 503 && got["status"] == "not_ready" && vela["status"] == "down" && vela["required"] == true {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("/ready with a required deployment down: %d %s", status, body)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if v, _ := testkit.ScrapeMetrics(t, p.url("/metrics")).Value("vsr_ready"); v != 0 {
		t.Errorf("vsr_ready %v with a required deployment down, want 0", v)
	}
	if status, _ := get(t, p.url("/health")); status != 200 {
		t.Errorf("/health %d, want 200 (liveness)", status)
	}
	if err := p.run.Reload(p.config); err != nil {
		t.Fatal(err)
	}
	waitReady(t, p.url("/ready"))
	if _, ok := testkit.ScrapeMetrics(t, p.url("/metrics")).Value("vsr_deployment_up", "deployment", "vela-two"); ok {
		t.Error("vsr_deployment_up still has a series for vela-two, which the configuration no longer has")
	}
}
