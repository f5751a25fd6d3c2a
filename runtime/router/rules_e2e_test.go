package router_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vllm-sr/systemone/runtime/router"
	"github.com/vllm-sr/systemone/runtime/rules"
	"github.com/vllm-sr/systemone/runtime/testkit"
)

// The keys the rules configuration reads from the environment; none may
// appear in a log line or an error.
const (
	testClientKey     = "sk-client-7d2e91"
	testMainKey       = "sk-upstream-4b8c03"
	testDeploymentKey = "sk-deployment-a5f6e2"
)

// llmRecorder is an OpenAI-compatible LLM test upstream: it answers every
// chat completion and records what it got.
type llmRecorder struct {
	srv  *httptest.Server
	mu   sync.Mutex
	reqs []recorded
}

type recorded struct {
	path   string
	header http.Header
	body   []byte
}

func newLLMRecorder(t *testing.T) *llmRecorder {
	t.Helper()
	u := &llmRecorder{}
	u.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		u.mu.Lock()
		u.reqs = append(u.reqs, recorded{path: r.URL.Path, header: r.Header.Clone(), body: body})
		u.mu.Unlock()
		var req struct{ Model string }
		_ = json.Unmarshal(body, &req)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"id":"chatcmpl-1","object":"chat.completion","model":"`+req.Model+`","choices":[]}`)
	}))
	t.Cleanup(u.srv.Close)
	return u
}

func (u *llmRecorder) count() int {
	u.mu.Lock()
	defer u.mu.Unlock()
	return len(u.reqs)
}

func (u *llmRecorder) last(t *testing.T) recorded {
	t.Helper()
	u.mu.Lock()
	defer u.mu.Unlock()
	if len(u.reqs) == 0 {
		t.Fatal("the upstream got no request")
	}
	return u.reqs[len(u.reqs)-1]
}

// headerTap is a reverse proxy in front of a runtime that records the
// Authorization header of every call.
type headerTap struct {
	srv  *httptest.Server
	mu   sync.Mutex
	auth []string
}

func newHeaderTap(t *testing.T, upstream string) *headerTap {
	t.Helper()
	target, err := url.Parse(upstream)
	if err != nil {
		t.Fatal(err)
	}
	tap := &headerTap{}
	proxy := httputil.NewSingleHostReverseProxy(target)
	tap.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tap.mu.Lock()
		tap.auth = append(tap.auth, r.Method+" "+r.URL.Path+" "+r.Header.Get("Authorization"))
		tap.mu.Unlock()
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(tap.srv.Close)
	return tap
}

func (tap *headerTap) calls() []string {
	tap.mu.Lock()
	defer tap.mu.Unlock()
	return append([]string(nil), tap.auth...)
}

// rulesEnv is a Router running testdata/rules.yaml in front of a vllm-srun
// runtime (vllm-sr/vela3-fast, behind a header tap), a deployment that is
// down, and two LLM upstreams of the test's own, its logs captured.
type rulesEnv struct {
	run         *router.Running
	main, cheap *llmRecorder
	tap         *headerTap
	logs        *testkit.LogBuffer
}

func newRulesEnv(t *testing.T) *rulesEnv {
	t.Helper()
	t.Setenv("VSR_TEST_CLIENT_KEYS", "sk-other, "+testClientKey)
	t.Setenv("VSR_TEST_MAIN_KEY", testMainKey)
	t.Setenv("VSR_TEST_DEPLOYMENT_KEY", testDeploymentKey)
	e := &rulesEnv{main: newLLMRecorder(t), cheap: newLLMRecorder(t), logs: &testkit.LogBuffer{}}
	e.tap = newHeaderTap(t, startRuntime(t, "vllm-sr/vela3-fast").URL())
	template, err := os.ReadFile("testdata/rules.yaml")
	if err != nil {
		t.Fatal(err)
	}
	values := map[string]string{"PA": freePort(t), "DOWN": freePort(t), "MAIN": e.main.srv.URL, "CHEAP": e.cheap.srv.URL, "VELA": e.tap.srv.URL}
	for _, p := range []string{"P1", "P2", "P3", "P4", "P5", "P6"} {
		values[p] = freePort(t)
	}
	cfg, err := router.LoadConfig(writeConfig(t, string(template), values))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	logger := slog.New(slog.NewJSONHandler(e.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	e.run, err = router.Start(ctx, cfg, router.Options{Logger: logger})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); _ = e.run.Wait() })
	return e
}

// chat sends a chat completion to a listener with the given headers.
func (e *rulesEnv) chat(t *testing.T, listener, model string, header map[string]string) rulesReply {
	t.Helper()
	body := `{"model":"` + model + `","messages":[{"role":"system","content":"Be brief."},` +
		`{"role":"user","content":"hello"},{"role":"assistant","content":"Hi!"},` +
		`{"role":"user","content":[{"type":"text","text":"My invoice is wrong, can you help me?"}]}]}`
	return e.send(t, listener, "/v1/chat/completions", body, header)
}

func (e *rulesEnv) send(t *testing.T, listener, path, body string, header map[string]string) rulesReply {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, e.run.URL(listener)+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return rulesReply{status: resp.StatusCode, header: resp.Header, body: out}
}

// TestRulesOnServedTraffic runs each rule outcome on a chat completion
// through a real Router, a real vllm-srun deployment and the test's own
// LLM upstreams; the subtests share them and run in order.
func TestRulesOnServedTraffic(t *testing.T) {
	e := newRulesEnv(t)
	t.Run("outcome headers go upstream, skip forwards", func(t *testing.T) { testRuleHeaders(t, e) })
	t.Run("block refuses in the API's shape", func(t *testing.T) { testRuleBlock(t, e) })
	t.Run("fail answers 503 naming the rule", func(t *testing.T) { testRuleFail(t, e) })
	t.Run("match fails closed", func(t *testing.T) { testRuleMatchUnknown(t, e) })
	t.Run("first fired route rule wins", func(t *testing.T) { testRuleRoute(t, e) })
	t.Run("API keys", func(t *testing.T) { testAPIKeys(t, e) })
	t.Run("credentials go upstream", func(t *testing.T) { testCredentialsUpstream(t, e) })
	t.Run("admin address", func(t *testing.T) { testAdminAddress(t, e) })
	t.Run("no key in any log line", func(t *testing.T) { testNoKeyLogged(t, e) })
}

func testRuleHeaders(t *testing.T, e *rulesEnv) {
	before := e.main.count()
	got := e.chat(t, "plain", "gpt-4o", map[string]string{"X-Vsr-Rule-Never": "matched", "x-vsr-rule-forged": "matched"})
	if got.status != 200 || e.main.count() != before+1 {
		t.Fatalf("%d %s (upstream calls %d → %d)", got.status, got.body, before, e.main.count())
	}
	h := e.main.last(t).header
	if v := h.Values("X-Vsr-Rule-Never"); len(v) != 1 || v[0] != "not_matched" {
		t.Errorf("x-vsr-rule-never upstream: %v", v)
	}
	if v := h.Get("X-Vsr-Rule-Skipdown"); v != "unknown" {
		t.Errorf("x-vsr-rule-skipdown upstream: %q (a down deployment with on_unknown skip)", v)
	}
	if v := h.Get("X-Vsr-Rule-Forged"); v != "" {
		t.Errorf("a client's x-vsr-rule-* header went upstream: %q", v)
	}
	if !strings.Contains(e.logs.String(), `"rule":"skipdown"`) {
		t.Errorf("the rule's outcome is not logged:\n%s", e.logs.String())
	}
}

func testRuleBlock(t *testing.T, e *rulesEnv) {
	before := e.main.count() + e.cheap.count()
	got := e.chat(t, "guard", "gpt-4o", nil)
	var openai struct {
		Error struct{ Message, Type, Code string }
	}
	if err := json.Unmarshal(got.body, &openai); err != nil || got.status != 403 ||
		openai.Error.Code != "blocked_by_rule" || !strings.Contains(openai.Error.Message, `rule "always"`) {
		t.Fatalf("%d %s", got.status, got.body)
	}
	messages := `{"model":"claude-sonnet","max_tokens":16,"messages":[{"role":"user","content":"hello"}]}`
	got = e.send(t, "guard", "/v1/messages", messages, nil)
	var anthropic struct {
		Type  string
		Error struct{ Type, Message string }
	}
	if err := json.Unmarshal(got.body, &anthropic); err != nil || got.status != 403 || anthropic.Type != "error" ||
		anthropic.Error.Type != "permission_error" || !strings.Contains(anthropic.Error.Message, `rule "always"`) {
		t.Fatalf("messages API: %d %s", got.status, got.body)
	}
	if n := e.main.count() + e.cheap.count(); n != before {
		t.Fatalf("a blocked request reached an upstream (%d calls)", n-before)
	}
}

func testRuleFail(t *testing.T, e *rulesEnv) {
	before := e.main.count()
	got := e.chat(t, "failing", "gpt-4o", nil)
	if got.status != 503 || !strings.Contains(string(got.body), `rule \"faildown\"`) || e.main.count() != before {
		t.Fatalf("%d %s (upstream calls %d)", got.status, got.body, e.main.count()-before)
	}
}

