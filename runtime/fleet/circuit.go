package fleet

import (
	"context"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/routerconfig"
	tc "github.com/vllm-sr/systemone/runtime/target"
)

// A deployment's circuit (routerconfig.Circuit): closed, it takes calls
// and counts the failures in a row; open, it takes none until its
// cool-down ends; half-open, it takes one probe call, whose Outcome
// closes it (an answer) or opens it again (a failure).
const (
	CircuitClosed   = "closed"
	CircuitHalfOpen = "half_open"
	CircuitOpen     = "open"
)

// Health is what the Router learnt of one deployment from its calls:
// its circuit and the delay its last busy answer asked for. One lives as
// long as the process for each deployment name and endpoint (fleet), so a
// reload that keeps a deployment keeps its circuit.
//
// The happy path reads two atomics and writes none: a call answered on a
// closed circuit with no failure counted changes nothing.
type Health struct {
	name string
	// failures counts the failures in a row while closed.
	failures atomic.Int32
	// openUntil is when the open circuit's cool-down ends (UnixNano); 0
	// while closed. Past it the circuit is half-open.
	openUntil atomic.Int64
	// mu orders the transitions and guards probing.
	mu sync.Mutex
	// probing: a half-open circuit's probe call is out, the probe-th.
	probing bool
	probe   uint64
	// busyUntil is when the delay the deployment's last 429, 503 or 529
	// asked for with Retry-After ends (UnixNano), busyStatus that status:
	// a pool passes the member over until then.
	busyUntil  atomic.Int64
	busyStatus atomic.Int32
	// down: the last readiness check found the deployment down; a pool
	// tries it after its other members.
	down atomic.Bool
	// changed is called after each transition of the circuit, outside mu.
	changed func(*Health)
}

// Outcome is what one call says about its deployment's health.
type Outcome int8

const (
	// OutcomeNeutral: nothing either way (the caller's own deadline or
	// cancellation, a broken reply, a 429 or a 500).
	OutcomeNeutral Outcome = iota
	// OutcomeAnswered: the deployment answered (2xx, a refusal that
	// blames the request, ...): a run of failures ends.
	OutcomeAnswered
	// OutcomeFailed: it failed before any answer (retryable).
	OutcomeFailed
)

// State is the circuit's state at now.
func (h *Health) State(now time.Time) string {
	until := h.openUntil.Load()
	switch {
	case until == 0:
		return CircuitClosed
	case now.UnixNano() < until:
		return CircuitOpen
	}
	return CircuitHalfOpen
}

