package router

import (
	"context"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/fleet"
	"github.com/vllm-sr/systemone/runtime/front"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/observe"
	"github.com/vllm-sr/systemone/runtime/routerconfig"
	"github.com/vllm-sr/systemone/runtime/upstream"
)

// The states of a deployment's readiness check.
const (
	checkUp        = "up"
	checkDown      = "down"
	checkUnchecked = "unchecked"
)

// check is a deployment's last readiness check: a GET of its listing
// (the target codec's Traits().ListingPath), up on a 2xx reply, and of
// its runtime's contract where its schema has one (contract.go), which a
// named outcome of its health overrides.
type check struct {
	up bool
	// outcome is the health's named outcome, else the listing reply's
	// status, or no_reply.
	outcome string
	// contract is the contract the runtime reported; "" for none.
	contract string
	at       time.Time
}

// checks are the deployments' last readiness checks and health, by
// deployment name. They outlive a reload: a deployment the new
// configuration keeps keeps its last check until the next round.
type checks struct {
	mu     sync.Mutex
	last   map[string]check
	health map[string]health
	// refused holds the refusal of each deployment whose health refuses
	// its requests (contract.go); nil or empty while none is.
	refused atomic.Pointer[map[string]refusal]
}

func newChecks() *checks {
	return &checks{last: map[string]check{}, health: map[string]health{}}
}

// checkLoop checks every deployment of the configuration in force at
// once, then every CheckInterval and after each reload, until ctx is done.
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

// checkAll checks r's deployments concurrently, each within the listing
// timeout; the caller publishes the result (publishReady).
func (r *Router) checkAll(ctx context.Context) {
	var wg sync.WaitGroup
	for i := range r.cfg.Deployments {
		d := &r.cfg.Deployments[i]
		wg.Go(func() {
			c := r.checkOne(ctx, d)
			if h, read := r.readContract(ctx, d); read {
				r.noteHealth(ctx, d, h)
			}
			if h := r.checks.healthOf(d.Name); h.endpoint == d.Endpoint {
				if h.outcome != "" {
					c.up, c.outcome = false, h.outcome
				}
				c.contract = h.contract
			}
			r.checks.mu.Lock()
			r.checks.last[d.Name] = c
			r.checks.mu.Unlock()
			r.callers[d].health.SetDown(!c.up) // a pool tries it last (auto.go)
		})
	}
	wg.Wait()
}

// publishReady sets vsr_ready and each deployment's gauges from r's
// readiness: after each readiness round, and each circuit's transition.
func (r *Router) publishReady() {
	ready, _ := r.readiness()
	r.metrics.SetReady(ready)
	now := time.Now()
	r.checks.mu.Lock()
	all := make([]fleet.DeploymentHealth, len(r.cfg.Deployments))
	for i := range r.cfg.Deployments {
		d := &r.cfg.Deployments[i]
		circuit := r.callers[d].health.State(now)
		all[i] = fleet.DeploymentHealth{Name: d.Name, Up: r.checks.last[d.Name].up && circuit != fleet.CircuitOpen, Circuit: circuit}
	}
	r.checks.mu.Unlock()
	r.metrics.fleet.ShowAll(r.generation, all)
}

func (r *Router) checkOne(ctx context.Context, d *routerconfig.Deployment) check {
	c := check{outcome: observe.OutcomeNoReply, at: time.Now()}
	base, err := d.Target().BaseURL()
	if err != nil || d.Codec == nil {
		return c
	}
	ctx, cancel := context.WithTimeout(ctx, r.opts.ListingTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+d.Codec.Traits().ListingPath, nil)
	if err != nil {
		return c
	}
	authorize(req.Header, d.APIKey) // auth.go
	resp, err := r.opts.Client.Do(req)
	if err != nil {
		return c
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, upstream.MaxReplyBytes))
	resp.Body.Close()
	c.up = resp.StatusCode >= 200 && resp.StatusCode < 300
	c.outcome = front.StatusLabel(resp.StatusCode)
	return c
}

// readiness is whether r is ready, with the body of GET /ready: the
// configuration is loaded (r exists, and its listeners serve: they are
// bound before any serves), and every deployment the configuration marks
// required is healthy: its last check found it up and its circuit is not
// open (a required deployment not checked yet is not ready). The others'
// health is in the body and their gauges, and never makes the Router not
// ready: a deployment that is down is down for every replica, and a probe
// that pulled them all out of service would make one upstream's outage
// the fleet's.
func (r *Router) readiness() (bool, []byte) {
	r.checks.mu.Lock()
	defer r.checks.mu.Unlock()
	now := time.Now()
	ready := true
	deployments := make([]jsonvalue.Member, 0, len(r.cfg.Deployments))
	for i := range r.cfg.Deployments {
		d := &r.cfg.Deployments[i]
		c, checked := r.checks.last[d.Name]
		circuit := r.callers[d].health.State(now)
		state := checkUnchecked
		members := []jsonvalue.Member{}
		if checked {
			state = checkDown
			if c.up {
				state = checkUp
			}
			members = append(members, jsonvalue.Member{Name: "outcome", Value: jsonvalue.String(c.outcome)}) //vocab:not-spec a /ready member
			if c.contract != "" {
				members = append(members, jsonvalue.Member{Name: vocab.HealthAPIVersion, Value: jsonvalue.String(c.contract)})
			}
			members = append(members, jsonvalue.Member{Name: "checked_at", Value: jsonvalue.String(c.at.UTC().Format(time.RFC3339))})
		}
		// The fleet's members (failover.go): required, and the circuit.
		members = append(members, jsonvalue.Member{Name: "required", Value: jsonvalue.Bool(d.Fleet.Required)}, //vocab:not-spec a /ready member
			jsonvalue.Member{Name: "circuit", Value: jsonvalue.String(circuit)}) //vocab:not-spec a /ready member
		if d.Fleet.Required && (!c.up || circuit == fleet.CircuitOpen) {
			ready = false
		}
		members = append([]jsonvalue.Member{{Name: vocab.HealthStatus, Value: jsonvalue.String(state)}}, members...)
		entry, _ := jsonvalue.Object(members...)
		deployments = append(deployments, jsonvalue.Member{Name: d.Name, Value: entry})
	}
	status := "ready"
	if !ready {
		status = "not_ready"
	}
	byName, _ := jsonvalue.Object(deployments...)
	body, _ := jsonvalue.Object(
		jsonvalue.Member{Name: vocab.HealthStatus, Value: jsonvalue.String(status)},
		jsonvalue.Member{Name: "configuration", Value: r.config.member()}, // configstate.go
		jsonvalue.Member{Name: "deployments", Value: byName})
	return ready, jsonvalue.Compact(body)
}
