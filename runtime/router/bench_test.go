package router_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/runtime/router"
	"github.com/vllm-sr/systemone/runtime/routerconfig"
)

// benchConfig is a Router whose deployments answer through cannedUpstream,
// in process: the benchmarks measure the Router's own per-request path
// (read, route, plan, call, reassemble, answer), not a network.
const benchConfig = `
listeners:
  - name: l5
    address: 127.0.0.1:1
    apis:
      systemone: {schema: vllm-sr/5.0}
  - name: l4
    address: 127.0.0.1:2
    apis:
      systemone: {schema: vllm-sr/4.0}
deployments:
  std:
    provider: systemone
    endpoint: http://std.invalid/v1/systemone
    model: d3
    schema: systemone/0.2
  ext:
    provider: systemone
    endpoint: http://ext.invalid/v1/systemone
    model: m5
    schema: vllm-sr/5.0
    capabilities: [noul, choice, score, batch, roles, preset, over, head, decision_adapter, overflow, require_full_input]
`

// cannedUpstream answers every call with one fixed reply per host: a
// standard response, a 5.0 batch response, or a /v1/decisions response;
// and GET /v1/models with a listing, so the Router lists the deployment
// once rather than failing to on every request.
type cannedUpstream struct{}

func (cannedUpstream) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		_, _ = io.Copy(io.Discard, req.Body)
	}
	body := `{"model":"m","answers":{"urgent":{"type":"noul","noul":0.9}},"usage":{"input_tokens":3,"output_tokens":0}}`
	switch {
	case req.Method == http.MethodGet:
		body = `{"models":[{"name":"m","description":"a canned upstream","release_date":"2026-01-01"}]}`
	case strings.HasSuffix(req.URL.Path, "/batch"):
		body = `{"model":"m5","responses":{"a":` + body + `,"b":` + body + `},"usage":{"input_tokens":6,"output_tokens":0}}`
	}
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(strings.NewReader(body)), Request: req}, nil
}

func benchHandler(b *testing.B, listener string) http.Handler {
	b.Helper()
	cfg, err := routerconfig.Load("bench.yaml", []byte(benchConfig), routerconfig.BuiltinRegistries())
	if err != nil {
		b.Fatal(err)
	}
	r, err := router.New(cfg, router.Options{Client: &http.Client{Transport: cannedUpstream{}}, Logger: quiet()})
	if err != nil {
		b.Fatal(err)
	}
	h, err := r.Handler(listener)
	if err != nil {
		b.Fatal(err)
	}
	return h
}

// BenchmarkRouterRequest runs one System One request through a listener's
// handler per iteration.
func BenchmarkRouterRequest(b *testing.B) {
	const question = `"questions":{"urgent":{"type":"noul","instructions":"Is it urgent?"}}`
	for _, c := range []struct {
		name, listener, path, body string
	}{
		{"standard02-single", "l5", "/v1/systemone", `{"model":"std","state":"help me",` + question + `}`},
		{"v50-batch", "l5", "/v1/systemone/batch", `{"model":"ext","requests":{"a":{"state":"x",` + question + `},"b":{"state":"y",` + question + `}}}`},
		{"passthrough-decisions", "l4", "/v1/decisions", `{"model":"ext","state":{"request":"x"},` + question + `}`},
	} {
		b.Run(c.name, func(b *testing.B) {
			h := benchHandler(b, c.listener)
			body := []byte(c.body)
			check := httptest.NewRecorder()
			h.ServeHTTP(check, httptest.NewRequest(http.MethodPost, c.path, bytes.NewReader(body)))
			if check.Code != http.StatusOK {
				b.Fatalf("status %d: %s", check.Code, check.Body)
			}
			b.ReportAllocs()
			for b.Loop() {
				w := httptest.NewRecorder()
				h.ServeHTTP(w, httptest.NewRequest(http.MethodPost, c.path, bytes.NewReader(body)))
			}
		})
	}
}
