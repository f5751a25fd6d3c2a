package router_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/vllm-sr/systemone/runtime/router"
)

func testAPIKeys(t *testing.T, e *rulesEnv) {
	for _, c := range []struct {
		name   string
		header map[string]string
		status int
		code   string
	}{
		{"no key", nil, 401, "invalid_api_key"},
		{"another scheme", map[string]string{"Authorization": "Basic " + testClientKey}, 401, "invalid_api_key"},
		{"a wrong key", map[string]string{"Authorization": "Bearer sk-wrong"}, 401, "invalid_api_key"},
		{"a key it takes", map[string]string{"Authorization": "Bearer " + testClientKey}, 200, ""},
		{"the other key, scheme in lower case", map[string]string{"Authorization": "bearer sk-other"}, 200, ""},
	} {
		got := e.chat(t, "keyed", "gpt-4o", c.header)
		var openai struct {
			Error struct{ Code, Message string }
		}
		_ = json.Unmarshal(got.body, &openai)
		if got.status != c.status || openai.Error.Code != c.code {
			t.Errorf("%s: %d %s", c.name, got.status, got.body)
		}
		if strings.Contains(string(got.body), testClientKey) || strings.Contains(string(got.body), "sk-wrong") {
			t.Errorf("%s: the answer repeats a key: %s", c.name, got.body)
		}
	}
	// A System One path answers in System One's error shape.
	got := e.send(t, "keyed", "/v1/systemone", `{"model":"vela","state":"x","questions":{"q":{"type":"noul","instructions":"Is all well?"}}}`, nil)
	var so struct{ Detail, Code, Reason string }
	if err := json.Unmarshal(got.body, &so); err != nil || got.status != 401 || so.Code != "unauthorized" || so.Reason != "missing_api_key" ||
		got.header.Get("WWW-Authenticate") != "Bearer" {
		t.Fatalf("System One without a key: %d %s", got.status, got.body)
	}
	got = e.send(t, "keyed", "/v1/systemone", `{}`, map[string]string{"Authorization": "Bearer nope"})
	if err := json.Unmarshal(got.body, &so); err != nil || got.status != 401 || so.Reason != "invalid_api_key" {
		t.Fatalf("System One with a wrong key: %d %s", got.status, got.body)
	}
}

func testCredentialsUpstream(t *testing.T, e *rulesEnv) {
	// The main upstream has its own key, which replaces the client's.
	got := e.chat(t, "keyed", "gpt-4o", map[string]string{"Authorization": "Bearer " + testClientKey})
	if got.status != 200 {
		t.Fatalf("%d %s", got.status, got.body)
	}
	if auth := e.main.last(t).header.Get("Authorization"); auth != "Bearer "+testMainKey {
		t.Errorf("the LLM upstream got Authorization %q, want its own key", auth)
	}
	// The cheap upstream has none: the client's key for the Router must
	// not go there either.
	got = e.chat(t, "keyed", "gpt-4o-mini", map[string]string{"Authorization": "Bearer " + testClientKey})
	if got.status != 200 {
		t.Fatalf("%d %s", got.status, got.body)
	}
	if auth := e.cheap.last(t).header.Get("Authorization"); auth != "" {
		t.Errorf("an upstream without a key got Authorization %q", auth)
	}
	// Every call to the deployment, listings included, carries its key.
	calls := e.tap.calls()
	if len(calls) == 0 {
		t.Fatal("the deployment got no call")
	}
	sawDecision := false
	for _, c := range calls {
		if !strings.HasSuffix(c, " Bearer "+testDeploymentKey) {
			t.Errorf("a deployment call without its key: %q", strings.ReplaceAll(c, testDeploymentKey, "KEY"))
		}
		sawDecision = sawDecision || strings.HasPrefix(c, "POST ")
	}
	if !sawDecision {
		t.Errorf("no rule call reached the deployment: %v", calls)
	}
}

func testAdminAddress(t *testing.T, e *rulesEnv) {
	cfg := e.run.Router().Config()
	admin := "http://" + cfg.AdminAddress
	for _, path := range []string{"/health", "/ready", "/metrics"} {
		if status, _ := get(t, admin+path); status != 200 && !(path == "/ready" && status == 503) {
			t.Errorf("admin %s: %d", path, status)
		}
		if status, _ := get(t, e.run.URL("plain")+path); status != 404 {
			t.Errorf("listener plain serves %s beside an admin address: %d", path, status)
		}
	}
	if got := e.send(t, "keyed", "/v1/chat/completions", `{}`, nil); got.status != 401 {
		t.Errorf("a keyed listener's API without a key: %d", got.status)
	}
	status, out := post(t, admin+"/v1/chat/completions", `{"model":"gpt-4o","messages":[]}`)
	if status != 404 {
		t.Errorf("the admin address serves an API: %d %s", status, out)
	}
}

func testNoKeyLogged(t *testing.T, e *rulesEnv) {
	// A failed upstream call's error and a refused key's line are logged:
	// neither may carry a key.
	logs := e.logs.String()
	if !strings.Contains(logs, `"rule"`) {
		t.Fatalf("the captured log has no rule line:\n%s", logs)
	}
	for _, key := range []string{testClientKey, testMainKey, testDeploymentKey, "sk-other", "sk-wrong"} {
		if strings.Contains(logs, key) {
			t.Errorf("a key is in the Router's log")
		}
	}
}

// TestStartWarnsOfUnlistedModel: a deployment whose upstream does not
// list its model is a warning at start naming the deployment and the
// models the upstream lists, and an error under StrictUpstreams.
func TestStartWarnsOfUnlistedModel(t *testing.T) {
	vela := startRuntime(t, "vllm-sr/vela3-fast")
	path := writeConfig(t, `listeners:
  - {name: decisions, address: "127.0.0.1:{{P}}", apis: {systemone: {}}}
deployments:
  wrong:
    provider: systemone
    endpoint: {{VELA}}/v1/systemone
    model: vllm-sr/vela3
    schema: vllm-sr/5.0
  right:
    provider: systemone
    endpoint: {{VELA}}/v1/systemone
    model: vllm-sr/vela3-fast
    schema: vllm-sr/5.0
`, map[string]string{"P": freePort(t), "VELA": vela.URL()})
	cfg, err := router.LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	run, err := router.Start(ctx, cfg, router.Options{Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	_ = run.Wait()
	want := `deployment \"wrong\" (` + vela.URL() + `/v1/systemone): the upstream does not list model \"vllm-sr/vela3\"; it lists: \"vllm-sr/vela3-fast\"`
	if !strings.Contains(logs.String(), want) || !strings.Contains(logs.String(), `"level":"WARN"`) {
		t.Fatalf("no warning naming the deployment and the listed models:\n%s", logs.String())
	}
	if strings.Contains(logs.String(), `deployment \"right\"`) {
		t.Errorf("a listed model was warned of:\n%s", logs.String())
	}
	_, err = router.Start(context.Background(), cfg, router.Options{Logger: quiet(), StrictUpstreams: true})
	if err == nil || !strings.Contains(err.Error(), `the upstream does not list model "vllm-sr/vela3"`) || strings.Contains(err.Error(), "\n") {
		t.Fatalf("strict start: %v", err)
	}
	if _, err := http.Get("http://" + cfg.Listeners[0].Address + "/health"); err == nil {
		t.Fatal("a strict start that failed is listening")
	}
}
