package router_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"

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

// benchHandlerTraced is benchHandler's Router with tracing, when given,
// as its configuration's section: its spans sampled by it and exported
// to an exporter that drops them.
func benchHandlerTraced(b *testing.B, listener, tracing string) http.Handler {
	b.Helper()
	cfg, err := routerconfig.Load("bench.yaml", []byte(benchConfig+tracing), routerconfig.BuiltinRegistries())
	if err != nil {
		b.Fatal(err)
	}
	r, err := router.New(cfg, router.Options{Client: &http.Client{Transport: cannedUpstream{}}, Logger: quiet(), SpanExporter: dropSpans{}})
	if err != nil {
		b.Fatal(err)
	}
	if err := r.StartTracing(b.Context()); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(r.StopTracing)
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
	single := `{"model":"std","state":"help me",` + question + `}`
	for _, c := range []struct {
		name, listener, path, body string
		// traceparent is the client's; tracing the configuration's section.
		traceparent, tracing string
	}{
		{name: "standard02-single", listener: "l5", path: "/v1/systemone", body: single},
		{name: "v50-batch", listener: "l5", path: "/v1/systemone/batch", body: `{"model":"ext","requests":{"a":{"state":"x",` + question + `},"b":{"state":"y",` + question + `}}}`},
		{name: "passthrough-decisions", listener: "l4", path: "/v1/decisions", body: `{"model":"ext","state":{"request":"x"},` + question + `}`},
		// What a client's traceparent costs with tracing off (passed on
		// with the Router's span id), and tracing on, every request sampled
		// and its five spans made and handed to the exporter.
		{name: "standard02-single-traceparent", listener: "l5", path: "/v1/systemone", body: single, traceparent: benchTraceparent},
		{name: "standard02-single-traced", listener: "l5", path: "/v1/systemone", body: single, traceparent: benchTraceparent,
			tracing: "tracing: {otlp_endpoint: http://127.0.0.1:1, sample_ratio: 1}\n"},
	} {
		b.Run(c.name, func(b *testing.B) {
			h := benchHandlerTraced(b, c.listener, c.tracing)
			body := []byte(c.body)
			request := func() *http.Request {
				req := httptest.NewRequest(http.MethodPost, c.path, bytes.NewReader(body))
				if c.traceparent != "" {
					req.Header["Traceparent"] = []string{c.traceparent}
				}
				return req
			}
			check := httptest.NewRecorder()
			h.ServeHTTP(check, request())
			if check.Code != http.StatusOK {
				b.Fatalf("status %d: %s", check.Code, check.Body)
			}
			b.ReportAllocs()
			for b.Loop() {
				w := httptest.NewRecorder()
				h.ServeHTTP(w, request())
			}
		})
	}
}

// benchTraceparent is a client's sampled traceparent.
const benchTraceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"

// dropSpans is a span exporter that drops what it is given.
type dropSpans struct{}

func (dropSpans) ExportSpans(context.Context, []sdktrace.ReadOnlySpan) error { return nil }
func (dropSpans) Shutdown(context.Context) error                             { return nil }
