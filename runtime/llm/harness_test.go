package llm_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"github.com/vllm-sr/systemone/runtime/llm"
	"github.com/vllm-sr/systemone/runtime/srun"
	"github.com/vllm-sr/systemone/runtime/testkit"
)

// server is a vllm-srun serving the fake backend's model through the LLM
// engine, over real HTTP.
type server struct {
	t       *testing.T
	url     string
	backend *testkit.LLMBackend
	engine  *llm.Engine
}

// serve starts a fake backend and a vllm-srun in front of it, ready.
func serve(t *testing.T, o testkit.LLMBackendOptions, tweak ...func(*llm.Config)) *server {
	t.Helper()
	b := testkit.NewLLMBackend(t, o)
	cfg := llm.Config{URL: b.URL(), Model: cmpOr(o.Model, "qwen3-8b"), CallTimeout: 5 * time.Second, ConnectTimeout: 5 * time.Second,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	for _, f := range tweak {
		f(&cfg)
	}
	e, err := llm.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	run, err := srun.Start(ctx, srun.Config{Engine: e, EngineName: llm.EngineName, Addr: "127.0.0.1:0",
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); _ = run.Wait() })
	if err := run.WaitReady(10 * time.Second); err != nil {
		t.Fatalf("not ready: %v", err)
	}
	return &server{t: t, url: run.URL(), backend: b, engine: e}
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// reply is a decoded answer.
type reply struct {
	status int
	header http.Header
	body   map[string]any
	raw    []byte
}

func (s *server) post(path, body string, header ...string) *reply {
	s.t.Helper()
	req, err := http.NewRequest(http.MethodPost, s.url+path, bytes.NewReader([]byte(body)))
	if err != nil {
		s.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	return do(s.t, req)
}

func (s *server) get(path string) *reply {
	s.t.Helper()
	req, err := http.NewRequest(http.MethodGet, s.url+path, nil)
	if err != nil {
		s.t.Fatal(err)
	}
	return do(s.t, req)
}

func do(t *testing.T, req *http.Request) *reply {
	t.Helper()
	c := &http.Client{Timeout: 20 * time.Second}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	r := &reply{status: resp.StatusCode, header: resp.Header, raw: raw}
	if len(raw) > 0 && raw[0] == '{' {
		if err := json.Unmarshal(raw, &r.body); err != nil {
			t.Fatalf("answer not JSON: %v: %s", err, raw)
		}
	}
	return r
}

func (r *reply) want(t *testing.T, status int) *reply {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d: %s", r.status, status, r.raw)
	}
	return r
}

// path walks the body by keys.
func (r *reply) path(keys ...string) any {
	var v any = r.body
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

func num(t *testing.T, v any) float64 {
	t.Helper()
	f, ok := v.(float64)
	if !ok {
		t.Fatalf("%v is not a number", v)
	}
	return f
}

// chatBodies are the chat completion requests the backend received.
func chatBodies(t *testing.T, b *testkit.LLMBackend) []map[string]any {
	var out []map[string]any
	for _, c := range b.Calls() {
		if c.Path != "/v1/chat/completions" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal(c.Body, &m); err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}
