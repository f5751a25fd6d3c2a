package target

import (
	"cmp"
	"net/http"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/shapes"
	"github.com/vllm-sr/systemone/runtime/table"
)

// Internal is the Router's client codec for the hops inside a
// deployment: the Router to a model runtime's POST /v1/decisions and POST
// /v1/bundle, in the internal wire form (shapes: the 4.0 request
// forms plus roles). It is stateless and safe for concurrent use.
//
// It is lossless: every request goes on as shapes writes it from
// the IR, member order, 4.0 spellings, number literals, implicit roles and
// options.long_context included, so every model input the Router builds
// is byte for byte what it was. A batch of one request is one
// /v1/decisions call with the target's model; a larger batch (a stage
// bundle) is one /v1/bundle call with the target's model, each item
// carrying its own options (the batch's, when the item has none). A
// request that reads past the model's validated length also sends the
// standard's long-context header (a bundle: when every request does),
// which the runtime honours on every endpoint, beside the body's flag.
//
// Replies are the runtime's: /v1/decisions answers in a 200 with a failed
// question's error, reason and message in its own answer, and /v1/bundle
// answers each request under its name. Both are read with the extension
// members.
var Internal internalCodec

// internalCodec is Internal's type; its zero value is ready.
type internalCodec struct{}

var _ Codec = internalCodec{}

var internalReader = NewReplyReader(table.SchemaInternal)

// internalTraits: the runtime answers everything; the internal form reads
// an object state without roles as implicit roles.
var internalTraits = Traits{
	Schema:        table.SchemaInternal,
	Capabilities:  AllCapabilities(),
	Stateless:     true,
	ListingPath:   vocab.PathModels,
	ImplicitRoles: true,
}

// Traits are the internal form's. (Its specification, the frozen 4.0
// contract whose request forms it keeps, is the registry entry's.)
func (internalCodec) Traits() Traits { return internalTraits }

// DecodeListing reads the runtime's listing with its cards.
func (internalCodec) DecodeListing(status int, body []byte) (*ir.Listing, error) {
	return internalReader.Listing(status, body)
}

// Plan writes b as one call: /v1/decisions for one request, /v1/bundle
// for more.
func (internalCodec) Plan(b *ir.Batch, t Target, p Policy) (Plan, ir.Diagnostics, error) {
	base, err := OneCallBase(b, t)
	if err != nil {
		return Plan{}, nil, err
	}
	if len(b.Items) > 1 {
		return planBundle(b, t, p, base)
	}
	body, err := decisionsBody(b.Items[0].Request, t.Model, b.Options)
	if err != nil {
		return Plan{}, nil, err
	}
	long := LongContext(&b.Items[0].Request, b.Options)
	return oneCall(b, t, p, WireCall{Method: http.MethodPost, URL: base + vocab.PathDecisions, Header: callHeader(long, false), Body: body}), nil, nil
}

// planBundle plans b as one POST /v1/bundle call to base in the internal
// form: the target's model answers every item, and each item carries its
// own options (the batch's, when it has none: a bundle has none of its
// own), the long-context flag among them, in its body.
func planBundle(b *ir.Batch, t Target, p Policy, base string) (Plan, ir.Diagnostics, error) {
	model := t.Model
	bundle := ir.Batch{Model: &model, Layout: b.Layout, Extra: b.Extra, Items: make([]ir.BatchItem, len(b.Items))}
	long := true // the header says it of every request: only when each body does
	for i := range b.Items {
		r := b.Items[i].Request
		r.Model = nil
		r.Options = cmp.Or(r.Options, b.Options)
		long = long && LongContext(&r, nil)
		bundle.Items[i] = ir.BatchItem{Name: b.Items[i].Name, Request: r}
	}
	body, err := shapes.EncodeBundle(&bundle)
	if err != nil {
		return Plan{}, nil, err
	}
	return oneCall(b, t, p, WireCall{Method: http.MethodPost, URL: base + vocab.PathBundle, Header: callHeader(long, false), Body: body}), nil, nil
}

// decisionsBody is r as a POST /v1/decisions body in the internal form,
// losslessly as shapes writes it, with model as its model and its
// own options, else the batch's.
func decisionsBody(r ir.Request, model string, batch *ir.Options) ([]byte, error) {
	r.Model = &model
	r.Options = cmp.Or(r.Options, batch)
	return shapes.EncodeRequest(&r)
}

// DecodeReply reads the call's reply: one response for /v1/decisions, a
// batch response for /v1/bundle.
func (internalCodec) DecodeReply(p Plan, call WireCall, reply WireReply) ([]ItemResult, error) {
	items, ok := CallItems(&p, &call)
	if !ok {
		return nil, ErrCallNotInPlan
	}
	if len(items) == 1 && len(p.Order) == 1 {
		return internalReader.SingleResults(&p, &call, items[0], &reply), nil
	}
	return internalReader.BatchResults(&p, &call, items, &reply), nil
}

// WriteRequest writes r alone as a POST /v1/decisions body, losslessly:
// exactly what shapes writes, with the request's own model.
func (internalCodec) WriteRequest(r *ir.Request, t Target) (WireCall, ir.Diagnostics, error) {
	body, err := shapes.EncodeRequest(r)
	if err != nil {
		return WireCall{}, nil, err
	}
	base, _ := t.BaseURL()
	return WireCall{Method: http.MethodPost, URL: base + vocab.PathDecisions, Header: callHeader(LongContext(r, nil), false), Body: body, Items: []string{SingleItem}}, nil, nil
}

// ReadRequest reads one request in the internal form, with the 4.0-only
// forms it used as diagnostics (shapes.DecodeRequest).
func (internalCodec) ReadRequest(body []byte) (*ir.Request, ir.Diagnostics, error) {
	return shapes.DecodeRequest(body)
}
