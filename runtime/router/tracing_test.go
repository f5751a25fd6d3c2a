package router_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vllm-sr/systemone/runtime/router"
	"github.com/vllm-sr/systemone/runtime/testkit"
)

// The client's W3C trace context in the tracing tests: the specification's
// own example, sampled, with a tracestate of two vendors.
const (
	clientTraceID     = "4bf92f3577b34da6a3ce929d0e0e4736"
	clientSpanID      = "00f067aa0ba902b7"
	clientTraceparent = "00-" + clientTraceID + "-" + clientSpanID + "-01"
	clientTracestate  = "rojo=00f067aa0ba902b7,congo=t61rcWkgMzE"
)

// What the tracing tests' requests carry that no span, and no trace
// header, may: the state, a question's text and the keys.
const (
	traceSecretState    = "TRACE-SECRET-STATE my card was charged twice"
	traceSecretQuestion = "TRACE-SECRET-QUESTION is it urgent?"
	traceClientKey      = "sk-trace-client-7f3a"
	traceUpstreamKey    = "sk-trace-upstream-91c2"
)

// traceConfig is a Router in front of one traceUpstream serving as a
// systemone/0.2 deployment and an OpenAI chat upstream, and a deployment
// nobody listens for; {{TRACING}} is the tracing section, or nothing.
const traceConfig = `
listeners:
  - name: public
    address: 127.0.0.1:{{PORT}}
    api_keys_env: VSR_TRACE_CLIENT_KEYS
    apis:
      systemone: {schema: vllm-sr/5.0}
      chat_completions: {models: [gpt-trace]}
upstreams:
  chat:
    api_format: chat_completions
    endpoint: {{UP}}/v1
    models: [gpt-trace]
    api_key_env: VSR_TRACE_UPSTREAM_KEY
deployments:
  std:
    provider: systemone
    endpoint: {{UP}}/v1/systemone
    model: d3
    schema: systemone/0.2
  dead:
    provider: systemone
    endpoint: http://127.0.0.1:{{DEAD}}/v1/systemone
    model: d3
    schema: systemone/0.2
{{TRACING}}
`

// The request bodies of the tracing tests, on a System One path and on
// the LLM pass-through.
const (
	traceSystemOne = `{"model":"std","state":"` + traceSecretState + `","questions":{"urgent":{"type":"noul","instructions":"` + traceSecretQuestion + `"}}}`
	traceChat      = `{"model":"gpt-trace","messages":[{"role":"user","content":"` + traceSecretState + `"}]}`
	traceDead      = `{"model":"dead","state":"` + traceSecretState + `","questions":{"urgent":{"type":"noul","instructions":"` + traceSecretQuestion + `"}}}`
)

// traceUpstream answers the Router's System One calls and LLM requests
// with canned replies, recording the trace context each arrived with.
type traceUpstream struct {
	srv *httptest.Server
	mu  sync.Mutex
	got []arrival
}

// arrival is one request the upstream got: its path and W3C headers.
type arrival struct{ path, parent, state string }

func newTraceUpstream(t testing.TB) *traceUpstream {
	u := &traceUpstream{}
	u.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		u.mu.Lock()
		u.got = append(u.got, arrival{path: r.URL.Path, parent: r.Header.Get("Traceparent"), state: r.Header.Get("Tracestate")})
		u.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/v1/systemone":
			_, _ = io.WriteString(w, `{"model":"d3","answers":{"urgent":{"type":"noul","noul":0.9}},"usage":{"input_tokens":3,"output_tokens":0}}`)
		case "/v1/chat/completions":
			_, _ = io.WriteString(w, `{"id":"c1","object":"chat.completion","choices":[]}`)
		default:
			w.WriteHeader(http.StatusNotFound)
		}
	}))
	t.Cleanup(u.srv.Close)
	return u
}

// last is the last request that arrived on path.
func (u *traceUpstream) last(t testing.TB, path string) arrival {
	t.Helper()
	u.mu.Lock()
	defer u.mu.Unlock()
	for i := len(u.got) - 1; i >= 0; i-- {
		if u.got[i].path == path {
			return u.got[i]
		}
	}
	t.Fatalf("nothing arrived on %s", path)
	return arrival{}
}

// traceRouter is a Router of traceConfig started for a test; stop ends
// it, which exports the spans still queued.
type traceRouter struct {
	run  *router.Running
	logs *testkit.LogBuffer
	stop func()
	// values fill traceConfig's placeholders but TRACING.
	values map[string]string
}

// config writes traceConfig as the Router runs it, with tracing as its
// tracing section, and returns its path.
func (tr *traceRouter) config(t testing.TB, tracing string) string {
	values := map[string]string{"TRACING": tracing}
	for k, v := range tr.values {
		values[k] = v
	}
	return writeConfig(t, traceConfig, values)
}

func startTraceRouter(t testing.TB, up *traceUpstream, tracing string, opts router.Options) *traceRouter {
	t.Helper()
	t.Setenv("VSR_TRACE_CLIENT_KEYS", traceClientKey)
	t.Setenv("VSR_TRACE_UPSTREAM_KEY", traceUpstreamKey)
	tr := &traceRouter{logs: &testkit.LogBuffer{}, values: map[string]string{"PORT": freePort(t), "UP": up.srv.URL, "DEAD": freePort(t)}}
	cfg, err := router.LoadConfig(tr.config(t, tracing))
	if err != nil {
		t.Fatal(err)
	}
	opts.Logger = slog.New(slog.NewJSONHandler(tr.logs, nil))
	ctx, cancel := context.WithCancel(context.Background())
	run, err := router.Start(ctx, cfg, opts)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	tr.run = run
	var once sync.Once
	tr.stop = func() {
		once.Do(func() {
			cancel()
			if err := run.Wait(); err != nil {
				t.Errorf("router stopped: %v", err)
			}
		})
	}
	t.Cleanup(tr.stop)
	return tr
}

