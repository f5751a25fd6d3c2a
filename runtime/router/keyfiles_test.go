package router_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/vllm-sr/systemone/runtime/router"
	"github.com/vllm-sr/systemone/runtime/testkit"
)

// keyFilesConfig is a Router whose listener, LLM upstream and deployment
// take their keys from key files beside the configuration.
const keyFilesConfig = `listeners:
  - name: edge
    address: 127.0.0.1:{{PORT}}
    api_keys_file: keys/clients.keys
    apis:
      systemone: {schema: vllm-sr/5.0}
      chat_completions: {}
upstreams:
  openai-main:
    api_format: openai
    endpoint: {{LLM}}/v1
    models: [gpt-4o]
    api_key_file: keys/llm.key
deployments:
  local-vela:
    provider: systemone
    endpoint: {{VELA}}/v1/systemone
    model: vllm-sr/vela3-fast
    schema: vllm-sr/5.0
    api_key_file: keys/vela.key
`

// keyGate is an upstream that takes one key, the one it wants now: any
// other call is 401. It keeps the Authorization of every call.
type keyGate struct {
	srv  *httptest.Server
	want atomic.Pointer[string]
	mu   sync.Mutex
	got  []string
}

func newKeyGate(t *testing.T, key string, next http.Handler) *keyGate {
	g := &keyGate{}
	g.want.Store(&key)
	g.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth := r.Header.Get("Authorization")
		g.mu.Lock()
		g.got = append(g.got, auth)
		g.mu.Unlock()
		if auth != "Bearer "+*g.want.Load() {
			_, _ = io.Copy(io.Discard, r.Body)
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = io.WriteString(w, `{"detail":"wrong key"}`)
			return
		}
		next.ServeHTTP(w, r)
	}))
	t.Cleanup(g.srv.Close)
	return g
}

// last is the Authorization of the last call.
func (g *keyGate) last() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.got) == 0 {
		return ""
	}
	return g.got[len(g.got)-1]
}

// keyFilesEnv is a Router started on keyFilesConfig in front of a
// vllm-srun runtime and an LLM upstream, each behind a keyGate.
type keyFilesEnv struct {
	run       *router.Running
	logs      *testkit.LogBuffer
	vela, llm *keyGate
	config    string
	keys      string // the key files' directory
}

