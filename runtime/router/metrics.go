package router

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/listener"
)

// The kinds of vsr_systemone_listener_diagnostics_total: a legacy form a
// request used, or the plan its listener codec decided.
const (
	KindLegacyForm  = string(ir.DiagnosticLegacyForm)
	KindPassThrough = string(listener.PlanPassThrough)
	KindTranslate   = string(listener.PlanTranslate)
)

// diagnosticKey is one series of the listener diagnostics counter.
type diagnosticKey struct{ listener, kind, form string }

// callKey is one series of the upstream calls counter.
type callKey struct{ deployment, outcome string }

// targetKey is one series of the target diagnostics counter.
type targetKey struct{ deployment, kind, form string }

// Metrics are the Router's counters, exposed on GET /metrics in the
// Prometheus text format. It is safe for concurrent use.
type Metrics struct {
	mu          sync.Mutex
	forms       map[string]*listener.FormCounter // by listener
	plans       map[diagnosticKey]uint64
	calls       map[callKey]uint64
	targetDiags map[targetKey]uint64
}

func newMetrics() *Metrics {
	return &Metrics{
		forms:       map[string]*listener.FormCounter{},
		plans:       map[diagnosticKey]uint64{},
		calls:       map[callKey]uint64{},
		targetDiags: map[targetKey]uint64{},
	}
}

// recordRead counts one request a listener read: its legacy forms (once
// per request, by listener.FormCounter) and its plan, by endpoint.
func (m *Metrics) recordRead(listenerName string, cr *listener.ClientRequest) {
	m.mu.Lock()
	defer m.mu.Unlock()
	fc, ok := m.forms[listenerName]
	if !ok {
		fc = &listener.FormCounter{}
		m.forms[listenerName] = fc
	}
	fc.Record(cr)
	m.plans[diagnosticKey{listenerName, string(cr.Plan), endpointWord(cr.Endpoint)}]++
}

// recordCall counts one upstream call by its outcome: the status, or
// "no_reply".
func (m *Metrics) recordCall(deployment string, reply int) {
	outcome := "no_reply"
	if reply > 0 {
		outcome = strconv.Itoa(reply)
	}
	m.mu.Lock()
	m.calls[callKey{deployment, outcome}]++
	m.mu.Unlock()
}

// recordTarget counts a target plan's diagnostics (members dropped or
// approximated for the target's schema), once per form per plan.
func (m *Metrics) recordTarget(deployment string, diags ir.Diagnostics) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, kind := range []ir.DiagnosticKind{ir.DiagnosticDropped, ir.DiagnosticApproximated} {
		for _, form := range diags.Forms(kind) {
			m.targetDiags[targetKey{deployment, string(kind), form}]++
		}
	}
}

// endpointWord is the fixed word a plan's form label uses for an endpoint.
func endpointWord(e listener.Endpoint) string {
	switch e {
	case listener.EndpointSystemOne:
		return "systemone"
	case listener.EndpointBatch:
		return "batch"
	case listener.EndpointDecisions:
		return "decisions"
	case listener.EndpointBundle:
		return "bundle"
	}
	return "other"
}

// Exposition writes every metric, series sorted, so equal states write
// equal text.
func (m *Metrics) Exposition() []byte {
	m.mu.Lock()
	defer m.mu.Unlock()
	var b strings.Builder
	b.WriteString("# HELP vsr_systemone_listener_diagnostics_total System One requests per listener that used a vllm-sr/4.0-only form (kind legacy_form, by form) or took a plan (kind pass_through or translate, by endpoint).\n")
	b.WriteString("# TYPE vsr_systemone_listener_diagnostics_total counter\n")
	series := map[diagnosticKey]uint64{}
	for name, fc := range m.forms {
		for form, n := range fc.Snapshot().Forms {
			series[diagnosticKey{name, KindLegacyForm, form}] = n
		}
	}
	maps.Copy(series, m.plans)
	for _, k := range sortedKeys(series, func(k diagnosticKey) string { return k.listener + "\x00" + k.kind + "\x00" + k.form }) {
		fmt.Fprintf(&b, "vsr_systemone_listener_diagnostics_total{listener=%s,kind=%s,form=%s} %d\n",
			label(k.listener), label(k.kind), label(k.form), series[k])
	}
	b.WriteString("# HELP vsr_systemone_upstream_calls_total Calls to System One deployments, by outcome (the HTTP status, or no_reply).\n")
	b.WriteString("# TYPE vsr_systemone_upstream_calls_total counter\n")
	for _, k := range sortedKeys(m.calls, func(k callKey) string { return k.deployment + "\x00" + k.outcome }) {
		fmt.Fprintf(&b, "vsr_systemone_upstream_calls_total{deployment=%s,outcome=%s} %d\n",
			label(k.deployment), label(k.outcome), m.calls[k])
	}
	b.WriteString("# HELP vsr_systemone_target_diagnostics_total Target plans that dropped or approximated a member for the deployment's schema, by member.\n")
	b.WriteString("# TYPE vsr_systemone_target_diagnostics_total counter\n")
	for _, k := range sortedKeys(m.targetDiags, func(k targetKey) string { return k.deployment + "\x00" + k.kind + "\x00" + k.form }) {
		fmt.Fprintf(&b, "vsr_systemone_target_diagnostics_total{deployment=%s,kind=%s,form=%s} %d\n",
			label(k.deployment), label(k.kind), label(k.form), m.targetDiags[k])
	}
	return []byte(b.String())
}

func sortedKeys[K comparable, V any](m map[K]V, sortKey func(K) string) []K {
	keys := slices.Collect(maps.Keys(m))
	slices.SortFunc(keys, func(a, b K) int { return strings.Compare(sortKey(a), sortKey(b)) })
	return keys
}

// label quotes a label value as the text format requires.
func label(v string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(v) + `"`
}
