package observe

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/vllm-sr/systemone/runtime/registry"
	"github.com/vllm-sr/systemone/runtime/testkit"
)

// TestUpstreamSeriesAppearWhenFirstUsed: an upstream's call series,
// resolved from their vectors once, appear in the exposition when
// WithLabelValues on every call would have made them: the in-flight gauge
// at the first call's start, the duration and an outcome's counter when a
// call ends, and no outcome's counter before a call ends with it.
func TestUpstreamSeriesAppearWhenFirstUsed(t *testing.T) {
	m := NewMetrics()
	srv := httptest.NewServer(m.Handler())
	defer srv.Close()
	series := map[string][]string{ // the family, then labels beside api and upstream
		"in flight": {MetricUpstreamCallsInFlight},
		"duration":  {MetricUpstreamCallDuration},
		"503":       {MetricUpstreamCalls, "outcome", "503"},
		"200":       {MetricUpstreamCalls, "outcome", "200"},
	}
	const absent = -1
	expect := func(step string, want map[string]float64) {
		t.Helper()
		scrape := testkit.ScrapeMetrics(t, srv.URL)
		for name, w := range want {
			labels := append([]string{"api", registry.SystemOne, "upstream", "d1"}, series[name][1:]...)
			v, ok := scrape.Value(series[name][0], labels...)
			if !ok {
				v = absent
			}
			if v != w {
				t.Errorf("%s: %s is %v, want %v (%v: absent)", step, name, v, w, absent)
			}
		}
	}

	expect("before any call", map[string]float64{"in flight": absent, "duration": absent, "503": absent, "200": absent})
	call := m.StartCall(context.Background(), registry.SystemOne, "d1")
	expect("first call started", map[string]float64{"in flight": 1, "duration": absent, "503": absent, "200": absent})
	call.End(503, nil)
	expect("first call ended", map[string]float64{"in flight": 0, "duration": 1, "503": 1, "200": absent})
	m.StartCall(context.Background(), registry.SystemOne, "d1").End(200, nil)
	expect("second call ended", map[string]float64{"in flight": 0, "duration": 2, "503": 1, "200": 1})
}