func testRuleMatchUnknown(t *testing.T, e *rulesEnv) {
	before := e.main.count()
	got := e.chat(t, "closed", "gpt-4o", nil)
	if got.status != 403 || !strings.Contains(string(got.body), `rule \"matchdown\"`) || e.main.count() != before {
		t.Fatalf("%d %s (upstream calls %d)", got.status, got.body, e.main.count()-before)
	}
}

func testRuleRoute(t *testing.T, e *rulesEnv) {
	main, cheap := e.main.count(), e.cheap.count()
	got := e.chat(t, "routing", "gpt-4o", nil)
	if got.status != 200 || e.cheap.count() != cheap+1 || e.main.count() != main {
		t.Fatalf("%d %s (main %d, cheap %d calls)", got.status, got.body, e.main.count()-main, e.cheap.count()-cheap)
	}
	sent := e.cheap.last(t)
	var body struct {
		Model    string
		Messages []any
	}
	if err := json.Unmarshal(sent.body, &body); err != nil || body.Model != "gpt-4o-mini" || len(body.Messages) != 4 {
		t.Fatalf("the routed body: %s", sent.body)
	}
	for rule, want := range map[string]string{"never-route": "not_matched", "route-cheap": "matched", "route-main": "matched"} {
		if v := sent.header.Get("X-Vsr-Rule-" + rule); v != want {
			t.Errorf("x-vsr-rule-%s: %q, want %q", rule, v, want)
		}
	}
}

