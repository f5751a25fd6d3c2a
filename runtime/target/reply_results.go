package target

import (
	"slices"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
)

// CallItems returns the planned items call carries, in the call's order;
// false when one is not in the plan. A call that carries the whole plan in
// its order (a one-call plan's) returns the plan's own items: read them,
// never modify them.
func CallItems(p *Plan, call *WireCall) ([]PlannedItem, bool) {
	if carriesPlan(p, call) {
		return p.Items, true
	}
	items := make([]PlannedItem, 0, len(call.Items))
	for _, name := range call.Items {
		it, ok := p.Item(name)
		if !ok {
			return nil, false
		}
		items = append(items, it)
	}
	return items, len(items) > 0
}

// carriesPlan reports whether call carries each of p's items, in p's
// order, and nothing else.
func carriesPlan(p *Plan, call *WireCall) bool {
	if len(call.Items) == 0 || len(call.Items) != len(p.Items) {
		return false
	}
	for i, name := range call.Items {
		if p.Items[i].Name != name {
			return false
		}
	}
	return true
}

// SingleResults reads the reply of a call carrying one item as one
// response (POST /v1/systemone, /v1/decisions). A /v1/decisions refusal
// of every question of the call is read as each question's failure
// (refusedQuestions).
func (rd ReplyReader) SingleResults(p *Plan, call *WireCall, it PlannedItem, reply *WireReply) []ItemResult {
	if resp, ok := rd.refusedQuestions(it, reply); ok {
		return []ItemResult{{Name: it.Name, Response: resp}}
	}
	if failed, done := rd.failedCall(p, call, reply); done {
		return failed
	}
	resp, err := rd.Response(reply.Body, it.Questions)
	if err != nil {
		return MalformedReply(p, call, err)
	}
	return []ItemResult{{Name: it.Name, Response: resp}}
}

// BatchResults reads the reply of a call carrying several items as one
// batch response (POST /v1/systemone/batch, /v1/bundle). An item the
// reply does not answer fails alone (502 missing_item).
func (rd ReplyReader) BatchResults(p *Plan, call *WireCall, items []PlannedItem, reply *WireReply) []ItemResult {
	if failed, done := rd.failedCall(p, call, reply); done {
		return failed
	}
	out, err := rd.BatchResponse(reply.Body, items)
	if err != nil {
		return MalformedReply(p, call, err)
	}
	return out
}

// missingItem is the result of an item a batch response does not answer.
func missingItem(name string) ItemResult {
	return ItemResult{Name: name, Error: ir.ReasonError(vocab.ReasonMissingItem, "the upstream batch response has no response for this request")}
}

// failedCall answers a call that got no reply (or none it could read
// whole), or a non-2xx one. A batch error names the request it belongs to
// as its state: that item gets the error, and the call's other items,
// which the failure left unanswered, fail with 502 batch_call_failed.
func (rd ReplyReader) failedCall(p *Plan, call *WireCall, reply *WireReply) ([]ItemResult, bool) {
	if reply.Err != nil {
		e := NoReplyError(reply.Err)
		return CallFailed(p, call, e, RetryDelay(e.Status, nil)), true
	}
	if reply.Status >= 200 && reply.Status <= 299 {
		return nil, false
	}
	items, _ := CallItems(p, call)
	e, retry := rd.Error(reply.Status, reply.Header, reply.Body, items)
	if len(call.Items) < 2 || e.State == "" || !slices.Contains(call.Items, e.State) {
		return CallFailed(p, call, e, retry), true
	}
	out := make([]ItemResult, 0, len(call.Items))
	for _, name := range call.Items {
		if name == e.State {
			one := *e
			out = append(out, ItemResult{Name: name, Error: &one, RetryAfter: retry})
			continue
		}
		e := ir.ReasonError(vocab.ReasonBatchCallFailed, "another request of the same upstream batch call failed")
		e.State = name
		out = append(out, ItemResult{Name: name, Error: e})
	}
	return out, true
}
