package listener

import (
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/table"
)

// QuestionFailure is a question that failed on its own while its request
// was read: a malformed question, answered invalid_question.
type QuestionFailure struct {
	// Item is the batch item the question belongs to; "" for a request.
	Item string
	// Index is the question's position among its request's questions as
	// the client sent them, so answers keep request order.
	Index int
	Name  string
	// Type is the question's type when it names a known one, else empty.
	Type  table.QuestionType
	Error ir.QuestionErrorCode
	// Reason is a fixed word (a table.ProblemReason); Message names the
	// JSON path and never copies a request value.
	Reason  string
	Message string
	// Limit is the bound Reason names, when one was broken.
	Limit *int64
	// Problems are every schema problem found in the question.
	Problems []table.Problem
}

// Answer is the failure as a question's answer on /v1/decisions.
func (f *QuestionFailure) Answer() ir.Answer {
	return ir.Answer{Name: f.Name, Type: f.Type, Error: f.Error, Reason: f.Reason, Message: f.Message}
}

// StateMedia is one vllm-sr/5.0 media reading: the request (Item, "" for a
// single request) whose array state is read as its last item with media in
// front of it.
type StateMedia struct {
	Item  string
	Media ir.MediaInFront
}

// MergeFailures returns answers with the failures of item inserted at
// their indexes, so the result is in the order the client asked. answers
// are the answered questions in request order; failures are in request
// order too. The input slices are not modified.
func MergeFailures(answers []ir.Answer, failures []QuestionFailure, item string) []ir.Answer {
	n := 0
	for i := range failures {
		if failures[i].Item == item {
			n++
		}
	}
	if n == 0 {
		return answers
	}
	out := make([]ir.Answer, 0, len(answers)+n)
	next := 0
	for i := range failures {
		f := &failures[i]
		if f.Item != item {
			continue
		}
		for len(out) < f.Index && next < len(answers) {
			out = append(out, answers[next])
			next++
		}
		out = append(out, f.Answer())
	}
	return append(out, answers[next:]...)
}
