package srun

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/vllm-sr/systemone/runtime/listener"
)

// metrics are the server's counters, exposed on GET /metrics in the
// Prometheus text format. Label values are fixed words (schema IDs,
// legacy form names, plan kinds, endpoints, statuses), never request
// data, so the number of series is bounded.
type metrics struct {
	listener string
	// forms is the listener's legacy-form counter (the listener codecs'
	// own), which the diagnostics counter exposes with kind legacy_form.
	forms listener.FormCounter

	mu       sync.Mutex
	plans    map[string]uint64
	requests map[requestKey]uint64
}

type requestKey struct {
	endpoint string
	status   int
}

func newMetrics(name string) *metrics {
	return &metrics{
		listener: name,
		plans:    map[string]uint64{},
		requests: map[requestKey]uint64{},
	}
}

// countRead counts one request the listener read: the legacy forms it
// used (each once per request) and the plan it took.
func (m *metrics) countRead(req *listener.ClientRequest) {
	m.forms.Record(req)
	m.countPlan(string(req.Plan))
}

// countPlan adds one to the plan kind (pass_through or translate) a
// listener chose for a request.
func (m *metrics) countPlan(plan string) {
	if plan == "" {
		return
	}
	m.mu.Lock()
	m.plans[plan]++
	m.mu.Unlock()
}

func (m *metrics) countRequest(endpoint string, status int) {
	m.mu.Lock()
	m.requests[requestKey{endpoint: endpoint, status: status}]++
	m.mu.Unlock()
}

// gauges are read at exposition time.
type gauges struct {
	inFlight int
	ready    bool
}

// exposition writes every metric in the Prometheus text format 0.0.4,
// series sorted so the output is deterministic for a given state.
func (m *metrics) exposition(g gauges) []byte {
	m.mu.Lock()
	defer m.mu.Unlock()
	var b strings.Builder

	b.WriteString("# HELP vsr_systemone_listener_diagnostics_total Requests per listener that used a vllm-sr/4.0-only form (overlaps included; kind legacy_form) or took a plan (kind plan: pass_through, translate), by form.\n")
	b.WriteString("# TYPE vsr_systemone_listener_diagnostics_total counter\n")
	forms := m.forms.Snapshot()
	for _, form := range slices.Sorted(maps.Keys(forms.Forms)) {
		m.diagnosticLine(&b, "legacy_form", form, forms.Forms[form])
	}
	for _, plan := range slices.Sorted(maps.Keys(m.plans)) {
		m.diagnosticLine(&b, "plan", plan, m.plans[plan])
	}

	b.WriteString("# HELP vsr_srun_requests_total Requests answered, by endpoint and status.\n")
	b.WriteString("# TYPE vsr_srun_requests_total counter\n")
	rkeys := make([]requestKey, 0, len(m.requests))
	for k := range m.requests {
		rkeys = append(rkeys, k)
	}
	slices.SortFunc(rkeys, func(a, b requestKey) int {
		if c := strings.Compare(a.endpoint, b.endpoint); c != 0 {
			return c
		}
		return a.status - b.status
	})
	for _, k := range rkeys {
		fmt.Fprintf(&b, "vsr_srun_requests_total{endpoint=%s,status=\"%d\"} %d\n", label(k.endpoint), k.status, m.requests[k])
	}

	b.WriteString("# HELP vsr_srun_in_flight Requests admitted and not yet answered.\n")
	b.WriteString("# TYPE vsr_srun_in_flight gauge\n")
	fmt.Fprintf(&b, "vsr_srun_in_flight %d\n", g.inFlight)
	b.WriteString("# HELP vsr_srun_ready Whether the model has loaded and passed its self-test.\n")
	b.WriteString("# TYPE vsr_srun_ready gauge\n")
	ready := 0
	if g.ready {
		ready = 1
	}
	fmt.Fprintf(&b, "vsr_srun_ready %d\n", ready)
	return []byte(b.String())
}

func (m *metrics) diagnosticLine(b *strings.Builder, kind, form string, n uint64) {
	fmt.Fprintf(b, "vsr_systemone_listener_diagnostics_total{listener=%s,kind=%s,form=%s} %d\n",
		label(m.listener), label(kind), label(form), n)
}

// labelEscaper escapes a label value as the text format wants: backslash,
// double quote and line feed, nothing else.
var labelEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)

// label quotes a label value.
func label(v string) string { return `"` + labelEscaper.Replace(v) + `"` }
