package targetinternal

import (
	"net/http"

	"github.com/vllm-sr/systemone/generated/fieldtable"
	"github.com/vllm-sr/systemone/runtime/internalwire"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/table"
	tc "github.com/vllm-sr/systemone/runtime/targetcodec"
	"github.com/vllm-sr/systemone/runtime/upstreamreply"
)

// The runtime's native endpoints.
const (
	DecisionsPath = "/v1/decisions"
	BundlePath    = "/v1/bundle"
)

// Codec is the internal client codec. The zero value is ready; it is
// stateless and safe for concurrent use.
type Codec struct{}

var _ tc.Codec = Codec{}

var reader = upstreamreply.Reader{Extensions: true}

// ID returns internal.
func (Codec) ID() table.SchemaID { return table.SchemaInternal }

// Spec names the frozen 4.0 contract, whose request forms the internal
// form keeps (roles comes from the extension specification).
func (Codec) Spec() tc.SpecRef {
	return tc.SpecRef{Path: fieldtable.SpecVllmSR40Path, SHA256: fieldtable.SpecVllmSR40SHA256}
}

// Capabilities are everything the runtime answers, sorted.
func (Codec) Capabilities() tc.CapabilitySet {
	return tc.AllCapabilities()
}

// Stateless reports true.
func (Codec) Stateless() bool { return true }

// ListingPath is GET /v1/models.
func (Codec) ListingPath() string { return "/v1/models" }

// DecodeListing reads the runtime's listing with its cards.
func (Codec) DecodeListing(status int, body []byte) (*ir.Listing, error) {
	return reader.Listing(status, body)
}

// Plan writes b as one call: /v1/decisions for one request, /v1/bundle
// for more.
func (Codec) Plan(b *ir.Batch, t tc.Target, p tc.Policy) (tc.Plan, ir.Diagnostics, error) {
	base, err := tc.OneCallBase(b, t)
	if err != nil {
		return tc.Plan{}, nil, err
	}
	model := t.Model
	var url string
	var body []byte
	if len(b.Items) == 1 {
		r := b.Items[0].Request
		r.Model = &model
		r.Options = itemOptions(&r, b.Options)
		url = base + DecisionsPath
		body, err = internalwire.EncodeRequest(&r)
	} else {
		bundle := ir.Batch{Model: &model, Layout: b.Layout, Items: make([]ir.BatchItem, len(b.Items))}
		for i := range b.Items {
			r := b.Items[i].Request
			r.Model = nil // the bundle's model answers every item
			r.Options = itemOptions(&r, b.Options)
			bundle.Items[i] = ir.BatchItem{Name: b.Items[i].Name, Request: r}
		}
		url = base + BundlePath
		body, err = internalwire.EncodeBundle(&bundle)
	}
	if err != nil {
		return tc.Plan{}, nil, err
	}
	order, items := tc.PlanItems(b)
	return tc.Plan{
		Calls:          []tc.WireCall{{Method: http.MethodPost, URL: url, Header: tc.JSONHeader(), Body: body, Items: order}},
		MaxConcurrency: t.MaxConcurrencyOrDefault(),
		Order:          order,
		Items:          items,
		Deadline:       p.Deadline,
	}, nil, nil
}

// itemOptions are the options an item goes with: its own, else the
// batch's (the bundle has none of its own).
func itemOptions(r *ir.Request, batch *ir.Options) *ir.Options {
	if r.Options != nil {
		return r.Options
	}
	return batch
}

// DecodeReply reads the call's reply: one response for /v1/decisions, a
// batch response for /v1/bundle.
func (Codec) DecodeReply(p tc.Plan, call tc.WireCall, reply tc.WireReply) ([]tc.ItemResult, error) {
	items, ok := upstreamreply.CallItems(&p, &call)
	if !ok {
		return nil, tc.ErrCallNotInPlan
	}
	if len(items) == 1 && len(p.Order) == 1 {
		return reader.SingleResults(&p, &call, items[0], &reply), nil
	}
	return reader.BatchResults(&p, &call, items, &reply), nil
}
