package router_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vllm-sr/systemone/runtime/router"
	"github.com/vllm-sr/systemone/runtime/srun"
	"github.com/vllm-sr/systemone/runtime/testkit"
)

// prodConfig is a Router with one listener serving System One and chat
// completions, a vllm-srun deployment, an LLM upstream and one rule.
const prodConfig = `listeners:
  - name: edge
    address: 127.0.0.1:{{PORT}}
    apis:
      systemone: {schema: vllm-sr/5.0}
      chat_completions: {}
upstreams:
  openai-main:
    api_format: openai
    endpoint: {{LLM}}/v1
    models: [gpt-4o]
deployments:
  local-vela:
    provider: systemone
    endpoint: {{VELA}}/v1/systemone
    model: vllm-sr/vela3-fast
    schema: vllm-sr/5.0
{{EXTRA}}rules:
  relevant:
    deployment: local-vela
    input: [request, context]
    timeout_ms: 2000
    questions:
      relevant: {preset: relevance}
`

const velaRequest = `{"model":"local-vela","state":"my screen is black","questions":{"urgent":{"type":"noul","instructions":"Is it urgent?"}}}`

// prod is a Router started as `vllm-sr serve` starts it, in front of a
// vllm-srun runtime and an LLM upstream, each logging into a buffer.
type prod struct {
	run        *router.Running
	runtime    *srun.Running
	llm        *httptest.Server
	llmHeaders chan http.Header
	logs       *testkit.LogBuffer
	runtimeLog *testkit.LogBuffer
	config     string
	values     map[string]string
	// stop asks the Router to stop, as SIGTERM does; stopErrOK: the test
	// checked how it stopped.
	stop      context.CancelFunc
	stopErrOK bool
	// hold, when set, holds each LLM request until it is closed; entered
	// gets one value per held request.
	hold    atomic.Pointer[chan struct{}]
	entered chan struct{}
}

func newProd(t *testing.T, opts router.Options) *prod {
	t.Helper()
	p := &prod{logs: &testkit.LogBuffer{}, runtimeLog: &testkit.LogBuffer{}, llmHeaders: make(chan http.Header, 64), entered: make(chan struct{}, 64)}
	p.llm = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		if hold := p.hold.Load(); hold != nil {
			p.entered <- struct{}{}
			<-*hold
		}
		select {
		case p.llmHeaders <- r.Header.Clone():
		default:
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Request-Id", "the-upstream-own-id")
		_, _ = io.WriteString(w, `{"id":"chatcmpl-1","object":"chat.completion","model":"gpt-4o","choices":[]}`)
	}))
	t.Cleanup(p.llm.Close)
	rt := startRuntimeWith(t, srun.Config{Model: "vllm-sr/vela3-fast", Logger: slog.New(slog.NewJSONHandler(p.runtimeLog, nil))})
	p.runtime = rt
	p.values = map[string]string{"PORT": freePort(t), "LLM": p.llm.URL, "VELA": rt.URL(), "EXTRA": ""}
	p.config = writeConfig(t, prodConfig, p.values)
	cfg, err := router.LoadConfig(p.config)
	if err != nil {
		t.Fatal(err)
	}
	opts.Logger = slog.New(slog.NewJSONHandler(p.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	rctx, rcancel := context.WithCancel(context.Background())
	p.run, err = router.Start(rctx, cfg, opts)
	if err != nil {
		rcancel()
		t.Fatal(err)
	}
	p.stop = rcancel
	t.Cleanup(func() {
		rcancel()
		if err := p.run.Wait(); err != nil && !p.stopErrOK {
			t.Errorf("router stopped: %v", err)
		}
	})
	return p
}

func (p *prod) url(path string) string { return p.run.URL("edge") + path }

// The metrics scrape, read by the Prometheus text parser, has every family
// of the Router (docs/router.md, "Metrics"), counts a refused request and
// LLM traffic, and the listener diagnostics counter has the same labels
// and words on the Router and on the runtime.
func TestMetricsScrape(t *testing.T) {
	p := newProd(t, router.Options{})
	if status, out := post(t, p.url("/v1/systemone"), velaRequest); status != 200 {
		t.Fatalf("%d %s", status, out)
	}
	if status, _ := post(t, p.url("/v1/systemone"), `{"model":`); status != 400 {
		t.Fatalf("malformed JSON: %d", status)
	}
	if status, out := post(t, p.url("/v1/chat/completions"), `{"model":"gpt-4o","messages":[]}`); status != 200 {
		t.Fatalf("LLM: %d %s", status, out)
	}
	if _, err := p.run.Router().Decide(context.Background(), []string{"relevant"}, map[string]string{"request": "q", "context": "c"}); err != nil {
		t.Fatal(err)
	}
	waitReady(t, p.url("/ready"))
	m := testkit.ScrapeMetrics(t, p.url("/metrics"))
	for _, family := range []string{"vsr_requests_total", "vsr_request_duration_seconds", "vsr_requests_in_flight",
		"vsr_systemone_listener_diagnostics_total", "vsr_ready", "vsr_build_info",
		"vsr_upstream_calls_total", "vsr_upstream_call_duration_seconds", "vsr_upstream_calls_in_flight", "vsr_rule_outcomes_total",
		"go_goroutines", "go_memstats_alloc_bytes", "process_cpu_seconds_total", "process_resident_memory_bytes"} {
		if m[family] == nil {
			t.Errorf("no family %s", family)
		}
	}
	for _, c := range []struct {
		name   string
		labels []string
		want   float64
	}{
		{"vsr_requests_total", []string{"listener", "edge", "api", "systemone", "endpoint", "/v1/systemone", "status", "200", "code", ""}, 1},
		{"vsr_requests_total", []string{"listener", "edge", "api", "systemone", "endpoint", "/v1/systemone", "status", "400", "code", "invalid_request"}, 1},
		{"vsr_requests_total", []string{"listener", "edge", "api", "chat_completions", "endpoint", "/v1/chat/completions", "status", "200"}, 1},
		{"vsr_request_duration_seconds", []string{"listener", "edge", "endpoint", "/v1/chat/completions"}, 1},
		{"vsr_upstream_calls_total", []string{"api", "chat_completions", "upstream", "openai-main", "outcome", "200"}, 1},
		{"vsr_upstream_calls_total", []string{"api", "systemone", "upstream", "local-vela", "outcome", "200"}, 2},
		{"vsr_upstream_call_duration_seconds", []string{"api", "systemone", "upstream", "local-vela"}, 2},
		{"vsr_systemone_listener_diagnostics_total", []string{"listener", "edge", "kind", "translate", "form", "systemone"}, 1},
		{"vsr_ready", nil, 1},
		{"vsr_build_info", []string{"server", "vllm-sr"}, 1},
	} {
		if got, _ := m.Value(c.name, c.labels...); got != c.want {
			t.Errorf("%s%v = %v, want %v", c.name, c.labels, got, c.want)
		}
	}
	if n, _ := m.Value("vsr_rule_outcomes_total", "rule", "relevant"); n != 1 {
		t.Errorf("rule outcomes of relevant: %v, want 1", n)
	}
	runtime := testkit.ScrapeMetrics(t, p.runtime.URL()+"/metrics")
	if a, b := labelNames(m, "vsr_systemone_listener_diagnostics_total"), labelNames(runtime, "vsr_systemone_listener_diagnostics_total"); !slices.Equal(a, b) || len(a) != 3 {
		t.Errorf("diagnostics labels differ: Router %v, runtime %v", a, b)
	}
	// The Router sends a vllm-sr/5.0 deployment one batch call per
	// request, the rule's included.
	if n, _ := runtime.Value("vsr_systemone_listener_diagnostics_total", "kind", "translate", "form", "batch"); n != 2 {
		t.Errorf("the runtime counted %v translated batches, want 2", n)
	}
}

func labelNames(m testkit.Scrape, family string) []string {
	var names []string
	if f := m[family]; f != nil && len(f.GetMetric()) > 0 {
		for _, l := range f.GetMetric()[0].GetLabel() {
			names = append(names, l.GetName())
		}
	}
	return names
}

// waitReady polls GET /ready until 200, for at most 10 s.
func waitReady(t *testing.T, url string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if status, _ := get(t, url); status == http.StatusOK {
			return
		}
		if time.Now().After(deadline) {
			_, body := get(t, url)
			t.Fatalf("not ready within 10s: %s", body)
		}
	}
}