// send posts body to path with the client's key and, when given, its
// traceparent and tracestate; it returns the status.
func (tr *traceRouter) send(t testing.TB, path, body, traceparent, tracestate string) int {
	t.Helper()
	h := http.Header{}
	if traceparent != "" {
		h.Set("Traceparent", traceparent)
	}
	if tracestate != "" {
		h.Set("Tracestate", tracestate)
	}
	return tr.sendHeader(t, path, body, h)
}

// sendHeader posts body to path with the client's key and the header h.
func (tr *traceRouter) sendHeader(t testing.TB, path, body string, h http.Header) int {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, tr.run.URL("public")+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header = h.Clone()
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+traceClientKey)
	client := &http.Client{Timeout: 10 * time.Second}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode
}

// parentParts splits a version-00 traceparent into its trace id, span
// id and flags, failing the test on any other form.
func parentParts(t testing.TB, traceparent string) (traceID, spanID, flags string) {
	t.Helper()
	parts := strings.Split(traceparent, "-")
	if len(parts) != 4 || parts[0] != "00" || len(parts[1]) != 32 || len(parts[2]) != 16 || len(parts[3]) != 2 {
		t.Fatalf("traceparent %q is not a version-00 one", traceparent)
	}
	return parts[1], parts[2], parts[3]
}

// checkPassedOn checks a request that arrived upstream with the client's
// trace: its trace id and flags, a span id of the Router's own, and the
// client's tracestate unchanged. It returns the Router's span id.
func checkPassedOn(t testing.TB, got arrival, flags string) string {
	t.Helper()
	traceID, spanID, gotFlags := parentParts(t, got.parent)
	if traceID != clientTraceID || gotFlags != flags {
		t.Errorf("%s: traceparent %q, want trace id %s and flags %s", got.path, got.parent, clientTraceID, flags)
	}
	if spanID == clientSpanID || spanID == "0000000000000000" {
		t.Errorf("%s: traceparent %q keeps the client's span id, or none, as its parent", got.path, got.parent)
	}
	if got.state != clientTracestate {
		t.Errorf("%s: tracestate %q, want the client's %q", got.path, got.state, clientTracestate)
	}
	return spanID
}

// callWays are the two ways the Router's System One calls go: its own
// connections to an http:// deployment (no Options.Client) and Go's
// client.
var callWays = []struct {
	name   string
	client *http.Client
}{{"own connections", nil}, {"Go's client", &http.Client{}}}

// The paths a trace context is sent upstream on: a System One call and
// the LLM pass-through.
var tracePaths = []struct{ path, body string }{{"/v1/systemone", traceSystemOne}, {"/v1/chat/completions", traceChat}}

// With tracing off, the Router passes a client's valid trace context on
// with a span id of its own, on every path (the Router's own connections
// to an http:// deployment, Go's client, the LLM pass-through); it sends
// none when the client sent none, or one that is not valid, and drops the
// tracestate with it.
func TestTraceContextTracingOff(t *testing.T) {
	up := newTraceUpstream(t)
	for _, c := range callWays {
		t.Run(c.name, func(t *testing.T) {
			tr := startTraceRouter(t, up, "", router.Options{Client: c.client})
			for _, p := range tracePaths {
				if status := tr.send(t, p.path, p.body, clientTraceparent, clientTracestate); status != 200 {
					t.Fatalf("%s: status %d", p.path, status)
				}
				first := checkPassedOn(t, up.last(t, p.path), "01")
				tr.send(t, p.path, p.body, clientTraceparent, clientTracestate)
				if second := checkPassedOn(t, up.last(t, p.path), "01"); second == first {
					t.Errorf("%s: two requests went upstream with one span id %s", p.path, first)
				}
				unsampled := "00-" + clientTraceID + "-" + clientSpanID + "-00"
				tr.send(t, p.path, p.body, unsampled, clientTracestate)
				checkPassedOn(t, up.last(t, p.path), "00")
				for _, sent := range []string{"", "00-00000000000000000000000000000000-" + clientSpanID + "-01",
					"00-" + clientTraceID + "-" + clientSpanID, "ff-" + clientTraceID + "-" + clientSpanID + "-01", "not a traceparent"} {
					if status := tr.send(t, p.path, p.body, sent, clientTracestate); status != 200 {
						t.Fatalf("%s with traceparent %q: status %d", p.path, sent, status)
					}
					if got := up.last(t, p.path); got.parent != "" || got.state != "" {
						t.Errorf("%s with traceparent %q: upstream got traceparent %q, tracestate %q; want neither", p.path, sent, got.parent, got.state)
					}
				}
				// A list header split over lines is one list; two traceparents
				// are ambiguous, and read as none.
				tr.sendHeader(t, p.path, p.body, http.Header{"Traceparent": {clientTraceparent}, "Tracestate": {"rojo=00f067aa0ba902b7", "congo=t61rcWkgMzE"}})
				checkPassedOn(t, up.last(t, p.path), "01")
				tr.sendHeader(t, p.path, p.body, http.Header{"Traceparent": {clientTraceparent, clientTraceparent}, "Tracestate": {clientTracestate}})
				if got := up.last(t, p.path); got.parent != "" || got.state != "" {
					t.Errorf("%s with two traceparents: upstream got %q, %q; want neither", p.path, got.parent, got.state)
				}
			}
			tr.stop()
			if logs := tr.logs.String(); !strings.Contains(logs, `"trace_id":"`+clientTraceID+`"`) {
				t.Errorf("no access line names the client's trace id:\n%.2000s", logs)
			}
		})
	}
}
