package observe

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/vllm-sr/systemone/runtime/front"
	"github.com/vllm-sr/systemone/runtime/ir"
)

// The Router's own metric families, beside the ones both servers expose
// (front.Metrics); docs/router.md, "Metrics", is their one table.
const (
	MetricUpstreamCalls         = "vsr_upstream_calls_total"
	MetricUpstreamCallDuration  = "vsr_upstream_call_duration_seconds"
	MetricUpstreamCallsInFlight = "vsr_upstream_calls_in_flight"
	MetricTargetDiagnostics     = "vsr_systemone_target_diagnostics_total"
	MetricRuleOutcomes          = "vsr_rule_outcomes_total"
	MetricConfigReloads         = "vsr_config_reloads_total"
	MetricConfigInfo            = "vsr_config_info"
)

// The results of a reload, vsr_config_reloads_total's result label.
const (
	ReloadApplied = "applied"
	ReloadRefused = "refused"
)

// OutcomeNoReply is the outcome of an upstream call that got no HTTP
// reply: a transport failure, the deadline, a reply over the body limit.
const OutcomeNoReply = "no_reply"

// Metrics are the Router's series: the ones both servers expose, plus
// upstream calls by API and upstream (the deployment key, or the LLM
// upstream's name), target diagnostics by deployment and rule outcomes.
// One Metrics lives as long as the Router's process: a reload keeps it.
// It is safe for concurrent use.
type Metrics struct {
	*front.Metrics
	calls       *prometheus.CounterVec
	callTime    *prometheus.HistogramVec
	callsNow    *prometheus.GaugeVec
	targetDiags *prometheus.CounterVec
	rules       *prometheus.CounterVec
	reloads     *prometheus.CounterVec
	configInfo  *prometheus.GaugeVec
	// configSHA is the SHA-256 vsr_config_info is labelled with.
	configMu  sync.Mutex
	configSHA string
	// upstreams holds each API's upstream's call series (upstreamKey →
	// *upstreamSeries).
	upstreams sync.Map
}

func NewMetrics() *Metrics {
	upstream := []string{"api", "upstream"} //vocab:not-spec metric labels
	m := &Metrics{
		Metrics: front.NewMetrics("vllm-sr"),
		calls: prometheus.NewCounterVec(prometheus.CounterOpts{Name: MetricUpstreamCalls,
			Help: "Calls to upstreams (System One deployments, LLM upstreams), by API, upstream and outcome: the HTTP status, or no_reply."},
			append(upstream, "outcome")), //vocab:not-spec metric label
		callTime: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: MetricUpstreamCallDuration,
			Help: "Time from sending an upstream call to the end of its reply's headers (System One: of its body), by API and upstream.", Buckets: front.DurationBuckets},
			upstream),
		callsNow: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: MetricUpstreamCallsInFlight,
			Help: "Upstream calls in flight, by API and upstream."}, upstream),
		targetDiags: prometheus.NewCounterVec(prometheus.CounterOpts{Name: MetricTargetDiagnostics,
			Help: "Target plans that dropped or approximated a member for the deployment's schema, by member."},
			[]string{"deployment", "kind", "form"}), //vocab:not-spec metric labels
		rules: prometheus.NewCounterVec(prometheus.CounterOpts{Name: MetricRuleOutcomes,
			Help: "Rule evaluations on served traffic and by decide, by rule and outcome."},
			[]string{"rule", "outcome"}), //vocab:not-spec metric labels
		reloads: prometheus.NewCounterVec(prometheus.CounterOpts{Name: MetricConfigReloads,
			Help: "Configuration reloads (SIGHUP), by result: applied, or refused (the configuration in force kept)."},
			[]string{"result"}), //vocab:not-spec metric labels
		configInfo: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: MetricConfigInfo,
			Help: "1, labelled with the SHA-256 of the configuration file in force."},
			[]string{"sha256"}), //vocab:not-spec metric labels
	}
	m.reloads.WithLabelValues(ReloadApplied)
	m.reloads.WithLabelValues(ReloadRefused)
	m.Registry().MustRegister(m.calls, m.callTime, m.callsNow, m.targetDiags, m.rules, m.reloads, m.configInfo)
	return m
}

// ConfigInForce makes the configuration of SHA-256 sha vsr_config_info's
// one series: it is set before the previous one is deleted, so a scrape
// never finds none.
func (m *Metrics) ConfigInForce(sha string) {
	m.configMu.Lock()
	defer m.configMu.Unlock()
	m.configInfo.WithLabelValues(sha).Set(1)
	if m.configSHA != "" && m.configSHA != sha {
		m.configInfo.DeleteLabelValues(m.configSHA)
	}
	m.configSHA = sha
}

