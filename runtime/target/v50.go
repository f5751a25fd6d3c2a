package target

import (
	"net/http"
	"reflect"
	"slices"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/modelcheck"
	"github.com/vllm-sr/systemone/runtime/shapes"
	"github.com/vllm-sr/systemone/runtime/table"
)

// V50 is the Router's client codec for deployments that speak
// vllm-sr/5.0: vllm-sr serve targets (the model runtime, a Router or an
// Engine frontend). It is stateless and safe for concurrent use.
//
// A batch is one call to POST /v1/systemone/batch with the full extension
// set: {model, requests, options}, the target's model, each item a
// complete standard request with its roles (4.0's implicit roles spelled
// out as the explicit roles they stand for), presets kept so trained
// heads answer, and the batch's options, deadline_ms included. Items of
// an internal bundle carry their own options; a 5.0 batch has one set, so
// items whose options differ are refused. The long-context flag is the
// standard's header.
//
// A batch with an item whose reading no 5.0 request spells (Only40: a
// vllm-sr/4.0 client's media overlap, or a preset-only question, which a
// complete 5.0 message would have to spell out) goes instead in the
// internal form, as one POST /v1/bundle call to the model runtime
// (planNative), lossless, so the model reads each request as a 4.0
// runtime reads it.
//
// The reply is the batch response, each item's response read with the
// extension members. A failed batch names the failing request as its
// state: that item carries the error, and the call's other items, left
// unanswered, fail with 502 batch_call_failed. The listing at GET
// /v1/models is read with each model's version, features and card.
var V50 v50Codec

// v50Codec is V50's type; its zero value is ready.
type v50Codec struct{}

var (
	_ Codec         = v50Codec{}
	_ HealthDecoder = v50Codec{}
)

var (
	v50Writer = shapes.Writer{}
	v50Reader = NewReplyReader(table.SchemaVllmSR50)
)

// v50Traits: 5.0 carries everything the runtime answers (a deployment's
// card narrows it to what its model answers); its servers are vllm-sr's,
// which also serve the native endpoints.
var v50Traits = Traits{
	Schema:       table.SchemaVllmSR50,
	Capabilities: AllCapabilities(),
	Stateless:    true,
	ListingPath:  vocab.PathModels,
	HealthPath:   vocab.PathHealth,
	Native:       true,
}

// Traits are vllm-sr/5.0's.
func (v50Codec) Traits() Traits { return v50Traits }

// DecodeListing reads the listing with each model's version, features and
// card.
func (v50Codec) DecodeListing(status int, body []byte) (*ir.Listing, error) {
	return v50Reader.Listing(status, body)
}

// DecodeHealth reads a vllm-sr/5.0 runtime's GET /health: its status,
// api_version (the runtime contract), version, model and schema.
func (v50Codec) DecodeHealth(body []byte) (*ir.Health, error) {
	return v50Reader.Health(body)
}

// Plan writes b as one batch call, or, when an item has a reading only the
// internal form spells, as one internal /v1/bundle call.
func (v50Codec) Plan(b *ir.Batch, t Target, p Policy) (Plan, ir.Diagnostics, error) {
	for i := range b.Items {
		if Only40(&b.Items[i].Request) {
			return planNative(b, t, p)
		}
	}
	base, err := OneCallBase(b, t)
	if err != nil {
		return Plan{}, nil, err
	}
	opts, err := batchOptions(b)
	if err != nil {
		return Plan{}, nil, err
	}
	wb := &v50Batch{model: t.Model}
	wb.batch = ir.Batch{Model: &wb.model, Options: opts, Extra: b.Extra, Items: make([]ir.BatchItem, len(b.Items))}
	out := &wb.batch
	long := false
	for i := range b.Items {
		r := b.Items[i].Request
		long = long || LongContext(&r, b.Options)
		r.Model, r.Options = nil, nil
		out.Items[i] = ir.BatchItem{Name: b.Items[i].Name, Request: r}
	}
	body, err := v50Writer.AppendBatch(make([]byte, 0, 1024), out)
	if err != nil {
		return Plan{}, nil, err
	}
	return oneCall(out, t, p, WireCall{Method: http.MethodPost, URL: base + vocab.PathSystemoneBatch, Header: callHeader(long, false), Body: body}), nil, nil
}

// v50Batch is the batch a plan writes with the model it names, in one
// allocation.
type v50Batch struct {
	batch ir.Batch
	model string
}

// completed returns the questions with each preset-only question (a 4.0
// preset without a type) completed from its canonical text, on a copy; qs
// itself when there is none (the writers only read them).
func completed(qs []ir.Question) []ir.Question {
	var out []ir.Question
	for i := range qs {
		if qs[i].Type != "" {
			continue
		}
		if out == nil {
			out = slices.Clone(qs)
		}
		modelcheck.ExpandPreset(&out[i])
	}
	if out == nil {
		return qs
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
				Path:    ir.Path{{Name: vocab.BatchRequests}, {Name: b.Items[i].Name}, {Name: vocab.RequestOptions}},
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

// DecodeReply reads the batch call's (or the bundle call's) reply into
// each item's result: both answer with a batch response.
func (v50Codec) DecodeReply(p Plan, call WireCall, reply WireReply) ([]ItemResult, error) {
	items, ok := CallItems(&p, &call)
	if !ok {
		return nil, ErrCallNotInPlan
	}
	return v50Reader.BatchResults(&p, &call, items, &reply), nil
}

// WriteRequest writes r alone as a POST /v1/systemone body with the full
// extension set: the request writer the codec's batches are made of, each
// preset-only question completed from its canonical text (a 5.0 body
// spells every question whole; Plan sends such a request in the internal
// form instead), and the standard's long-context header when r sets the
// flag.
func (v50Codec) WriteRequest(r *ir.Request, t Target) (WireCall, ir.Diagnostics, error) {
	c := *r
	c.Questions = completed(r.Questions)
	body, err := v50Writer.AppendRequest(nil, &c)
	if err != nil {
		return WireCall{}, nil, err
	}
	return WireCall{Method: http.MethodPost, URL: t.Endpoint, Header: callHeader(LongContext(r, nil), false), Body: body, Items: []string{SingleItem}}, nil, nil
}