// rulesReply is one answer the Router gave.
type rulesReply struct {
	status int
	header http.Header
	body   []byte
}

// TestEachRuleUnderItsOwnTimeout: two rules on one deployment, whose
// every call takes 400 ms, each get their own timeout_ms: the 100 ms one
// is unknown, the 3000 ms one answered, and neither waits for the other.
func TestEachRuleUnderItsOwnTimeout(t *testing.T) {
	rec := testkit.NewRouterRecorder(t, 400*time.Millisecond)
	path := writeConfig(t, `deployments:
  gateway:
    provider: systemone
    endpoint: {{REC}}/v1/systemone
    model: d3
rules:
  quick:
    deployment: gateway
    input: [request]
    timeout_ms: 100
    questions:
      a: {type: noul, instructions: "Is it urgent?"}
  patient:
    deployment: gateway
    input: [request]
    timeout_ms: 3000
    questions:
      b: {type: noul, instructions: "Is it urgent?"}
`, map[string]string{"REC": rec.URL()})
	cfg, err := router.LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := router.New(cfg, router.Options{Logger: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	results, err := r.Decide(context.Background(), []string{"quick", "patient"}, map[string]string{"request": "help"})
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	if results[0].Match != rules.MatchUnknown || results[1].Match == rules.MatchUnknown || results[1].Match == "" {
		t.Fatalf("quick %s, patient %s", results[0].Match, results[1].Match)
	}
	if took > 2*time.Second {
		t.Fatalf("took %v", took)
	}
}
