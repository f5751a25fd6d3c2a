package target

import (
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/table"
)

// Deviation is a declared, tested non-conformance of one deployment: a
// rewriter applied to a codec's wire calls after the codec wrote them, and
// to the replies before the codec reads them. Deviations compose: each is
// applied in the order the deployment lists them, requests first to last
// and replies in the same order.
//
// A deviation rewrites bytes only; it never changes which calls a plan
// makes or which items a call carries. It is stateless and safe for
// concurrent use.
type Deviation interface {
	// ID is the deviation's configuration name, such as "state_text".
	ID() string
	// AppliesTo reports whether the deviation can be declared on a
	// deployment that speaks schema.
	AppliesTo(schema table.SchemaID) bool
	// RewriteRequest rewrites one call in place.
	RewriteRequest(call *WireCall) (ir.Diagnostics, error)
	// RewriteReply rewrites one reply in place.
	RewriteReply(reply *WireReply) error
}

// ApplyRequestDeviations rewrites every call of p with devs, in order, and
// returns their diagnostics. The first error stops it; the plan is then
// partly rewritten and must not be sent.
func ApplyRequestDeviations(p *Plan, devs []Deviation) (ir.Diagnostics, error) {
	var all ir.Diagnostics
	for i := range p.Calls {
		for _, d := range devs {
			diags, err := d.RewriteRequest(&p.Calls[i])
			if err != nil {
				return all, err
			}
			all = append(all, diags...)
		}
	}
	return all, nil
}

// ApplyReplyDeviations rewrites one reply with devs, in order. A reply
// that carries no body (Err set) is left as it is.
func ApplyReplyDeviations(r *WireReply, devs []Deviation) error {
	if r.Err != nil {
		return nil
	}
	for _, d := range devs {
		if err := d.RewriteReply(r); err != nil {
			return err
		}
	}
	return nil
}

// BuiltinDeviations returns every deviation this package implements, by ID
// order.
func BuiltinDeviations() []Deviation {
	return []Deviation{StateText{}}
}
