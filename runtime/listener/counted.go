package listener

import (
	"iter"

	"github.com/vllm-sr/systemone/runtime/ir"
)

// CountedDiagnostics are what the per-listener diagnostics counter counts
// for one request (front.Metrics.CountDiagnostic), as kind and form: each
// legacy form it used (kind legacy_form), once per request (what tells an
// operator when switching the listener to vllm-sr/5.0 is safe; not on the
// native endpoints, which speak the internal form on every listener), then
// its plan (kind the plan, form EndpointWord's): a pass-through the server
// sent on rewritten (rewritten) counts as the translation it was.
func (cr *ClientRequest) CountedDiagnostics(rewritten bool) iter.Seq2[string, string] {
	return func(yield func(kind, form string) bool) {
		if cr.Endpoint != EndpointDecisions && cr.Endpoint != EndpointBundle {
			for i, d := range cr.Diagnostics {
				if d.Kind == ir.DiagnosticLegacyForm && !seenBefore(cr.Diagnostics[:i], d.Form) {
					if !yield(string(ir.DiagnosticLegacyForm), d.Form) {
						return
					}
				}
			}
		}
		plan := cr.Plan
		if rewritten {
			plan = PlanTranslate
		}
		yield(string(plan), EndpointWord(cr.Endpoint))
	}
}

func seenBefore(ds ir.Diagnostics, form string) bool {
	for _, d := range ds {
		if d.Kind == ir.DiagnosticLegacyForm && d.Form == form {
			return true
		}
	}
	return false
}

// EndpointWord is the fixed word a plan's form label uses for an
// endpoint.
func EndpointWord(e Endpoint) string {
	switch e {
	case EndpointSystemOne:
		return "systemone"
	case EndpointBatch:
		return "batch" //vocab:not-spec the endpoint's metric label
	case EndpointDecisions:
		return "decisions"
	case EndpointBundle:
		return "bundle"
	}
	return "other"
}
