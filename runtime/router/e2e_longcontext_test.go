package router_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/srun"
	"github.com/vllm-sr/systemone/runtime/table"
	"github.com/vllm-sr/systemone/runtime/testkit"
)

// upstreamCall is one call an upstream received: its path, headers and
// body.
type upstreamCall struct {
	path   string
	header http.Header
	body   []byte
}

// callLog records the calls an upstream received.
type callLog struct {
	mu    sync.Mutex
	calls []upstreamCall
}

// record records a POST (a System One call; not the Router's listing and
// health checks) and returns its body.
func (l *callLog) record(r *http.Request) []byte {
	body, _ := io.ReadAll(r.Body)
	if r.Method != http.MethodPost {
		return body
	}
	l.mu.Lock()
	l.calls = append(l.calls, upstreamCall{path: r.URL.Path, header: r.Header.Clone(), body: body})
	l.mu.Unlock()
	return body
}

// since are the calls received after the first n.
func (l *callLog) since(n int) []upstreamCall {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]upstreamCall(nil), l.calls[n:]...)
}

func (l *callLog) len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.calls)
}

// recordingTap forwards every call to a real upstream (a vllm-srun) and
// records it, headers included.
func recordingTap(t *testing.T, upstream string) (*httptest.Server, *callLog) {
	log := &callLog{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body := log.record(r)
		req, _ := http.NewRequestWithContext(r.Context(), r.Method, upstream+r.URL.Path, bytes.NewReader(body))
		req.Header = r.Header.Clone()
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			w.WriteHeader(http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		out, _ := io.ReadAll(resp.Body)
		for k, v := range resp.Header {
			w.Header()[k] = v
		}
		w.WriteHeader(resp.StatusCode)
		_, _ = w.Write(out)
	}))
	t.Cleanup(srv.Close)
	return srv, log
}

// recordingStandard is a systemone/0.2 upstream that records each call and
// answers each question a noul.
func recordingStandard(t *testing.T) (*httptest.Server, *callLog) {
	log := &callLog{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body := log.record(r)
		var req struct{ Questions map[string]any }
		if r.URL.Path != vocab.PathSystemone || json.Unmarshal(body, &req) != nil {
			http.Error(w, `{"detail":"no"}`, http.StatusNotFound)
			return
		}
		answers := map[string]any{}
		for q := range req.Questions {
			answers[q] = map[string]any{"type": "noul", "noul": 0.5}
		}
		out, _ := json.Marshal(map[string]any{"model": "d3", "answers": answers, "usage": map[string]int{"input_tokens": 1, "output_tokens": 0}})
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(out)
	}))
	t.Cleanup(srv.Close)
	return srv, log
}

// longEnv is a Router with a vllm-sr/5.0 and a vllm-sr/4.0 listener in
// front of vllm-sr/decision3 (a vllm-srun behind a recording tap) and a
// systemone/0.2 gateway, beside two runtimes of decision3 called directly
// (one vllm-sr/5.0, one vllm-sr/4.0) to compare answers with.
type longEnv struct {
	router            func(listener, path string) string
	direct5, direct40 string
	tap, gateway      *callLog
}

const longEnvConfig = `listeners:
  - name: public5
    address: 127.0.0.1:{{P5}}
    apis:
      systemone: {schema: vllm-sr/5.0}
  - name: legacy4
    address: 127.0.0.1:{{P4}}
    apis:
      systemone: {schema: vllm-sr/4.0, max_deadline_ms: 20000}
deployments:
  vllm-sr/decision3:
    provider: systemone
    endpoint: {{TAP}}/v1/systemone
    model: vllm-sr/decision3
    schema: vllm-sr/5.0
  gateway:
    provider: systemone
    endpoint: {{GW}}/v1/systemone
    model: d3
    schema: systemone/0.2
`

func newLongEnv(t *testing.T) *longEnv {
	const model = "vllm-sr/decision3"
	behind := startRuntimeWith(t, srun.Config{Model: model, Logger: quiet()})
	tap, tapLog := recordingTap(t, behind.URL())
	gw, gwLog := recordingStandard(t)
	run := startRouter(t, writeConfig(t, longEnvConfig, map[string]string{
		"P5": freePort(t), "P4": freePort(t), "TAP": tap.URL, "GW": gw.URL,
	}))
	return &longEnv{
		router:   func(listener, path string) string { return run.URL(listener) + path },
		direct5:  startRuntimeWith(t, srun.Config{Model: model, Logger: quiet()}).URL(),
		direct40: startRuntimeWith(t, srun.Config{Model: model, Schema: table.SchemaVllmSR40, Logger: quiet()}).URL(),
		tap:      tapLog, gateway: gwLog,
	}
}

// longRequest is a request of a 40,000-token state (decision3 reads
// 32,768 tokens, 262,144 with the long-context header) and two
// questions, for model.
func longRequest(model string) string {
	return `{"model":"` + model + `","state":"` + strings.TrimSpace(strings.Repeat("lorem ", 40000)) + `",` +
		`"questions":{"a":{"type":"noul","instructions":"Is it?"},"b":{"type":"noul","instructions":"Is it not?"}}}`
}

