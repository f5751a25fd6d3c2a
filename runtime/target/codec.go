package target

import (
	"net/http"
	"time"

	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/table"
)

// SpecRef names the specification a codec implements and the sha256 the
// generated tables were built from.
type SpecRef struct {
	Path   string
	SHA256 string
}

// Capability is one thing a target can carry or answer.
type Capability string

// CapabilitySet is a sorted set of capabilities.
type CapabilitySet []Capability

// Has reports whether c is in the set.
func (s CapabilitySet) Has(c Capability) bool {
	for _, x := range s {
		if x == c {
			return true
		}
	}
	return false
}

// Target is one deployment a plan is made for.
type Target struct {
	// Deployment is the configuration key, for errors and metrics.
	Deployment string
	// Endpoint is the deployment's POST /v1/systemone URL.
	Endpoint string
	// Model is what goes upstream as the request's model.
	Model string
	// MaxConcurrency bounds the split calls in flight (default 8).
	MaxConcurrency int
	// Capabilities are the card's or the declared ones.
	Capabilities CapabilitySet
	// Deviations are the deviation IDs applied after the codec, in order.
	Deviations []string
}

// Policy is the caller's per-call policy.
type Policy struct {
	// Deadline is when every call must have answered; zero for none.
	Deadline time.Time
}

// WireCall is one HTTP call of a plan.
type WireCall struct {
	Method string
	URL    string
	Header http.Header
	Body   []byte
	// Items are the names of the batch items this call carries, in order.
	Items []string
}

// WireReply is what one call got back; Err is set when no reply came
// (transport failure, deadline).
type WireReply struct {
	Status int
	Header http.Header
	Body   []byte
	Err    error
}

// Plan is the wire calls for one batch and how to run them.
type Plan struct {
	Calls []WireCall
	// MaxConcurrency bounds the calls in flight.
	MaxConcurrency int
	// Order is the batch's item names, in order, for reassembly.
	Order []string
	// Items are the batch's items with their questions, in Order: what a
	// call that failed or missed the deadline answers unknown.
	Items []PlannedItem
	// Deadline is the caller's deadline every call must answer by; zero
	// for none. Calls not answered by then leave only their own items'
	// questions unknown.
	Deadline time.Time
}

// ItemResult is one batch item's outcome: a response, or an error body.
type ItemResult struct {
	Name     string
	Response *ir.Response
	Error    *ir.ErrorBody
	// RetryAfter is the delay the upstream asked for (Retry-After-Ms or
	// Retry-After on a 429, 503 or 529); zero when none.
	RetryAfter time.Duration
}

// Codec is one upstream schema's codec.
type Codec interface {
	ID() table.SchemaID
	Spec() SpecRef
	Capabilities() CapabilitySet
	Stateless() bool
	Plan(b *ir.Batch, t Target, p Policy) (Plan, ir.Diagnostics, error)
	DecodeReply(p Plan, call WireCall, reply WireReply) ([]ItemResult, error)
	ListingPath() string
	DecodeListing(status int, body []byte) (*ir.Listing, error)
}
