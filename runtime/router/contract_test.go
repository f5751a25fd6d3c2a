package router_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vllm-sr/systemone/runtime/router"
	"github.com/vllm-sr/systemone/runtime/routerconfig"
	"github.com/vllm-sr/systemone/runtime/testkit"
)

// contractConfig: one vllm-sr/5.0 deployment and one systemone/0.2
// deployment of the same runtime, both behind a proxy whose GET /health
// reports the api_version the test sets, and a rule on the 5.0 one.
const contractConfig = `
listeners:
  - name: edge
    address: 127.0.0.1:{{PORT}}
    apis:
      systemone: {schema: vllm-sr/5.0}
deployments:
  old-runtime:
    provider: systemone
    endpoint: {{PROXY}}/v1/systemone
    model: vllm-sr/vela3-fast
    schema: vllm-sr/5.0
  standard:
    provider: systemone
    endpoint: {{PROXY}}/v1/systemone
    model: vllm-sr/vela3-fast
    schema: systemone/0.2
pools:
  auto: [old-runtime, standard]
rules:
  urgent:
    deployment: old-runtime
    input: [request]
    timeout_ms: 2000
    questions:
      urgent: {type: noul, instructions: "Is it urgent?"}
`

// contractProxy forwards to a real runtime, reports api_version in GET
// /health as contract says (a reported value: a string, or another JSON
// value that breaks the 5.0 health schema), and counts the System One
// calls it forwards.
type contractProxy struct {
	srv      *httptest.Server
	contract atomic.Value // reported
	calls    atomic.Int64
}

// reported is the api_version a contractProxy writes.
type reported struct{ v any }

func newContractProxy(t *testing.T, runtime, contract string) *contractProxy {
	p := &contractProxy{}
	p.contract.Store(reported{contract})
	p.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if r.Method == http.MethodPost {
			p.calls.Add(1)
		}
		req, _ := http.NewRequestWithContext(r.Context(), r.Method, runtime+r.URL.Path, bytes.NewReader(body))
		req.Header = r.Header.Clone()
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			w.WriteHeader(http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		out, _ := io.ReadAll(resp.Body)
		if r.URL.Path == "/health" {
			var h map[string]any
			_ = json.Unmarshal(out, &h)
			h["api_version"] = p.contract.Load().(reported).v
			out, _ = json.Marshal(h)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(resp.StatusCode)
		_, _ = w.Write(out)
	}))
	t.Cleanup(p.srv.Close)
	return p
}

const contractRequest = `{"model":"%s","state":"the build is red","questions":{"urgent":{"type":"noul","instructions":"Is it urgent?"}}}`

