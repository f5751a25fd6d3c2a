package target

import (
	"cmp"
	"net/http"
	"slices"
	"strings"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/internalwire"
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
// explicit roles they stand for (internalwire.ExplicitRoles) read the
// same on every family. A request a vllm-sr/5.0 listener reads never has
// either, nor does a Router rule's (its questions are completed at load,
// its roles explicit for a 5.0 target).
func Only40(r *ir.Request) bool {
	if slices.ContainsFunc(r.Questions, func(q ir.Question) bool { return q.Type == "" }) {
		return true
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

// planDecisions plans b in the internal form as one POST /v1/decisions
// call per item (decisionsBody), under the target's max_concurrency:
// /v1/decisions is the native endpoint every vllm-sr/5.0 server serves
// (the model runtime, a Router, an Engine frontend), where /v1/bundle is
// the runtime's alone.
func planDecisions(b *ir.Batch, t Target, p Policy) (Plan, ir.Diagnostics, error) {
	base, err := OneCallBase(b, t)
	if err != nil {
		return Plan{}, nil, err
	}
	order, items := PlanItems(b)
	calls := make([]WireCall, len(b.Items))
	for i := range b.Items {
		body, err := decisionsBody(b.Items[i].Request, t.Model, b.Options)
		if err != nil {
			return Plan{}, nil, err
		}
		calls[i] = WireCall{Method: http.MethodPost, URL: base + vocab.PathDecisions, Header: callHeader(false, false),
			Body: body, Items: []string{b.Items[i].Name}}
	}
	return Plan{Calls: calls, MaxConcurrency: t.MaxConcurrencyOrDefault(), Order: order, Items: items, Deadline: p.Deadline}, nil, nil
}

// decisionsBody is r as a POST /v1/decisions body in the internal form,
// losslessly as internalwire writes it: with model as its model and its
// own options, else the batch's (a /v1/decisions request carries its
// options, the long-context flag among them, in its body).
func decisionsBody(r ir.Request, model string, batch *ir.Options) ([]byte, error) {
	r.Model = &model
	r.Options = cmp.Or(r.Options, batch)
	return internalwire.EncodeRequest(&r)
}

// isDecisionsCall reports whether call is one a plan sends to
// /v1/decisions, whose reply is one response.
func isDecisionsCall(call *WireCall) bool {
	return len(call.Items) == 1 && strings.HasSuffix(call.URL, vocab.PathDecisions)
}
