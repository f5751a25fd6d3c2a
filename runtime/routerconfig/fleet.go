package routerconfig

import (
	"fmt"
	"strings"
	"time"

	yaml "go.yaml.in/yaml/v3"
)

// Fleet is how the Router treats a deployment among others: whether the
// Router's own readiness waits on it, how often a failed call is tried
// again, how long one call may take, and when its circuit opens. The zero
// value is not the default: a loaded deployment has DefaultFleet's values
// where the configuration gives none.
type Fleet struct {
	// Required: GET /ready answers 503 while this deployment is not
	// healthy (its last check found it down, or its circuit is open).
	// A deployment that is not required shows its health in /ready's body
	// and metrics, and never changes /ready's status: one stopped upstream
	// must not pull every Router replica out of service.
	Required bool
	// Retries is how many times a call that failed before any answer
	// (refused, reset, timed out, or answered 502, 503, 504 or 529) is
	// sent again to this deployment, after a jittered backoff and never
	// past the caller's deadline. 0: none.
	Retries int
	// Timeout bounds each call (timeout_ms), under the caller's deadline;
	// 0: the caller's deadline alone, else the Router's 30 s.
	Timeout time.Duration
	// Circuit is when the deployment's circuit opens and for how long.
	Circuit Circuit
	// Connections is how its kept-alive connections are reused
	// (connections.go).
	Connections Connections
}

// Circuit is a deployment's circuit breaker: after Failures calls in a
// row failed as Fleet.Retries counts failures, no call goes to the
// deployment for CoolDown; then one probe call decides whether it closes
// (the probe answered) or opens again. Failures 0 never opens it.
type Circuit struct {
	Failures int
	CoolDown time.Duration
}

// The defaults of a deployment's fleet settings.
const (
	DefaultCircuitFailures = 5
	DefaultCircuitCoolDown = 10 * time.Second
	// MaxRetries bounds retries: each one is a whole call more.
	MaxRetries = 10
	// maxCoolDownMs bounds cool_down_ms: an hour.
	maxCoolDownMs = 3_600_000
	// maxCircuitFailures bounds circuit.failures.
	maxCircuitFailures = 1000
)

// DefaultFleet is a deployment's fleet settings when the configuration
// gives none: not required, no retry, no timeout of its own, a circuit
// that opens after DefaultCircuitFailures failures for
// DefaultCircuitCoolDown.
var DefaultFleet = Fleet{Circuit: Circuit{Failures: DefaultCircuitFailures, CoolDown: DefaultCircuitCoolDown}}

var circuitKeys = keysOf(circuitForm{})

// fleet reads a deployment's fleet settings, those present.
func (l *loader) fleet(s section) Fleet {
	f := DefaultFleet
	if n, has := s.value("required"); has { //vocab:not-spec Router config key
		f.Required, _ = l.boolean(n, s.at("required")) //vocab:not-spec Router config key
	}
	if n, has := s.value("retries"); has {
		if v, ok := l.integer(n, s.at("retries"), 0, MaxRetries); ok {
			f.Retries = int(v)
		}
	}
	if n, has := s.value("timeout_ms"); has {
		if ms, ok := l.integer(n, s.at("timeout_ms"), 1, maxTimeoutMs); ok {
			f.Timeout = time.Duration(ms) * time.Millisecond
		}
	}
	if n, has := s.value("circuit"); has {
		if c, ok := l.fields(n, s.at("circuit"), circuitKeys, nil); ok {
			if v, has := c.value("failures"); has {
				if k, ok := l.integer(v, c.at("failures"), 0, maxCircuitFailures); ok {
					f.Circuit.Failures = int(k)
				}
			}
			if v, has := c.value("cool_down_ms"); has {
				if ms, ok := l.integer(v, c.at("cool_down_ms"), 1, maxCoolDownMs); ok {
					f.Circuit.CoolDown = time.Duration(ms) * time.Millisecond
				}
			}
		}
	}
	return f
}

// boolean reads a true or false scalar.
func (r *reader) boolean(n *yaml.Node, path string) (bool, bool) {
	n = resolve(n)
	var v bool
	if n.Kind != yaml.ScalarNode || n.Tag != "!!bool" || n.Decode(&v) != nil {
		r.fail(n, path, "must be true or false, not %s", kindName(n))
		return false, false
	}
	return v, true
}

// fleetText is what Describe adds for a deployment's fleet settings that
// are not DefaultFleet's; "" for none.
func fleetText(f Fleet) string {
	var b strings.Builder
	if f.Required {
		b.WriteString(" required")
	}
	if f.Retries != 0 {
		fmt.Fprintf(&b, " retries=%d", f.Retries)
	}
	if f.Timeout != 0 {
		fmt.Fprintf(&b, " timeout=%s", f.Timeout)
	}
	if f.Circuit != DefaultFleet.Circuit {
		fmt.Fprintf(&b, " circuit=%d/%s", f.Circuit.Failures, f.Circuit.CoolDown)
	}
	b.WriteString(connectionsText(f.Connections))
	return b.String()
}
