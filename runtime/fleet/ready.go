package fleet

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/front"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/routerconfig"
	"github.com/vllm-sr/systemone/runtime/upstream"
)

// The states of a deployment's readiness check.
const (
	checkUp        = "up"
	checkDown      = "down"
	checkUnchecked = "unchecked"
)

// outcomeNoReply is a check's outcome when no HTTP reply came.
const outcomeNoReply = "no_reply"

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

// Checks are the deployments' last readiness checks and health, by
// deployment name. They outlive a reload: a deployment the new
// configuration keeps keeps its last check until the next round. They are
// safe for concurrent use.
type Checks struct {
	mu     sync.Mutex
	last   map[string]check
	health map[string]health
	// refused holds the refusal of each deployment whose health refuses
	// its requests (contract.go); nil or empty while none is.
	refused atomic.Pointer[map[string]refusal]
}

// NewChecks returns checks of no deployment yet.
func NewChecks() *Checks {
	return &Checks{last: map[string]check{}, health: map[string]health{}}
}

// Prober is how a readiness check reaches a deployment: the client (it
// follows no redirect), the bound of one GET, what sets a deployment's
// credentials on it, and the log a change of contract goes to.
type Prober struct {
	Client    *http.Client
	Timeout   time.Duration
	Authorize func(h http.Header, key routerconfig.Secret)
	Log       *slog.Logger
}

// Check checks deployment d (its listing, and its runtime's contract
// where its schema has one), records what it found, and says whether d
// is up.
func (c *Checks) Check(ctx context.Context, p *Prober, d *routerconfig.Deployment) (up bool) {
	ch := p.checkListing(ctx, d)
	if h, read := p.readContract(ctx, d); read {
		c.noteHealth(ctx, p.Log, d, h)
	}
	if h := c.healthOf(d.Name); h.endpoint == d.Endpoint {
		if h.outcome != "" {
			ch.up, ch.outcome = false, h.outcome
		}
		ch.contract = h.contract
	}
	c.mu.Lock()
	c.last[d.Name] = ch
	c.mu.Unlock()
	return ch.up
}

// checkListing GETs d's listing: up on a 2xx reply.
func (p *Prober) checkListing(ctx context.Context, d *routerconfig.Deployment) check {
	c := check{outcome: outcomeNoReply, at: time.Now()}
	base, err := d.Target().BaseURL()
	if err != nil || d.Codec == nil {
		return c
	}
	ctx, cancel := context.WithTimeout(ctx, p.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+d.Codec.Traits().ListingPath, nil)
	if err != nil {
		return c
	}
	p.Authorize(req.Header, d.APIKey)
	resp, err := p.Client.Do(req)
	if err != nil {
		return c
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, upstream.MaxReplyBytes))
	resp.Body.Close()
	c.up = resp.StatusCode >= 200 && resp.StatusCode < 300
	c.outcome = front.StatusLabel(resp.StatusCode)
	return c
}

// Gauges are the deployments' gauges' values at now: up when the last
// check found it up and its circuit (healthOf) is not open.
func (c *Checks) Gauges(deployments []routerconfig.Deployment, healthOf func(*routerconfig.Deployment) *Health, now time.Time) []DeploymentHealth {
	c.mu.Lock()
	defer c.mu.Unlock()
	all := make([]DeploymentHealth, len(deployments))
	for i := range deployments {
		d := &deployments[i]
		circuit := healthOf(d).State(now)
		all[i] = DeploymentHealth{Name: d.Name, Up: c.last[d.Name].up && circuit != CircuitOpen, Circuit: circuit}
	}
	return all
}

// Readiness is whether the deployments make the Router ready, with the
// body of GET /ready (configuration its configuration member): every
// deployment the configuration marks required is healthy: its last check
// found it up and its circuit (healthOf) is not open (a required
// deployment not checked yet is not ready). The others' health is in the
// body and their gauges, and never makes the Router not ready: a
// deployment that is down is down for every replica, and a probe that
// pulled them all out of service would make one upstream's outage the
// fleet's.
func (c *Checks) Readiness(deployments []routerconfig.Deployment, healthOf func(*routerconfig.Deployment) *Health,
	configuration jsonvalue.Value) (bool, []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := time.Now()
	ready := true
	entries := make([]jsonvalue.Member, 0, len(deployments))
	for i := range deployments {
		d := &deployments[i]
		ch, checked := c.last[d.Name]
		circuit := healthOf(d).State(now)
		state := checkUnchecked
		members := []jsonvalue.Member{}
		if checked {
			state = checkDown
			if ch.up {
				state = checkUp
			}
			members = append(members, jsonvalue.Member{Name: "outcome", Value: jsonvalue.String(ch.outcome)}) //vocab:not-spec a /ready member
			if ch.contract != "" {
				members = append(members, jsonvalue.Member{Name: vocab.HealthAPIVersion, Value: jsonvalue.String(ch.contract)})
			}
			members = append(members, jsonvalue.Member{Name: "checked_at", Value: jsonvalue.String(ch.at.UTC().Format(time.RFC3339))})
		}
		// The fleet's members: required, and the circuit.
		members = append(members, jsonvalue.Member{Name: "required", Value: jsonvalue.Bool(d.Fleet.Required)}, //vocab:not-spec a /ready member
			jsonvalue.Member{Name: "circuit", Value: jsonvalue.String(circuit)}) //vocab:not-spec a /ready member
		if d.Fleet.Required && (!ch.up || circuit == CircuitOpen) {
			ready = false
		}
		members = append([]jsonvalue.Member{{Name: vocab.HealthStatus, Value: jsonvalue.String(state)}}, members...)
		entry, _ := jsonvalue.Object(members...)
		entries = append(entries, jsonvalue.Member{Name: d.Name, Value: entry})
	}
	status := "ready"
	if !ready {
		status = "not_ready"
	}
	byName, _ := jsonvalue.Object(entries...)
	body, _ := jsonvalue.Object(
		jsonvalue.Member{Name: vocab.HealthStatus, Value: jsonvalue.String(status)},
		jsonvalue.Member{Name: "configuration", Value: configuration},
		jsonvalue.Member{Name: "deployments", Value: byName})
	return ready, jsonvalue.Compact(body)
}
