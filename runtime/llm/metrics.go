package llm

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// The engine's Prometheus series (docs/serving-an-llm.md, "Metrics").
const (
	MetricBackendCalls    = "vsr_llm_backend_calls_total"
	MetricBackendSeconds  = "vsr_llm_backend_call_duration_seconds"
	MetricBackendFailures = "vsr_llm_backend_failures_total"
	MetricBackendInFlight = "vsr_llm_backend_calls_in_flight"
)

type metrics struct {
	calls    *prometheus.CounterVec
	seconds  *prometheus.HistogramVec
	failures *prometheus.CounterVec
	inFlight prometheus.Gauge
}

func newMetrics() *metrics {
	return &metrics{
		calls: prometheus.NewCounterVec(prometheus.CounterOpts{Name: MetricBackendCalls,
			Help: "Calls to the LLM backend, by endpoint and outcome (ok, or the failure's reason)."}, []string{"endpoint", "outcome"}),
		seconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: MetricBackendSeconds,
			Help:    "How long a call to the LLM backend took, by endpoint.",
			Buckets: []float64{0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60}}, []string{"endpoint"}),
		failures: prometheus.NewCounterVec(prometheus.CounterOpts{Name: MetricBackendFailures,
			Help: "Failed calls to the LLM backend, by reason (backend_unreachable, backend_overloaded, backend_context_exceeded, backend_failed, backend_reply_invalid, deadline_passed, request_cancelled)."}, []string{"reason"}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{Name: MetricBackendInFlight,
			Help: "Calls to the LLM backend in flight (at most --max-concurrency)."}),
	}
}

func (m *metrics) collectors() []prometheus.Collector {
	return []prometheus.Collector{m.calls, m.seconds, m.failures, m.inFlight}
}

// observe counts one finished call. endpoint is the path below /v1.
func (m *metrics) observe(endpoint, outcome string, took time.Duration) {
	m.calls.WithLabelValues(endpoint, outcome).Inc()
	m.seconds.WithLabelValues(endpoint).Observe(took.Seconds())
	if outcome != "ok" {
		m.failures.WithLabelValues(outcome).Inc()
	}
}
