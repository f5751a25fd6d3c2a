package engine

import (
	"net/http"
	"slices"
	"time"

	"github.com/vllm-sr/systemone/generated/fieldtable"
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/table"
	tc "github.com/vllm-sr/systemone/runtime/target"
)

// A fail-fast request (POST /v1/systemone, /v1/systemone/batch, a 4.0
// states request on /v1/systemone) is answered by its first failure in
// request order: items in order, each item's questions in order. Per-
// question errors inside a 200 are only for /v1/decisions and /v1/bundle.

// firstFailure is the error that answers a fail-fast request, nil when
// every question of every item was answered, and the delay the upstream
// asked for with the failure that answers (zero when none).
//
// An item whose call failed answers with the call's error as the upstream
// gave it; an item whose response answered a question with an error (a
// vllm-sr/5.0 upstream's answer error, an answer missing or malformed in
// the reply, a question vllm-srun's model failed in process) answers with
// question_failed for that question (questionFailed). The order, the
// state and the collateral failures of a batch call are
// target.FirstFailure's; only the batch endpoint locates a 422 detail
// inside the batch body, as the client sent one.
func (x *Exchange) firstFailure() (*ir.ErrorBody, time.Duration) {
	// results are x.Results with the item of each failed answer failed, on
	// a copy made at the first such answer: x.Results stays the caller's.
	results, cloned := x.Results, false
	for i, res := range x.Results {
		if res.Response == nil {
			continue
		}
		// The first answer, in question order, that carries an error.
		if j := slices.IndexFunc(res.Response.Answers, func(a ir.Answer) bool { return a.Error != "" }); j >= 0 {
			if !cloned {
				results, cloned = slices.Clone(x.Results), true
			}
			results[i] = tc.ItemResult{Name: res.Name, Error: questionFailed(&res.Response.Answers[j])}
		}
	}
	e := tc.FirstFailure(&x.Plan, results)
	if e == nil {
		return nil, 0
	}
	item := e.State
	if e.Code == ir.ErrorQuestionFailed && e.Question == "" {
		// An item no reply answered: its first question is the first
		// that could not be answered.
		if it, ok := x.Plan.Item(item); ok && len(it.Questions) > 0 {
			e.Question = it.Questions[0].Name
		}
	}
	if x.Single || x.States {
		// A single request or a 4.0 states request: paths start at the
		// body's root, and only a state names itself.
		e.Detail = locateInRequest(e.Detail, item)
		if x.Single {
			e.State = ""
		}
	}
	return e, retryAfterOf(results, item)
}

// questionFailed is the error a failed answer gives a fail-fast request:
// the status of its error kind from the generated table (500 for a kind
// the table does not know), code question_failed, its reason and limit,
// and on a 422 the standard's detail list locating the question from the
// body's root (firstFailure moves it into a batch).
func questionFailed(a *ir.Answer) *ir.ErrorBody {
	status := http.StatusInternalServerError
	if kind, ok := fieldtable.QuestionError(string(a.Error)); ok {
		status = kind.Status
	}
	reason := a.Reason
	if reason == "" {
		reason = string(a.Error)
	}
	// The question's name is how the client finds it, quoted cut to
	// table.MaxNameBytes (a request's one huge name must not make a huge
	// answer); the answer's message is a fixed sentence (the IR carries no
	// request data in it).
	msg := "question " + table.QuoteName(a.Name) + " cannot be answered: " + a.Message
	e := &ir.ErrorBody{Status: status, Code: ir.ErrorQuestionFailed, Message: msg, Question: a.Name,
		Reason: reason, Limit: a.Limit}
	if status == http.StatusUnprocessableEntity {
		loc := ir.Path{}.Key("body").Key(vocab.RequestQuestions).Key(a.Name)
		e.Detail = []ir.DetailItem{{Loc: loc, Msg: msg, Type: string(a.Error)}}
	}
	return e
}

// locateInRequest moves each detail item's loc out of the batch body
// (body.requests.<item>...) to the request's own (body...): the shape of
// a single request, and of a 4.0 states request, whose states share one
// body.
func locateInRequest(detail []ir.DetailItem, item string) []ir.DetailItem {
	if detail == nil {
		return nil
	}
	out := make([]ir.DetailItem, len(detail))
	for i, d := range detail {
		out[i] = d
		if len(d.Loc) >= 3 && d.Loc[0].Name == "body" && !d.Loc[1].IsIndex && d.Loc[1].Name == vocab.BatchRequests &&
			!d.Loc[2].IsIndex && d.Loc[2].Name == item {
			out[i].Loc = append(ir.Path{d.Loc[0]}, d.Loc[3:]...)
		}
	}
	return out
}

// retryAfterOf is the delay the result that answers item asked for: the
// first result naming item that has a response or an error, as
// reassembly picks it.
func retryAfterOf(results []tc.ItemResult, item string) time.Duration {
	for _, r := range results {
		if r.Name == item && (r.Response != nil || r.Error != nil) {
			return r.RetryAfter
		}
	}
	return 0
}