var longHeader = http.Header{http.CanonicalHeaderKey(vocab.HeaderLongContext): {"true"}}

// TestLongContextHeaderCarried: a 40,000-token request with the standard's
// long-context header is answered through the Router on every endpoint of
// both listeners, and every upstream call carries the header: to the
// vllm-sr/5.0 deployment (a vllm-srun, which answers it) on /v1/decisions
// (from /v1/decisions, and from the 4.0 listener's /v1/systemone) or on
// the batch endpoint, and to the systemone/0.2 gateway. A /v1/decisions
// request whose body says so itself (4.0's options.long_context) goes as
// the client's own bytes, the header added.
func TestLongContextHeaderCarried(t *testing.T) {
	e := newLongEnv(t)
	for _, c := range []struct {
		listener, path, deployment, upstreamPath string
	}{
		{"public5", vocab.PathDecisions, "vllm-sr/decision3", vocab.PathDecisions},
		{"legacy4", vocab.PathDecisions, "vllm-sr/decision3", vocab.PathDecisions},
		{"legacy4", vocab.PathSystemone, "vllm-sr/decision3", vocab.PathDecisions},
		{"public5", vocab.PathSystemone, "vllm-sr/decision3", vocab.PathSystemoneBatch},
		{"public5", vocab.PathDecisions, "gateway", vocab.PathSystemone},
		{"legacy4", vocab.PathDecisions, "gateway", vocab.PathSystemone},
		{"legacy4", vocab.PathSystemone, "gateway", vocab.PathSystemone},
	} {
		t.Run(c.listener+c.path+" to "+c.deployment, func(t *testing.T) {
			log := e.tap
			if c.deployment == "gateway" {
				log = e.gateway
			}
			before := log.len()
			status, out := send(t, e.router(c.listener, c.path), longRequest(c.deployment), longHeader)
			if status != http.StatusOK || !bytes.Contains(out, []byte(`"a":{"type":"noul","noul":`)) ||
				!bytes.Contains(out, []byte(`"b":{"type":"noul","noul":`)) {
				t.Fatalf("%d %.300s", status, out)
			}
			calls := log.since(before)
			if len(calls) != 1 || calls[0].path != c.upstreamPath || calls[0].header.Get(vocab.HeaderLongContext) != "true" {
				for _, call := range calls {
					t.Errorf("upstream got %s with %v", call.path, call.header)
				}
				t.Fatalf("want one call to %s with the long-context header", c.upstreamPath)
			}
		})
	}
	t.Run("the body's own flag, passed through", func(t *testing.T) {
		body := strings.Replace(longRequest("vllm-sr/decision3"), `"questions"`, `"options":{"long_context":true},"questions"`, 1)
		before := e.tap.len()
		status, out := send(t, e.router("legacy4", vocab.PathDecisions), body, nil)
		calls := e.tap.since(before)
		if status != http.StatusOK || len(calls) != 1 || string(calls[0].body) != body || calls[0].header.Get(vocab.HeaderLongContext) != "true" {
			t.Fatalf("%d %.200s; %d calls", status, out, len(calls))
		}
	})
}

// TestUpstreamRefusalAnsweredAsTheRuntime: the same 40,000-token request
// without the header is refused through the Router as the runtime itself
// refuses it: on /v1/decisions 400 no_valid_question listing each
// question's max_length_exceeded, reason and limit 32768, byte for byte
// the 5.0 runtime's answer on the 5.0 listener (and the same detail on the
// 4.0 listener); on the 4.0 listener's /v1/systemone, sent as the
// client's bytes to the runtime's /v1/decisions, byte for byte the 4.0
// runtime's own 400 question_failed.
func TestUpstreamRefusalAnsweredAsTheRuntime(t *testing.T) {
	e := newLongEnv(t)
	body := longRequest("vllm-sr/decision3")
	wantStatus, want := send(t, e.direct5+vocab.PathDecisions, body, nil)
	status, got := send(t, e.router("public5", vocab.PathDecisions), body, nil)
	if status != wantStatus || !bytes.Equal(got, want) {
		t.Errorf("through the Router: %d %s\nfrom the runtime:   %d %s", status, got, wantStatus, want)
	}
	var refusal struct {
		Reason string
		Detail []struct {
			Loc  []string
			Type string
			Ctx  struct {
				Reason string
				Limit  int64
			}
		}
	}
	if err := json.Unmarshal(got, &refusal); err != nil || refusal.Reason != vocab.ReasonNoValidQuestion || len(refusal.Detail) != 2 {
		t.Fatalf("%v %s", err, got)
	}
	for i, q := range []string{"a", "b"} {
		d := refusal.Detail[i]
		if fmt.Sprint(d.Loc) != "[body questions "+q+"]" || d.Type != "max_length_exceeded" || d.Ctx.Reason != vocab.ReasonInputTooLong || d.Ctx.Limit != 32768 {
			t.Errorf("question %s: %+v", q, d)
		}
	}
	if bytes.Contains(got, []byte("upstream")) {
		t.Errorf("the answer speaks of an upstream failure: %s", got)
	}

	status, legacy := send(t, e.router("legacy4", vocab.PathDecisions), body, nil)
	var l struct{ Detail any }
	if err := json.Unmarshal(legacy, &l); err != nil || status != wantStatus || fmt.Sprint(l.Detail) != fmt.Sprint(decodeJSON(t, want)["detail"]) {
		t.Errorf("through the 4.0 listener: %d %s", status, legacy)
	}

	before := e.tap.len()
	wantStatus, want = send(t, e.direct40+vocab.PathSystemone, body, nil)
	status, got = send(t, e.router("legacy4", vocab.PathSystemone), body, nil)
	if status != wantStatus || status != http.StatusBadRequest || !bytes.Equal(got, want) {
		t.Errorf("4.0 /v1/systemone through the Router: %d %s\nfrom the 4.0 runtime:            %d %s", status, got, wantStatus, want)
	}
	if calls := e.tap.since(before); len(calls) != 1 || calls[0].path != vocab.PathDecisions || string(calls[0].body) != body {
		t.Errorf("the runtime got %d calls, want the client's bytes on /v1/decisions", len(calls))
	}
}

