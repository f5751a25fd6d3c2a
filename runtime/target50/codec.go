package target50

import (
	"net/http"
	"reflect"

	"github.com/vllm-sr/systemone/generated/fieldtable"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/presetexpand"
	"github.com/vllm-sr/systemone/runtime/requestwire"
	"github.com/vllm-sr/systemone/runtime/table"
	tc "github.com/vllm-sr/systemone/runtime/targetcodec"
	"github.com/vllm-sr/systemone/runtime/upstreamreply"
)

// BatchPath is the extension's batch endpoint.
const BatchPath = "/v1/systemone/batch"

// Codec is the vllm-sr/5.0 client codec. The zero value is ready; it is
// stateless and safe for concurrent use.
type Codec struct{}

var _ tc.Codec = Codec{}

var (
	writer = requestwire.Writer{}
	reader = upstreamreply.Reader{Extensions: true}
)

// ID returns vllm-sr/5.0.
func (Codec) ID() table.SchemaID { return table.SchemaVllmSR50 }

// Spec names the extension specification and its sha256.
func (Codec) Spec() tc.SpecRef {
	return tc.SpecRef{Path: fieldtable.SpecVllmSR50Path, SHA256: fieldtable.SpecVllmSR50SHA256}
}

// Capabilities are everything 5.0 carries, sorted. A deployment's card
// narrows them to what its model answers.
func (Codec) Capabilities() tc.CapabilitySet {
	return tc.AllCapabilities()
}

// Stateless reports true.
func (Codec) Stateless() bool { return true }

// ListingPath is GET /v1/models.
func (Codec) ListingPath() string { return "/v1/models" }

// DecodeListing reads the listing with each model's version, features and
// card.
func (Codec) DecodeListing(status int, body []byte) (*ir.Listing, error) {
	return reader.Listing(status, body)
}

// Plan writes b as one batch call.
func (Codec) Plan(b *ir.Batch, t tc.Target, p tc.Policy) (tc.Plan, ir.Diagnostics, error) {
	base, err := tc.OneCallBase(b, t)
	if err != nil {
		return tc.Plan{}, nil, err
	}
	opts, err := batchOptions(b)
	if err != nil {
		return tc.Plan{}, nil, err
	}
	model := t.Model
	out := ir.Batch{Model: &model, Options: opts, Items: make([]ir.BatchItem, len(b.Items))}
	long := false
	for i := range b.Items {
		r := b.Items[i].Request
		long = long || tc.LongContext(&r, b.Options)
		r.Model, r.Options = nil, nil
		r.Questions = completed(r.Questions)
		out.Items[i] = ir.BatchItem{Name: b.Items[i].Name, Request: r}
	}
	body, err := writer.AppendBatch(make([]byte, 0, 1024), &out)
	if err != nil {
		return tc.Plan{}, nil, err
	}
	h := tc.JSONHeader()
	if long {
		h.Set(tc.LongContextHeader, "true")
	}
	order, items := tc.PlanItems(&out)
	return tc.Plan{
		Calls:          []tc.WireCall{{Method: http.MethodPost, URL: base + BatchPath, Header: h, Body: body, Items: order}},
		MaxConcurrency: t.MaxConcurrencyOrDefault(),
		Order:          order,
		Items:          items,
		Deadline:       p.Deadline,
	}, nil, nil
}

// completed returns the questions with each preset-only question completed
// from its canonical text, on a copy.
func completed(qs []ir.Question) []ir.Question {
	out := append([]ir.Question(nil), qs...)
	for i := range out {
		if out[i].Type == "" {
			presetexpand.Expand(&out[i])
		}
	}
	return out
}

// batchOptions are the options the batch call carries: the batch's own,
// else the items' when they all carry the same ones (an internal bundle's
// per-item options, which a 5.0 batch has one set of).
func batchOptions(b *ir.Batch) (*ir.Options, error) {
	if b.Options != nil {
		return b.Options, nil
	}
	var first *ir.Options
	for i := range b.Items {
		o := b.Items[i].Request.Options
		switch {
		case i == 0:
			first = o
		case !sameOptions(first, o):
			return nil, &ir.ProtocolError{Category: ir.CategoryUnsupported, Reason: ir.ReasonConflict,
				Path:    ir.Path{{Name: "requests"}, {Name: b.Items[i].Name}, {Name: "options"}},
				Message: "a vllm-sr/5.0 batch carries one set of options, and the requests' options differ"}
		}
	}
	return first, nil
}

// sameOptions compares two options by value, ignoring how they were
// spelled.
func sameOptions(a, b *ir.Options) bool {
	if a == nil || b == nil {
		return a == b
	}
	x, y := *a, *b
	x.Layout, y.Layout = ir.Layout{}, ir.Layout{}
	return reflect.DeepEqual(x, y)
}

// DecodeReply reads the batch call's reply into each item's result.
func (Codec) DecodeReply(p tc.Plan, call tc.WireCall, reply tc.WireReply) ([]tc.ItemResult, error) {
	items, ok := upstreamreply.CallItems(&p, &call)
	if !ok {
		return nil, tc.ErrCallNotInPlan
	}
	return reader.BatchResults(&p, &call, items, &reply), nil
}
