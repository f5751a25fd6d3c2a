package target

import (
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/shapes"
)

// WriteRequest writes r alone through the codec's own plan for a batch of
// one, so the carry check, preset expansion and the strip list apply
// exactly as on a deployment; the request's own model goes with it, and
// the standard requires one.
func (standard02Codec) WriteRequest(r *ir.Request, t Target) (WireCall, ir.Diagnostics, error) {
	if r.Model == nil {
		return WireCall{}, nil, &ir.ProtocolError{Category: ir.CategoryUnsupported, Reason: ir.ReasonMissingMember,
			Path: ir.Path{{Name: vocab.RequestModel}}, Message: "is required"}
	}
	t.Model, t.MaxConcurrency = *r.Model, 1
	plan, diags, err := Standard02.Plan(&ir.Batch{Items: []ir.BatchItem{{Name: SingleItem, Request: *r}}}, t, Policy{})
	if err != nil {
		return WireCall{}, nil, err
	}
	return plan.Calls[0], diags, nil
}

// ReadRequest reads one standard request body: refused with every problem
// the generated standard validator finds, else read as the vllm-sr/5.0
// superset every standard body is (shapes.DecodeStandardRequest).
func (standard02Codec) ReadRequest(body []byte) (*ir.Request, ir.Diagnostics, error) {
	r, err := shapes.DecodeStandardRequest(body)
	return r, nil, err
}
