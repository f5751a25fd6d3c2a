package target

import (
	"context"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
)

// Reassemble builds the batch's answer from its items' results: one
// response per item, in the plan's order, and the usage summed over the
// items that answered. results may arrive in any order and may miss
// items; when an item has several results the first wins.
//
// An item whose call failed answers each of its questions with the
// per-question error its status stands for (QuestionErrorOf), and an item
// with no result at all (its call was never answered before the deadline)
// answers them deadline_exceeded: only that item's questions are unknown.
// This is the /v1/decisions and /v1/bundle shape; a fail-fast caller
// (POST /v1/systemone/batch) asks FirstFailure first.
//
// The model is the first answered item's; nil when none answered.
func Reassemble(p *Plan, results []ItemResult) *ir.BatchResponse {
	byName := indexResults(results)
	a := &reassembled{}
	a.batch = ir.BatchResponse{Responses: make([]ir.NamedResponse, 0, len(p.Items)), Usage: &a.usage}
	out := &a.batch
	for _, it := range p.Items {
		r := resultOf(byName, it.Name)
		if r.Response == nil {
			out.Responses = append(out.Responses, ir.NamedResponse{Name: it.Name,
				Response: ir.Response{Answers: failedAnswers(it, r.Error), Usage: &ir.Usage{}}})
			continue
		}
		if out.Model == nil {
			out.Model = r.Response.Model
		}
		if u := r.Response.Usage; u != nil {
			out.Usage.InputTokens += u.InputTokens
			out.Usage.OutputTokens += u.OutputTokens
		}
		out.Responses = append(out.Responses, ir.NamedResponse{Name: it.Name, Response: *r.Response})
	}
	return out
}

// reassembled is a batch's answer with its summed usage, in one
// allocation.
type reassembled struct {
	batch ir.BatchResponse
	usage ir.Usage
}

// FirstFailure returns the error that answers the batch as a whole for a
// fail-fast caller: the first failed item's, in the plan's order, with the
// item named as its state and a 422 detail located inside the batch body
// (body.requests.<item>...). nil when every item answered.
//
// An item that failed only because another item of its batch call did
// (batch_call_failed) never answers the batch while the failure that
// caused it is known.
func FirstFailure(p *Plan, results []ItemResult) *ir.ErrorBody {
	byName := indexResults(results)
	var collateral *ir.ErrorBody
	for _, it := range p.Items {
		r := resultOf(byName, it.Name)
		if r.Response != nil {
			continue
		}
		e := *r.Error
		e.State = it.Name
		if e.Detail != nil {
			e.Detail = locateInBatch(e.Detail, it.Name)
		}
		if e.Reason != vocab.ReasonBatchCallFailed {
			return &e
		}
		if collateral == nil {
			collateral = &e
		}
	}
	return collateral
}

func indexResults(results []ItemResult) map[string]ItemResult {
	m := make(map[string]ItemResult, len(results))
	for _, r := range results {
		if _, seen := m[r.Name]; !seen && (r.Response != nil || r.Error != nil) {
			m[r.Name] = r
		}
	}
	return m
}

// resultOf returns name's result, or the deadline failure of an item
// whose call never answered.
func resultOf(m map[string]ItemResult, name string) ItemResult {
	if r, ok := m[name]; ok {
		return r
	}
	return ItemResult{Name: name, Error: NoReplyError(context.DeadlineExceeded)}
}

// locateInBatch moves each detail item's loc from one request's body
// (body.questions...) into the batch's (body.requests.<item>.questions...).
func locateInBatch(detail []ir.DetailItem, item string) []ir.DetailItem {
	out := make([]ir.DetailItem, len(detail))
	for i, d := range detail {
		out[i] = d
		inBatch := len(d.Loc) > 1 && d.Loc[1].Name == vocab.BatchRequests
		if len(d.Loc) > 0 && !d.Loc[0].IsIndex && d.Loc[0].Name == "body" && !inBatch {
			loc := ir.Path{d.Loc[0], {Name: vocab.BatchRequests}, {Name: item}}
			out[i].Loc = append(loc, d.Loc[1:]...)
		}
	}
	return out
}
