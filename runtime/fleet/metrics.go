package fleet

import (
	"sync"

	"github.com/prometheus/client_golang/prometheus"
)

// The Router's series of its deployments in a fleet (docs/router.md,
// "Metrics"): each deployment's health and circuit, retries and pool
// failovers.
const (
	MetricDeploymentUp      = "vsr_deployment_up"
	MetricDeploymentCircuit = "vsr_deployment_circuit_state"
	MetricUpstreamRetries   = "vsr_upstream_retries_total"
	MetricPoolFailovers     = "vsr_pool_failovers_total"
)

// circuitValue is a circuit state's value in vsr_deployment_circuit_state.
var circuitValue = map[string]float64{CircuitClosed: 0, CircuitHalfOpen: 1, CircuitOpen: 2}

// Metrics are the fleet series. The gauges hold one series per
// deployment of the configuration in force: a reload that drops a
// deployment drops its series.
type Metrics struct {
	up        *prometheus.GaugeVec
	circuit   *prometheus.GaugeVec
	retries   *prometheus.CounterVec
	failovers *prometheus.CounterVec
	mu        sync.Mutex
	shown     map[string]bool // the deployments the gauges have series of
	// generation is the newest configuration's shown (Router.generation).
	generation uint64
}

func NewMetrics(reg *prometheus.Registry) *Metrics {
	deployment := []string{"deployment"} //vocab:not-spec metric label
	f := &Metrics{
		up: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: MetricDeploymentUp,
			Help: "1 when the deployment's last readiness check found it up and its circuit is not open, else 0 (also before its first check)."}, deployment),
		circuit: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: MetricDeploymentCircuit,
			Help: "The deployment's circuit: 0 closed, 1 half-open (its next call probes), 2 open (no call goes to it)."}, deployment),
		retries: prometheus.NewCounterVec(prometheus.CounterOpts{Name: MetricUpstreamRetries,
			Help: "Calls sent to a deployment again after a failure before any answer (its retries)."}, deployment),
		failovers: prometheus.NewCounterVec(prometheus.CounterOpts{Name: MetricPoolFailovers,
			Help: "Pool requests sent to the next member after the member named failed before any answer."},
			[]string{"pool", "deployment"}), //vocab:not-spec metric labels
		shown: map[string]bool{},
	}
	reg.MustRegister(f.up, f.circuit, f.retries, f.failovers)
	return f
}

func (f *Metrics) Retried(deployment string) { f.retries.WithLabelValues(deployment).Inc() }

func (f *Metrics) FailedOver(pool, deployment string) {
	f.failovers.WithLabelValues(pool, deployment).Inc()
}

// DeploymentHealth is one deployment's gauges' values.
type DeploymentHealth struct {
	Name    string
	Up      bool
	Circuit string
}

// showLocked sets one deployment's gauges; f.mu is held.
func (f *Metrics) showLocked(h DeploymentHealth) {
	up := 0.0
	if h.Up {
		up = 1
	}
	f.up.WithLabelValues(h.Name).Set(up)
	f.circuit.WithLabelValues(h.Name).Set(circuitValue[h.Circuit])
	f.shown[h.Name] = true
}

// ShowAll sets the gauges of every deployment of the configuration of
// generation gen, and drops the series of those it does not have; a
// generation older than one already shown (a Router a reload replaced,
// finishing a round) sets nothing.
func (f *Metrics) ShowAll(gen uint64, all []DeploymentHealth) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if gen < f.generation {
		return
	}
	f.generation = gen
	keep := map[string]bool{}
	for _, h := range all {
		f.showLocked(h)
		keep[h.Name] = true
	}
	for name := range f.shown {
		if !keep[name] {
			f.up.DeleteLabelValues(name)
			f.circuit.DeleteLabelValues(name)
			delete(f.shown, name)
		}
	}
}
