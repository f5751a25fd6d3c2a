package router

import (
	"context"
	"sync"
	"time"

	"github.com/vllm-sr/systemone/runtime/fleet"
	"github.com/vllm-sr/systemone/runtime/routerconfig"
)

// checkLoop checks every deployment of the configuration in force at
// once, then every CheckInterval and after each reload, until ctx is done
// (runtime/fleet's Checks).
func (run *Running) checkLoop(ctx context.Context) {
	r := run.current.Load()
	t := time.NewTicker(r.opts.CheckInterval)
	defer t.Stop()
	for {
		run.current.Load().checkAll(ctx)
		// The configuration in force publishes: a reload during the round
		// has already dropped the series of what the round's Router had.
		run.current.Load().publishReady()
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-run.checkNow:
		}
	}
}

// prober is how r's readiness checks reach its deployments: its client,
// each GET within the listing timeout, with the deployment's key (auth.go).
func (r *Router) prober() *fleet.Prober {
	return &fleet.Prober{Client: r.opts.Client, Timeout: r.opts.ListingTimeout, Authorize: authorize, Log: r.log}
}

// checkAll checks r's deployments concurrently; a deployment found down
// is tried last by a pool (auto.go). The caller publishes the result
// (publishReady).
func (r *Router) checkAll(ctx context.Context) {
	p := r.prober()
	var wg sync.WaitGroup
	for i := range r.cfg.Deployments {
		d := &r.cfg.Deployments[i]
		wg.Go(func() { r.callers[d].health.SetDown(!r.checks.Check(ctx, p, d)) })
	}
	wg.Wait()
}

// healthOf is deployment d's call health.
func (r *Router) healthOf(d *routerconfig.Deployment) *fleet.Health { return r.callers[d].health }

// publishReady sets vsr_ready and each deployment's gauges from r's
// readiness: after each readiness round, and each circuit's transition.
func (r *Router) publishReady() {
	ready, _ := r.readiness()
	r.metrics.SetReady(ready)
	r.metrics.fleet.ShowAll(r.generation, r.checks.Gauges(r.cfg.Deployments, r.healthOf, time.Now()))
}

// readiness is whether r is ready, with the body of GET /ready: the
// configuration is loaded (r exists, and its listeners serve: they are
// bound before any serves), and its required deployments are healthy
// (fleet.Checks.Readiness).
func (r *Router) readiness() (bool, []byte) {
	return r.checks.Readiness(r.cfg.Deployments, r.healthOf, r.config.member()) // configstate.go
}
