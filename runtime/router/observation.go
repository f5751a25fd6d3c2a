package router

import (
	"context"
	"log/slog"

	"github.com/vllm-sr/systemone/runtime/fleet"
	"github.com/vllm-sr/systemone/runtime/observe"
)

// metrics are the Router's series: observation's (upstream calls, target
// diagnostics, rule outcomes, reloads, the configuration in force) and
// the fleet's (runtime/fleet), on one registry.
type metrics struct {
	*observe.Metrics
	fleet *fleet.Metrics
}

func newMetrics() *metrics {
	m := &metrics{Metrics: observe.NewMetrics()}
	m.fleet = fleet.NewMetrics(m.Registry())
	return m
}

// startTracing starts the span export of r's configuration, when it
// has tracing on: what Start does once its listeners are bound.
func (r *Router) startTracing(ctx context.Context) error {
	t, err := observe.NewTracing(context.WithoutCancel(ctx), r.cfg.Tracing, r.opts.SpanExporter)
	if err != nil {
		return err
	}
	r.tracing, r.caller.tracing = t, t
	return nil
}

// stopTracing exports the spans still queued, within the shutdown
// timeout: what a stopped Router does last. A collector that cannot take
// them is logged, not a failed stop: every request was answered.
func (r *Router) stopTracing() {
	ctx, cancel := context.WithTimeout(context.Background(), r.opts.ShutdownTimeout)
	defer cancel()
	if err := r.tracing.Shutdown(ctx); err != nil {
		r.log.Warn("trace export at shutdown failed", slog.String("error", err.Error())) //vocab:not-spec log attribute key
	}
}