// Admit says whether a request may call the deployment now. A request
// admitted by a half-open circuit is its probe (probe > 0), and calls
// endProbe(probe) when its calls are done. When not admitted, wait is the
// cool-down left (0 while another request's probe is out).
func (h *Health) Admit(now time.Time) (ok bool, probe uint64, wait time.Duration) {
	until := h.openUntil.Load()
	if until == 0 {
		return true, 0, 0
	}
	if left := time.Duration(until - now.UnixNano()); left > 0 {
		return false, 0, left
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.openUntil.Load() == 0 { // closed meanwhile
		return true, 0, 0
	}
	if h.probing {
		return false, 0, 0
	}
	h.probing = true
	h.probe++
	return true, h.probe, 0
}

// EndProbe frees the probe-th probe when its calls decided nothing (its
// client left, its caller's deadline passed first, no call was made), so
// that the next request probes; a probe whose call answered or failed has
// closed or opened the circuit already. 0 is no probe.
func (h *Health) EndProbe(probe uint64) {
	if probe == 0 {
		return
	}
	h.mu.Lock()
	if h.probe == probe {
		h.probing = false
	}
	h.mu.Unlock()
}

// Note records a call's outcome under the deployment's circuit settings.
func (h *Health) Note(o Outcome, c routerconfig.Circuit) {
	switch {
	case o == OutcomeAnswered && h.failures.Load() == 0 && h.openUntil.Load() == 0: // the happy path
	case o == OutcomeAnswered:
		h.answered()
	case o == OutcomeFailed:
		h.failed(c)
	}
}

// answered ends a run of failures; a half-open circuit closes (an open
// one stays open: the answer is of a call sent before it opened).
func (h *Health) answered() {
	h.failures.Store(0)
	h.mu.Lock()
	until := h.openUntil.Load()
	closed := until != 0 && time.Now().UnixNano() >= until
	if closed {
		h.openUntil.Store(0)
		h.probing = false
	}
	h.mu.Unlock()
	if closed {
		h.changed(h)
	}
}

// failed counts a failure: the failures-th in a row opens the circuit
// for the cool-down, and a half-open circuit's failure opens it again.
func (h *Health) failed(c routerconfig.Circuit) {
	n := h.failures.Add(1)
	if c.Failures == 0 {
		return
	}
	h.mu.Lock()
	now := time.Now()
	until := h.openUntil.Load()
	open := until == 0 && int(n) >= c.Failures || until != 0 && now.UnixNano() >= until
	if open {
		h.openUntil.Store(now.Add(c.CoolDown).UnixNano())
		h.probing = false
	}
	h.mu.Unlock()
	if open {
		h.changed(h)
	}
}

// NoteBusy records the delay a 429, 503 or 529 asked for with
// Retry-After (or Retry-After-Ms); a reply that gave none records nothing.
func (h *Health) NoteBusy(reply *tc.WireReply) {
	if !tc.AsksRetry(reply.Status) {
		return
	}
	if d := tc.RetryAfter(reply.Header); d > 0 {
		h.busyStatus.Store(int32(reply.Status))
		h.busyUntil.Store(time.Now().Add(d).UnixNano())
	}
}

// SetDown notes what the last readiness check found: the deployment
// down (true) or up.
func (h *Health) SetDown(down bool) { h.down.Store(down) }

// Down says whether the last readiness check found the deployment down.
func (h *Health) Down() bool { return h.down.Load() }

// Busy is the answer the deployment gave with a Retry-After that has not
// ended at now, and the delay left; nil when none.
func (h *Health) Busy(now time.Time) (*ir.ErrorBody, time.Duration) {
	left := time.Duration(h.busyUntil.Load() - now.UnixNano())
	if left <= 0 {
		return nil, 0
	}
	status := int(h.busyStatus.Load())
	e, _ := tc.ReplyReader{}.Error(status, http.Header{}, nil, nil)
	return e, left
}

// CircuitRefusal is the 503 a request to deployment d gets while its
// circuit is open (or its probe is out), naming the deployment.
func CircuitRefusal(d string) *ir.ErrorBody {
	return listener.ErrorOf(ir.ErrorUnavailable, vocab.ReasonCircuitOpen,
		"deployment "+quote(d)+" is not taking calls: its last calls failed one after another, so its circuit is open until its cool-down ends; retry after the delay Retry-After gives")
}

// Fleet holds every deployment's Health, by name; an entry is made
// again when a reload gives the name another endpoint.
type Fleet struct {
	mu     sync.Mutex
	byName map[string]*fleetEntry
	log    *slog.Logger
	// changed is called after a circuit's transition: metrics and
	// vsr_ready follow (set by Start; nil before).
	changed atomic.Pointer[func(*Health)]
}

type fleetEntry struct {
	endpoint string
	health   *Health
}

// New returns an empty fleet, logging circuit changes to log.
func New(log *slog.Logger) *Fleet {
	return &Fleet{byName: map[string]*fleetEntry{}, log: log}
}

// Of is deployment d's Health.
func (f *Fleet) Of(d *routerconfig.Deployment) *Health {
	f.mu.Lock()
	defer f.mu.Unlock()
	if e, ok := f.byName[d.Name]; ok && e.endpoint == d.Endpoint {
		return e.health
	}
	h := &Health{name: d.Name, changed: f.transition}
	f.byName[d.Name] = &fleetEntry{endpoint: d.Endpoint, health: h}
	return h
}

// OnChange has fn called after each circuit's transition (metrics and
// readiness follow it); it replaces any fn set before.
func (f *Fleet) OnChange(fn func(*Health)) { f.changed.Store(&fn) }

// transition logs a circuit's change and hands it on.
func (f *Fleet) transition(h *Health) {
	ctx := context.Background()
	switch state := h.State(time.Now()); state {
	case CircuitOpen:
		f.log.LogAttrs(ctx, slog.LevelWarn, "deployment "+quote(h.name)+": circuit opened after calls that failed one after another; no call goes to it until its cool-down ends",
			slog.String("deployment", h.name), slog.String("circuit", state)) //vocab:not-spec log attribute keys
	default:
		f.log.LogAttrs(ctx, slog.LevelInfo, "deployment "+quote(h.name)+": circuit closed, its probe call answered",
			slog.String("deployment", h.name), slog.String("circuit", state)) //vocab:not-spec log attribute keys
	}
	if fn := f.changed.Load(); fn != nil {
		(*fn)(h)
	}
}

// quote is s in double quotes: a configuration name in a message.
func quote(s string) string { return `"` + s + `"` }