func newKeyFilesEnv(t *testing.T) *keyFilesEnv {
	t.Helper()
	rt := startRuntime(t, "vllm-sr/vela3-fast")
	target, _ := url.Parse(rt.URL())
	e := &keyFilesEnv{}
	e.vela = newKeyGate(t, "sk-vela-old", httputil.NewSingleHostReverseProxy(target))
	e.llm = newKeyGate(t, "sk-llm-old", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"id":"chatcmpl-1","object":"chat.completion","model":"gpt-4o","choices":[]}`)
	}))
	e.config = writeConfig(t, keyFilesConfig, map[string]string{"PORT": freePort(t), "LLM": e.llm.srv.URL, "VELA": e.vela.srv.URL})
	e.keys = filepath.Join(filepath.Dir(e.config), "keys")
	if err := os.Mkdir(e.keys, 0o700); err != nil {
		t.Fatal(err)
	}
	e.write(t, "clients.keys", "# clients\nsk-client-old\n")
	e.write(t, "llm.key", "sk-llm-old\n")
	e.write(t, "vela.key", "sk-vela-old\n")
	cfg, err := router.LoadConfig(e.config)
	if err != nil {
		t.Fatal(err)
	}
	e.run, e.logs = startRouterLogged(t, cfg, router.Options{})
	return e
}

func (e *keyFilesEnv) write(t *testing.T, name, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(e.keys, name), []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// decide posts a decision with the client key and returns the status.
func (e *keyFilesEnv) decide(t *testing.T, key string) int {
	t.Helper()
	return postWith(t, e.run.URL("edge")+"/v1/systemone", velaRequest, "Authorization", "Bearer "+key).StatusCode
}

// chat posts a chat completion with the client key and returns the status.
func (e *keyFilesEnv) chat(t *testing.T, key string) int {
	t.Helper()
	return postWith(t, e.run.URL("edge")+"/v1/chat/completions", `{"model":"gpt-4o","messages":[]}`, "Authorization", "Bearer "+key).StatusCode
}

// Keys in key files rotate on a reload (SIGHUP in `vllm-sr serve`): once
// the files hold new keys and the Router reloads, the listener refuses
// the old client key and takes the new one, and the deployment's and the
// LLM upstream's calls carry their new keys. A key file that cannot be
// read, or that holds no key, refuses the reload with a problem naming the
// setting and the file, and the keys in force keep working. No key is
// ever logged.
func TestKeyFilesRotateOnReload(t *testing.T) {
	e := newKeyFilesEnv(t)
	if status := e.decide(t, "sk-client-old"); status != 200 || e.vela.last() != "Bearer sk-vela-old" {
		t.Fatalf("before the rotation: %d, the deployment got %q", status, e.vela.last())
	}
	if status := e.chat(t, "sk-client-old"); status != 200 || e.llm.last() != "Bearer sk-llm-old" {
		t.Fatalf("LLM before the rotation: %d, the upstream got %q", status, e.llm.last())
	}

	e.write(t, "clients.keys", "sk-client-new\n")
	e.write(t, "llm.key", "sk-llm-new\n")
	e.write(t, "vela.key", "sk-vela-new\n")
	newVela, newLLM := "sk-vela-new", "sk-llm-new"
	e.vela.want.Store(&newVela)
	e.llm.want.Store(&newLLM)
	if err := e.run.Reload(e.config); err != nil {
		t.Fatal(err)
	}
	if status := e.decide(t, "sk-client-old"); status != 401 {
		t.Errorf("the old client key after the rotation: %d, want 401", status)
	}
	if status := e.decide(t, "sk-client-new"); status != 200 || e.vela.last() != "Bearer sk-vela-new" {
		t.Errorf("the new client key: %d, the deployment got %q", status, e.vela.last())
	}
	if status := e.chat(t, "sk-client-new"); status != 200 || e.llm.last() != "Bearer sk-llm-new" {
		t.Errorf("LLM after the rotation: %d, the upstream got %q", status, e.llm.last())
	}

	for _, c := range []struct {
		name, want string
		spoil      func()
	}{
		{"an emptied listener key file", "listeners[0].api_keys_file: the key file " + filepath.Join(e.keys, "clients.keys") + " holds no key",
			func() { e.write(t, "clients.keys", "# rotated out\n") }},
		{"a deployment key file gone", "deployments.local-vela.api_key_file: the key file " + filepath.Join(e.keys, "vela.key") + " cannot be read: no such file or directory",
			func() {
				if err := os.Remove(filepath.Join(e.keys, "vela.key")); err != nil {
					t.Fatal(err)
				}
			}},
	} {
		c.spoil()
		err := e.run.Reload(e.config)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "sk-") {
			t.Errorf("%s: the reload got %v, want a problem with %q", c.name, err, c.want)
		}
		if status := e.decide(t, "sk-client-new"); status != 200 || e.vela.last() != "Bearer sk-vela-new" {
			t.Errorf("%s: the keys in force no longer work: %d, the deployment got %q", c.name, status, e.vela.last())
		}
		_, body := get(t, e.run.URL("edge")+"/ready")
		var ready struct {
			Configuration struct {
				Status      string
				LastRefused struct{ Problems []string } `json:"last_refused"`
			}
		}
		if json.Unmarshal(body, &ready) != nil || ready.Configuration.Status != "reload_refused" ||
			len(ready.Configuration.LastRefused.Problems) != 1 || !strings.Contains(ready.Configuration.LastRefused.Problems[0], c.want) {
			t.Errorf("%s: /ready does not show the refusal: %s", c.name, body)
		}
		e.write(t, "clients.keys", "sk-client-new\n")
		e.write(t, "vela.key", "sk-vela-new\n")
	}
	m := testkit.ScrapeMetrics(t, e.run.URL("edge")+"/metrics")
	applied, _ := m.Value("vsr_config_reloads_total", "result", "applied")
	refused, _ := m.Value("vsr_config_reloads_total", "result", "refused")
	if applied != 1 || refused != 2 {
		t.Errorf("reloads counted: %v applied, %v refused; want 1 and 2", applied, refused)
	}
	e.logs.Lines(t)
	if strings.Contains(e.logs.String(), "sk-") {
		t.Errorf("a key is in the Router's log:\n%s", e.logs)
	}
}