// A client's x-request-id goes end to end: the Router answers with it in
// both id headers, sends it, followed by '.' and the call's number, to
// the deployment (whose log line and answer carry it) and to the LLM
// upstream (whose own id the Router replaces), and logs it on the
// request's line. A malformed one is replaced.
func TestRequestIDEndToEnd(t *testing.T) {
	p := newProd(t, router.Options{})
	resp := postWith(t, p.url("/v1/systemone"), velaRequest, "X-Request-Id", "trace-7f3a")
	if resp.StatusCode != 200 || resp.Header.Get("X-Request-Id") != "trace-7f3a" || resp.Header.Get("X-Typesafe-Request-Id") != "trace-7f3a" {
		t.Fatalf("System One: %d %v", resp.StatusCode, resp.Header)
	}
	if !regexp.MustCompile(`"request_id":"trace-7f3a\.[0-9]+"`).MatchString(p.runtimeLog.String()) {
		t.Errorf("the deployment did not get the id:\n%s", p.runtimeLog)
	}
	resp = postWith(t, p.url("/v1/chat/completions"), `{"model":"gpt-4o","messages":[]}`, "X-Request-Id", "trace-llm")
	if got := resp.Header.Values("X-Request-Id"); resp.StatusCode != 200 || len(got) != 1 || got[0] != "trace-llm" ||
		resp.Header.Get("X-Typesafe-Request-Id") != "trace-llm" {
		t.Fatalf("LLM: %d %v", resp.StatusCode, resp.Header)
	}
	if h := <-p.llmHeaders; !regexp.MustCompile(`^trace-llm\.[0-9]+$`).MatchString(h.Get("X-Request-Id")) {
		t.Errorf("the LLM upstream got %v", h)
	}
	resp = postWith(t, p.url("/v1/systemone"), `{"model":`, "X-Request-Id", "caf\u00e9")
	if id := resp.Header.Get("X-Request-Id"); resp.StatusCode != 400 || !strings.HasPrefix(id, "req_") || resp.Header.Get("X-Typesafe-Request-Id") != id {
		t.Errorf("a malformed id: %d %q", resp.StatusCode, id)
	}
	p.logs.Lines(t) // each line one JSON object, no key repeated
	p.runtimeLog.Lines(t)
	logs := p.logs.String()
	for _, want := range []string{`"request_id":"trace-7f3a"`, `"request_id":"trace-llm"`, `"level":"WARN","msg":"request"`} {
		if !strings.Contains(logs, want) {
			t.Errorf("the Router's logs lack %s:\n%s", want, logs)
		}
	}
}

func postWith(t *testing.T, url, body string, header ...string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp
}