// TestV40RequestPassedThrough: a vllm-sr/4.0 request on a 4.0 listener
// reaches a vllm-sr/5.0 deployment as the client's own bytes on the
// runtime's /v1/decisions (which reads the internal form: 4.0's choices
// and levels, implicit roles, 4.0's spacing and order) and is
// answered as a 4.0 runtime answers it; vsr_systemone_listener_diagnostics
// counts it pass_through. A request the Router must rewrite (a deadline
// above the listener's max_deadline_ms, a systemone/0.2 deployment) is
// counted translate.
func TestV40RequestPassedThrough(t *testing.T) {
	e := newLongEnv(t)
	passed := []string{
		`{"model": "vllm-sr/decision3", "state": {"request": "my laptop is broken", "history": "hello"},
		  "questions": {"team": {"type": "choice", "instructions": "Which team?", "choices": {"it": "IT", "hr": "HR"}}}}`,
		`{"questions":{"s":{"type":"score","instructions":"How urgent?","levels":["low","high"]}},` +
			`"state":{"request":"the server is down","context":"prod"},"model":"vllm-sr/decision3"}`,
	}
	for _, body := range passed {
		before := e.tap.len()
		wantStatus, want := send(t, e.direct40+vocab.PathSystemone, body, nil)
		status, got := send(t, e.router("legacy4", vocab.PathSystemone), body, nil)
		if status != http.StatusOK || status != wantStatus || !bytes.Equal(got, want) {
			t.Errorf("through the Router: %d %s\nfrom the 4.0 runtime: %d %s", status, got, wantStatus, want)
		}
		calls := e.tap.since(before)
		if len(calls) != 1 || calls[0].path != vocab.PathDecisions || string(calls[0].body) != body {
			for _, c := range calls {
				t.Errorf("the runtime got %s %s", c.path, c.body)
			}
			t.Errorf("want the client's bytes on /v1/decisions: %s", body)
		}
	}
	rewritten := []string{
		`{"model":"vllm-sr/decision3","state":"x","questions":{"q":{"type":"noul","instructions":"Is it?"}},"options":{"deadline_ms":60000}}`,
		`{"model":"gateway","state":"x","questions":{"q":{"type":"noul","instructions":"Is it?"}}}`,
	}
	for _, body := range rewritten {
		before := e.tap.len() + e.gateway.len()
		if status, got := send(t, e.router("legacy4", vocab.PathSystemone), body, nil); status != http.StatusOK {
			t.Fatalf("%d %s", status, got)
		}
		if e.tap.len()+e.gateway.len() != before+1 {
			t.Fatalf("want one upstream call for %s", body)
		}
	}
	if calls := e.tap.since(0); string(calls[len(calls)-1].body) == rewritten[0] || !bytes.Contains(calls[len(calls)-1].body, []byte(`"deadline_ms":20000`)) {
		t.Errorf("the capped request went as the client's bytes: %s", calls[len(calls)-1].body)
	}
	m := testkit.ScrapeMetrics(t, e.router("legacy4", "/metrics"))
	for kind, want := range map[string]float64{"pass_through": 2, "translate": 2} {
		if got, _ := m.Value("vsr_systemone_listener_diagnostics_total", "listener", "legacy4", "kind", kind, "form", "systemone"); got != want {
			t.Errorf("vsr_systemone_listener_diagnostics_total{listener=legacy4,kind=%s,form=systemone} = %v, want %v", kind, got, want)
		}
	}
}
