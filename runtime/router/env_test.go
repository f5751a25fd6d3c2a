package router_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/vllm-sr/systemone/runtime/router"
	"github.com/vllm-sr/systemone/runtime/testkit"
)

// env is one Router in front of a recording systemone/0.2 upstream, two
// vllm-srun runtimes (vllm-sr/decision1 behind a recording tap, and
// vllm-sr/vela3-fast) and an LLM upstream.
type env struct {
	rec  *testkit.RouterRecorder
	tap  *routerTap
	llm  *llmUpstream
	run  *router.Running
	path string
	// vela is the vela3-fast runtime's root, which local-vela calls.
	vela string
}

// llmUpstream records the LLM requests forwarded to it.
type llmUpstream struct {
	srv   *httptest.Server
	mu    sync.Mutex
	paths []string
	body  [][]byte
}

func newEnv(t *testing.T) *env {
	t.Helper()
	e := &env{rec: testkit.NewRouterRecorder(t, 40*time.Millisecond), llm: &llmUpstream{}}
	e.llm.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		e.llm.mu.Lock()
		e.llm.paths = append(e.llm.paths, r.URL.Path)
		e.llm.body = append(e.llm.body, body)
		e.llm.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"id":"chatcmpl-1","object":"chat.completion","model":"gpt-4o","choices":[]}`)
	}))
	t.Cleanup(e.llm.srv.Close)
	decision1 := startRuntime(t, "vllm-sr/decision1")
	vela := startRuntime(t, "vllm-sr/vela3-fast")
	e.tap = newRouterTap(t, decision1.URL())
	template, err := os.ReadFile("testdata/e2e.yaml")
	if err != nil {
		t.Fatal(err)
	}
	e.path = writeConfig(t, string(template), map[string]string{
		"P5": freePort(t), "P4": freePort(t), "PL": freePort(t), "P1": freePort(t),
		"LLM": e.llm.srv.URL, "REC": e.rec.URL(), "DECISION1": e.tap.Server.URL, "VELA": vela.URL(),
	})
	e.run = startRouter(t, e.path)
	e.vela = vela.URL()
	return e
}

func (e *env) url(listener, path string) string { return e.run.URL(listener) + path }
