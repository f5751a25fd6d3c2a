package listener

import (
	"github.com/vllm-sr/systemone/generated/fieldtable"
	"github.com/vllm-sr/systemone/generated/vocab"
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
	return ir.Answer{Name: f.Name, Type: f.Type, Error: f.Error, Reason: f.Reason, Message: f.Message, Limit: f.Limit}
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
	var out []ir.Answer
	next := 0
	for i := range failures {
		f := &failures[i]
		if f.Item != item {
			continue
		}
		if out == nil {
			out = make([]ir.Answer, 0, len(answers)+len(failures))
		}
		for len(out) < f.Index && next < len(answers) {
			out = append(out, answers[next])
			next++
		}
		out = append(out, f.Answer())
	}
	if out == nil {
		return answers
	}
	return append(out, answers[next:]...)
}

// NoValidQuestion is the answer of a POST /v1/decisions request none of
// whose questions could be answered for a reason that is the request's
// own (a question error whose status is a 4xx: a malformed question, one
// the model does not answer, an input too long): 400 invalid_request
// no_valid_question, listing each question's error: the message the
// first ones, the detail (the standard's list, written on this 400 too)
// every one, located, with its kind, reason and limit (questionItem), as
// ReadDecisions refuses a request none of whose questions passes its
// schema. It returns nil when any question was answered or
// failed for a reason that is not the request's (the model failing, the
// deadline passing, an upstream that is unavailable): the request then
// gets its 200 with every answer in place.
//
// Both servers check the answers they would send, vllm-srun after its
// model answered and the Router after its upstreams did, so the same
// request has the same status on either. failures are the questions
// that failed while the request was read.
func NoValidQuestion(out Outcome, failures []QuestionFailure) *ir.ErrorBody {
	answers := answersOf(out, failures)
	if len(answers) == 0 {
		return nil
	}
	for _, a := range answers {
		if a.Error == "" || !requestSide(a.Error) {
			return nil
		}
	}
	msgs := make([]string, 0, min(len(answers), maxListed))
	detail := make([]ir.DetailItem, len(answers))
	for i, a := range answers {
		msg := "question " + table.QuoteName(a.Name) + " cannot be answered: " + a.Message + " (" + string(a.Error) + ")"
		if i < maxListed {
			msgs = append(msgs, msg)
		}
		detail[i] = questionItem(a.Name, msg, a.Error, a.Reason, a.Limit)
	}
	e := noValidQuestion(msgs, len(answers))
	e.Detail, e.DetailList = detail, true
	return e
}

// questionItem is a question's failure as an item of no_valid_question's
// detail list: located at body.questions.<name>, its type the question
// error kind, its reason and limit the item's ctx (what the Router reads
// back from its model runtime's refusal to answer each question alike).
func questionItem(name, msg string, kind ir.QuestionErrorCode, reason string, limit *int64) ir.DetailItem {
	return ir.DetailItem{Loc: ir.Path{}.Key("body").Key(vocab.RequestQuestions).Key(name), Msg: msg, Type: string(kind),
		Reason: reason, Limit: limit}
}

// noValidQuestion is the 400 invalid_request no_valid_question listing
// the first of total questions' errors.
func noValidQuestion(listed []string, total int) *ir.ErrorBody {
	return InvalidRequest(vocab.ReasonNoValidQuestion, "no question of the request can be answered: "+joinListed(listed, total, "questions")) //vocab:not-spec a word of the message
}

// answersOf are every answer of out, each response's with the questions
// that failed while the request was read in their places.
func answersOf(out Outcome, failures []QuestionFailure) []ir.Answer {
	if out.Response != nil {
		return MergeFailures(out.Response.Answers, failures, "")
	}
	if out.Batch == nil {
		return nil
	}
	var all []ir.Answer
	for _, nr := range out.Batch.Responses {
		all = append(all, MergeFailures(nr.Response.Answers, failures, "")...)
	}
	return all
}

// requestSide reports whether a question error is the request's fault:
// its status in the generated table is a 4xx.
func requestSide(kind ir.QuestionErrorCode) bool {
	e, ok := fieldtable.QuestionError(string(kind))
	return ok && e.Status >= 400 && e.Status < 500
}
