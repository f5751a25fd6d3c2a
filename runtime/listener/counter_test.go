package listener

import (
	"maps"
	"sync"

	"github.com/vllm-sr/systemone/runtime/ir"
)

// FormCounter counts, for one listener, the vllm-sr/4.0-only forms its
// clients use (the overlaps included), by form, as CountedDiagnostics counts them
// (once per request, not on the native endpoints): what the tests read
// back. It is safe for concurrent use, and its zero value is ready.
type FormCounter struct {
	mu       sync.Mutex
	forms    map[string]uint64
	requests uint64
}

// Record counts one read request: each legacy form its diagnostics name,
// once per request however often the form occurs.
func (c *FormCounter) Record(req *ClientRequest) {
	if req == nil || req.Endpoint == EndpointDecisions || req.Endpoint == EndpointBundle {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.requests++
	for i, d := range req.Diagnostics {
		if d.Kind != ir.DiagnosticLegacyForm || seenBefore(req.Diagnostics[:i], d.Form) {
			continue
		}
		if c.forms == nil {
			c.forms = make(map[string]uint64)
		}
		c.forms[d.Form]++
	}
}

// FormCounts is a snapshot of a FormCounter.
type FormCounts struct {
	// Requests is how many requests were recorded.
	Requests uint64
	// Forms maps each legacy form to how many requests used it.
	Forms map[string]uint64
}

// Snapshot returns a copy of the counts, which later requests do not change.
func (c *FormCounter) Snapshot() FormCounts {
	c.mu.Lock()
	defer c.mu.Unlock()
	return FormCounts{Requests: c.requests, Forms: maps.Clone(c.forms)}
}