// Reloaded counts a reload with its result (ReloadApplied, ReloadRefused).
func (m *Metrics) Reloaded(result string) { m.reloads.WithLabelValues(result).Inc() }

// RuleOutcome counts one evaluation of the rule named rule with its
// outcome (a fixed word, such as matched, not_matched or unknown).
func (m *Metrics) RuleOutcome(rule, outcome string) {
	m.rules.WithLabelValues(rule, outcome).Inc()
}

// StartCall counts an upstream call in flight and returns what ends it:
// the call's outcome, counted with its duration.
func (m *Metrics) StartCall(ctx context.Context, api, upstream string) UpstreamCall {
	start := time.Now()
	s := m.upstreamSeries(api, upstream)
	s.inFlight.Inc()
	return UpstreamCall{ctx: ctx, series: s, upstream: upstream, start: start}
}

// UpstreamCall is an upstream call StartCall counted.
type UpstreamCall struct {
	ctx      context.Context
	series   *upstreamSeries
	upstream string
	start    time.Time
}

// End counts the call's outcome. status is the reply's HTTP status, 0 for
// none; err is why there was none, noted with the upstream's name as the
// request's upstream cause for its log line, as is a 4xx or 5xx reply.
func (c UpstreamCall) End(status int, err error) {
	c.series.inFlight.Dec()
	c.series.duration().Observe(time.Since(c.start).Seconds())
	outcome := OutcomeNoReply
	if status > 0 {
		outcome = front.StatusLabel(status)
	}
	c.series.calls(outcome).Inc()
	switch {
	case err != nil:
		front.NoteCause(c.ctx, "upstream "+quote(c.upstream)+": "+err.Error())
	case status >= 400:
		front.NoteCause(c.ctx, "upstream "+quote(c.upstream)+" answered "+outcome)
	}
}

// upstreamSeries are the call series of one API's upstream, each taken
// from its vector once (a vector's lookup hashes the labels and takes a
// lock on every use) and when first used, as WithLabelValues would make
// it, so the exposition is the same: the in-flight gauge at the first
// call's start, the others at a call's end.
type upstreamSeries struct {
	inFlight      prometheus.Gauge
	duration      func() prometheus.Observer
	callsVec      *prometheus.CounterVec
	api, upstream string
	outcomes      sync.Map // outcome → prometheus.Counter
}

type upstreamKey struct{ api, upstream string }

// upstreamSeries returns the series of api's upstream, made on its first
// call.
func (m *Metrics) upstreamSeries(api, upstream string) *upstreamSeries {
	key := upstreamKey{api, upstream}
	if s, ok := m.upstreams.Load(key); ok {
		return s.(*upstreamSeries)
	}
	s, _ := m.upstreams.LoadOrStore(key, &upstreamSeries{
		inFlight: m.callsNow.WithLabelValues(api, upstream),
		duration: sync.OnceValue(func() prometheus.Observer { return m.callTime.WithLabelValues(api, upstream) }),
		callsVec: m.calls, api: api, upstream: upstream,
	})
	return s.(*upstreamSeries)
}

// calls is the calls counter of the outcome.
func (s *upstreamSeries) calls(outcome string) prometheus.Counter {
	if c, ok := s.outcomes.Load(outcome); ok {
		return c.(prometheus.Counter)
	}
	c, _ := s.outcomes.LoadOrStore(outcome, s.callsVec.WithLabelValues(s.api, s.upstream, outcome))
	return c.(prometheus.Counter)
}

// RecordTarget counts a target plan's diagnostics (members dropped or
// approximated for the target's schema), once per form per plan.
func (m *Metrics) RecordTarget(deployment string, diags ir.Diagnostics) {
	for _, kind := range []ir.DiagnosticKind{ir.DiagnosticDropped, ir.DiagnosticApproximated} {
		for _, form := range diags.Forms(kind) {
			m.targetDiags.WithLabelValues(deployment, string(kind), form).Inc()
		}
	}
}

// countingTransport is an LLM upstream's transport: each round trip is
// counted as an upstream call of api to upstream.
type countingTransport struct {
	base          http.RoundTripper
	metrics       *Metrics
	api, upstream string
}

func (t *countingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	call := t.metrics.StartCall(req.Context(), t.api, t.upstream)
	resp, err := t.base.RoundTrip(req)
	status := 0
	if err == nil {
		status = resp.StatusCode
	}
	call.End(status, err)
	return resp, err
}

// CountingTransport is base with each round trip counted as an upstream
// call of api to upstream: what the LLM pass-through sends with.
func (m *Metrics) CountingTransport(base http.RoundTripper, api, upstream string) http.RoundTripper {
	return &countingTransport{base: base, metrics: m, api: api, upstream: upstream}
}

// quote is s in double quotes: a configuration name in a message.
func quote(s string) string { return `"` + s + `"` }