// TestRuntimeContract: the Router reads api_version of its vllm-sr/5.0
// deployment at start and in every readiness round. A runtime reporting
// 4.0.0 makes that deployment not ready (outcome runtime_contract_mismatch
// in /ready) and its requests 503 unavailable runtime_contract_mismatch
// with no upstream call, and its rules' answers unknown; the systemone/0.2
// deployment of the same runtime has no contract to check and answers. A
// warning is logged once per change, not per round; a runtime reporting
// 5.0.x is the Router's contract again. --strict refuses to start, naming
// the deployment and both versions.
func TestRuntimeContract(t *testing.T) {
	rt := startRuntime(t, "vllm-sr/vela3-fast")
	proxy := newContractProxy(t, rt.URL(), "4.0.0")
	path := writeConfig(t, contractConfig, map[string]string{"PORT": freePort(t), "PROXY": proxy.srv.URL})
	cfg, err := router.LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}

	_, err = router.Start(context.Background(), cfg, router.Options{Logger: quiet(), StrictUpstreams: true})
	if err == nil || !strings.Contains(err.Error(), `deployment "old-runtime"`) || !strings.Contains(err.Error(), "reports contract 4.0.0") ||
		!strings.Contains(err.Error(), "this Router speaks 5.0.x (5.0.0)") || strings.Contains(err.Error(), `"standard"`) {
		t.Fatalf("--strict start: %v", err)
	}

	run, logs := startRouterLogged(t, cfg, router.Options{CheckInterval: 40 * time.Millisecond})
	base := run.URL("edge")

	before := proxy.calls.Load()
	status, out := post(t, base+"/v1/systemone", strings.Replace(contractRequest, "%s", "old-runtime", 1))
	got := decodeJSON(t, out)
	if status != 503 || got["code"] != "unavailable" || got["reason"] != "runtime_contract_mismatch" ||
		!strings.Contains(got["detail"].(string), `deployment "old-runtime" is not ready`) || strings.Contains(string(out), "4.0.0") {
		t.Errorf("old-runtime: %d %s", status, out)
	}
	if n := proxy.calls.Load() - before; n != 0 {
		t.Errorf("%d calls went to the refused deployment", n)
	}
	if status, out := post(t, base+"/v1/systemone", strings.Replace(contractRequest, "%s", "standard", 1)); status != 200 {
		t.Errorf("the systemone/0.2 deployment: %d %s", status, out)
	}
	status, out = post(t, base+"/v1/systemone", strings.Replace(contractRequest, "%s", "auto", 1))
	if routing, _ := decodeJSON(t, out)["routing"].(map[string]any); status != 200 || routing["deployment"] != "standard" {
		t.Errorf("the pool goes past the refused member: %d %s", status, out)
	}
	results, err := run.Router().Decide(context.Background(), []string{"urgent"}, map[string]string{"request": "the build is red"})
	if err != nil || len(results) != 1 || len(results[0].Unknown) != 1 || results[0].Response.Answers[0].Reason != "runtime_contract_mismatch" {
		t.Errorf("the rule on old-runtime: %+v %v", results, err)
	}

	ready := waitReadyBody(t, base, func(r readyBody) bool { // both checked: each is written as its own check ends
		return r.Deployments["standard"].Status == "up" && r.Deployments["old-runtime"].Status != "unchecked"
	})
	old := ready.Deployments["old-runtime"]
	// old-runtime is not required: the Router stays ready (TestReadiness).
	if ready.Status != "ready" || old.Status != "down" || old.Outcome != "runtime_contract_mismatch" || old.APIVersion != "4.0.0" {
		t.Errorf("/ready: %+v", ready)
	}
	time.Sleep(200 * time.Millisecond) // several readiness rounds
	if n := strings.Count(logs.String(), "reports contract 4.0.0"); n != 1 {
		t.Errorf("the mismatch was logged %d times, want once:\n%s", n, logs)
	}

	proxy.contract.Store(reported{"5.0.3"}) // a patch release keeps the contract
	waitReadyBody(t, base, func(r readyBody) bool { return r.Deployments["old-runtime"].Status == "up" })
	if status, out := post(t, base+"/v1/systemone", strings.Replace(contractRequest, "%s", "old-runtime", 1)); status != 200 {
		t.Errorf("old-runtime on 5.0.3: %d %s", status, out)
	}
	proxy.contract.Store(reported{"6.0.0"})
	waitReadyBody(t, base, func(r readyBody) bool { return r.Deployments["old-runtime"].Outcome == "runtime_contract_mismatch" })
	time.Sleep(200 * time.Millisecond)
	text := logs.String()
	if strings.Count(text, "reports contract 4.0.0") != 1 || strings.Count(text, "reports contract 6.0.0") != 1 ||
		strings.Count(text, "reports this Router's contract again") != 1 {
		t.Errorf("want one line per change:\n%s", text)
	}

	// A health body its schema does not define (api_version a number, read
	// through the generated validator and the binding) is no contract of
	// this release: refused as another contract, the path and problem
	// standing for what was reported.
	proxy.contract.Store(reported{5})
	broken := waitReadyBody(t, base, func(r readyBody) bool {
		return r.Deployments["old-runtime"].APIVersion != "6.0.0" && r.Deployments["old-runtime"].Outcome == "runtime_contract_mismatch"
	})
	if got, want := broken.Deployments["old-runtime"].APIVersion, "(a health reply its schema does not define: api_version wrong_type)"; got != want {
		t.Errorf("/ready api_version of a broken health: %q, want %q", got, want)
	}
	if status, out := post(t, base+"/v1/systemone", strings.Replace(contractRequest, "%s", "old-runtime", 1)); status != 503 ||
		decodeJSON(t, out)["reason"] != "runtime_contract_mismatch" {
		t.Errorf("old-runtime with a broken health: %d %s", status, out)
	}
	proxy.contract.Store(reported{"5.0.0"})
	waitReadyBody(t, base, func(r readyBody) bool { return r.Deployments["old-runtime"].Status == "up" })
}

// readyBody is GET /ready's body.
type readyBody struct {
	Status      string
	Deployments map[string]struct {
		Status     string
		Outcome    string
		APIVersion string `json:"api_version"`
		Required   bool
		Circuit    string
	}
}

// waitReadyBody polls GET /ready until done holds, at most 10 s.
func waitReadyBody(t *testing.T, base string, done func(readyBody) bool) readyBody {
	t.Helper()
	var r readyBody
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		_, out := get(t, base+"/ready")
		r = readyBody{}
		if json.Unmarshal(out, &r) == nil && done(r) {
			return r
		}
	}
	t.Fatalf("/ready never got there: %+v", r)
	return r
}

// startRouterLogged starts the Router on cfg with opts, its logs (JSON,
// from info) kept in the buffer it returns, and stops it when the test
// ends.
func startRouterLogged(t *testing.T, cfg *routerconfig.Config, opts router.Options) (*router.Running, *testkit.LogBuffer) {
	t.Helper()
	logs := &testkit.LogBuffer{}
	opts.Logger = slog.New(slog.NewJSONHandler(logs, nil))
	ctx, cancel := context.WithCancel(context.Background())
	run, err := router.Start(ctx, cfg, opts)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); _ = run.Wait() })
	return run, logs
}
