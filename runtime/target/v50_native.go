package target

import (
	"slices"

	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
)

// Only40 reports whether r has a reading no vllm-sr/5.0 request spells,
// which only the internal form carries exactly:
//
//   - under 4.0's implicit roles, a state (or a state of a states request)
//     of asset placeholders in front of one item (ir.ReadMediaInFront):
//     4.0 keeps it an array that labels its assets, where a 5.0 server
//     reads the item with the media in front of it;
//   - a preset-only question (one without a type): 5.0 completes it from
//     the canonical preset texts, and its instructions and criteria are
//     model input the preset alone is not.
//
// 4.0's implicit roles of an object state are not such a reading: the
// explicit roles they stand for (shapes.ExplicitRoles) read the
// same on every family. A request a vllm-sr/5.0 listener reads never has
// either, nor does a Router rule's (its questions are completed at load,
// its roles explicit for a 5.0 target).
func Only40(r *ir.Request) bool {
	for i := range r.Questions {
		if r.Questions[i].Type == "" {
			return true
		}
	}
	if r.Roles.Mode != ir.RoleModeImplicit {
		return false
	}
	if _, ok := ir.ReadMediaInFront(r.State, r.Assets); ok {
		return true
	}
	return slices.ContainsFunc(r.States, func(s jsonvalue.Member) bool {
		_, ok := ir.ReadMediaInFront(s.Value, r.Assets)
		return ok
	})
}

// planNative plans b in the internal form, as one POST /v1/bundle call
// to the target's model runtime (a bundle of one for a single request):
// lossless, so the runtime reads each request as a 4.0 runtime does, and
// each request's failed questions come back in its answers, from which
// the engine's fail-fast reassembly answers as the runtime would. (A
// /v1/decisions call would refuse a request none of whose questions is
// valid as a whole, losing each question's own error.)
func planNative(b *ir.Batch, t Target, p Policy) (Plan, ir.Diagnostics, error) {
	base, err := OneCallBase(b, t)
	if err != nil {
		return Plan{}, nil, err
	}
	return planBundle(b, t, p, base)
}
