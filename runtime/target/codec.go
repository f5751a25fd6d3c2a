package target

import (
	"net/http"
	"slices"
	"time"

	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/table"
)

// Capability is one thing a target can carry or answer.
type Capability string

// CapabilitySet is a sorted set of capabilities.
type CapabilitySet []Capability

// Has reports whether c is in the set.
func (s CapabilitySet) Has(c Capability) bool { return slices.Contains(s, c) }

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
	// Header is shared by the codec's calls that carry the same flags:
	// read it, never modify it; a caller or deviation that adds a header
	// sets a copy (http.Header.Clone).
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
	// Cause is what made Error that only the log may hold: a reply that
	// breaks its schema, naming the upstream's own member (MalformedReply).
	Cause error
}

// Traits are what a codec's schema is, as data: fixed for the codec's
// life, read by the registry (which checks them), the configuration and
// the engine. The specification a schema is checked against is not a
// trait: the schema registry's entry holds it.
type Traits struct {
	// Schema is the schema ID the codec speaks.
	Schema table.SchemaID
	// Capabilities are what the schema carries, sorted. The slice is the
	// codec's own, shared by every caller: read it, never modify it.
	Capabilities CapabilitySet
	// Stateless: the codec keeps nothing between calls, so one value
	// serves every request concurrently. The registry refuses a codec
	// that is not.
	Stateless bool
	// ListingPath is the schema's GET model listing, below the target's
	// base URL (ListingDecoder reads it); "" for none.
	ListingPath string
	// HealthPath is the GET, below the target's base URL, at which a
	// server of the schema reports the model runtime contract it speaks
	// (api_version, a vllm-sr runtime's GET /health), which a Router
	// refuses when it is not its own; "" for a schema whose servers have
	// no such contract (the standard's).
	HealthPath string
	// Native: the schema is vllm-sr's own, whose servers also read the
	// internal form on the native endpoints (/v1/decisions, /v1/bundle),
	// so a request its listener planned pass-through may go there with
	// the client's own bytes instead of this codec's plan.
	Native bool
	// ImplicitRoles: the schema reads the keys of an object state sent
	// without roles as 4.0's implicit roles (the internal form), so a
	// request built from named parts leaves roles absent rather than
	// spelling them out.
	ImplicitRoles bool
}

// Planner plans the wire calls of a batch for a target: how many calls,
// which items each carries, their bodies and headers. Splitting and
// preset expansion are decided here, never by callers.
type Planner interface {
	Plan(b *ir.Batch, t Target, p Policy) (Plan, ir.Diagnostics, error)
}

// ReplyDecoder reads one call's reply back into the IR: one result per
// item the call carried. A reply the schema does not define fails the
// call's items, never the whole plan.
type ReplyDecoder interface {
	DecodeReply(p Plan, call WireCall, reply WireReply) ([]ItemResult, error)
}

// ListingDecoder reads the reply of a target's model listing
// (Traits.ListingPath).
type ListingDecoder interface {
	DecodeListing(status int, body []byte) (*ir.Listing, error)
}

// HealthDecoder is implemented by a codec whose schema has a health path
// (Traits.HealthPath): it reads the GET reply there, after the schema's
// generated validator, into ir.Health. A body its schema does not define
// is a *ir.ProtocolError naming the first problem's path.
type HealthDecoder interface {
	DecodeHealth(body []byte) (*ir.Health, error)
}

// RequestWriter writes one request alone, in the form the schema's
// single-request endpoint takes it, with the request's own model: the
// body, headers and diagnostics `vllm-sr convert` prints. t names the
// deployment in refusals and gives the endpoint; its Model is not used.
// The call carries one item, SingleItem.
type RequestWriter interface {
	WriteRequest(r *ir.Request, t Target) (WireCall, ir.Diagnostics, error)
}

// Codec is one upstream schema's codec, as the schema registry binds it
// to the schema's ID: its traits, and the four things it does.
type Codec interface {
	Traits() Traits
	Planner
	ReplyDecoder
	ListingDecoder
	RequestWriter
}

// RequestReader is implemented by a codec whose schema no listener codec
// reads (systemone/0.2, the internal form): it reads one request body of
// its schema into the IR, with the diagnostics of the forms it used, for
// `vllm-sr convert --from`.
type RequestReader interface {
	ReadRequest(body []byte) (*ir.Request, ir.Diagnostics, error)
}

// CarryChecker is implemented by a codec whose schema cannot carry all of
// the IR (systemone/0.2): it lists what r asks for that the schema, or
// t's declared capabilities, cannot carry, with paths below at. A codec
// that is no CarryChecker carries every request; CheckCarry applies it.
type CarryChecker interface {
	CheckCarry(r *ir.Request, t Target, at ir.Path) []Missing
}

// SingleItem names the one batch item a request alone travels as: a
// client's single request on the Router, and convert's body. It is data,
// seen only in paths (requests.request...) of messages.
const SingleItem = "request" //vocab:not-spec a batch item's name (data), not the request part
