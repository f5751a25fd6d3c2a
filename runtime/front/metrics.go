package front

import (
	"net/http"
	"strconv"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// The metric names both servers expose (docs/router.md, "Metrics", has
// the one table of every family). Label values are fixed words or
// configuration names, never request data, so the series are bounded.
const (
	MetricRequests            = "vsr_requests_total"
	MetricRequestDuration     = "vsr_request_duration_seconds"
	MetricRequestsInFlight    = "vsr_requests_in_flight"
	MetricListenerDiagnostics = "vsr_systemone_listener_diagnostics_total"
	MetricReady               = "vsr_ready"
	MetricBuildInfo           = "vsr_build_info"
)

// DurationBuckets are the buckets of every duration histogram, in
// seconds: from a millisecond to a minute.
var DurationBuckets = []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60}

// Metrics are the Prometheus series every System One server exposes, in
// a registry of the server's own (so servers in one process never share
// series): requests by listener, API, endpoint, status and code, their
// durations, requests in flight, the listener diagnostics, readiness,
// build info, and the Go and process collectors. A server registers its
// own families in Registry. It is safe for concurrent use.
type Metrics struct {
	registry    *prometheus.Registry
	requests    *prometheus.CounterVec
	duration    *prometheus.HistogramVec
	inFlight    *prometheus.GaugeVec
	diagnostics *prometheus.CounterVec
	ready       prometheus.Gauge
	handler     http.Handler
}

// NewMetrics returns the series of the server named server (vllm-sr,
// vllm-srun), which its build info names.
func NewMetrics(server string) *Metrics {
	m := &Metrics{
		registry: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{Name: MetricRequests,
			Help: "Requests answered, by listener, API (empty: none), endpoint path (unknown: no endpoint's), status and error code (empty: none); refused requests and LLM traffic included."},
			[]string{"listener", "api", "endpoint", "status", "code"}), //vocab:not-spec metric labels
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: MetricRequestDuration,
			Help: "Time from a request's start to the end of its answer, by listener, API and endpoint.", Buckets: DurationBuckets},
			[]string{"listener", "api", "endpoint"}), //vocab:not-spec metric labels
		inFlight: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: MetricRequestsInFlight,
			Help: "Requests being served, by listener."}, []string{"listener"}),
		diagnostics: prometheus.NewCounterVec(prometheus.CounterOpts{Name: MetricListenerDiagnostics,
			Help: "System One requests per listener that used a vllm-sr/4.0-only form (kind legacy_form, by form, once per request) or took a plan (kind pass_through or translate, form the endpoint: systemone, batch, decisions, bundle)."},
			[]string{"listener", "kind", "form"}), //vocab:not-spec metric labels
		ready: prometheus.NewGauge(prometheus.GaugeOpts{Name: MetricReady,
			Help: "1 when the server is ready (GET /ready answers 200), else 0."}),
	}
	b := Build()
	info := prometheus.NewGauge(prometheus.GaugeOpts{Name: MetricBuildInfo, Help: "1, labelled with the server's build: module version, VCS revision and Go version.",
		ConstLabels: prometheus.Labels{"server": server, "version": b.Version, "revision": b.Revision, "goversion": b.GoVersion}}) //vocab:not-spec metric labels
	info.Set(1)
	m.handler = promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{})
	m.registry.MustRegister(m.requests, m.duration, m.inFlight, m.diagnostics, m.ready, info,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Registry is where a server registers its own families.
func (m *Metrics) Registry() *prometheus.Registry { return m.registry }

// Handler answers GET /metrics in the Prometheus text format (or the
// format the scraper negotiates).
func (m *Metrics) Handler() http.Handler { return m.handler }

// SetReady sets vsr_ready.
func (m *Metrics) SetReady(ready bool) {
	if ready {
		m.ready.Set(1)
	} else {
		m.ready.Set(0)
	}
}

// CountDiagnostic counts one listener diagnostic of a request: kind is
// legacy_form or a plan, form the form or the endpoint's word
// (listener.ClientRequest.CountedDiagnostics gives them).
func (m *Metrics) CountDiagnostic(listenerName, kind, form string) {
	m.diagnostics.WithLabelValues(listenerName, kind, form).Inc()
}

// statusLabels are the status label values, made once: a label per
// request allocates nothing.
var statusLabels = func() []string {
	out := make([]string, 600)
	for i := range out {
		out[i] = strconv.Itoa(i)
	}
	return out
}()

// StatusLabel is an HTTP status as a label value.
func StatusLabel(status int) string {
	if status >= 0 && status < len(statusLabels) {
		return statusLabels[status]
	}
	return strconv.Itoa(status)
}
