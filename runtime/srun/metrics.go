package srun

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/vllm-sr/systemone/runtime/front"
)

// MetricAdmitted is the runtime's own family beside the ones both
// servers expose (front.Metrics; docs/router.md, "Metrics", has the
// one table).
const MetricAdmitted = "vsr_srun_admitted"

// newMetrics returns the runtime's series: the shared ones, plus the
// admission slots taken, read when scraped.
func newMetrics(a *front.Admission) *front.Metrics {
	m := front.NewMetrics("vllm-srun")
	m.Registry().MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: MetricAdmitted,
		Help: "Requests holding an admission slot (at most --max-in-flight): read, and not yet answered."},
		func() float64 { return float64(a.InFlight()) }))
	return m
}
