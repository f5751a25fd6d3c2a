package target

import (
	"net/http"
	"strconv"

	"github.com/vllm-sr/systemone/generated/fieldtable"
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/shapes"
)

// A model runtime refuses a /v1/decisions call none of whose questions it
// can answer (the input longer than the model reads fails every one)
// with 400 invalid_request no_valid_question, its detail listing each
// question's error: the kind as the item's type, the reason and limit as
// its ctx (ir.DetailItem). That refusal is no failure of the call but of
// each question, so the Router answers each question as the runtime
// did: /v1/decisions refuses the request alike (listener.NoValidQuestion,
// with the same words), and a fail-fast request answers with its first
// question's error, its status, reason and limit.

// refusedQuestions reads such a refusal of the call carrying it into a
// response whose every answer is its question's failure (relayed); false
// when the reply is no such refusal, or names none of its questions.
func (rd ReplyReader) refusedQuestions(it PlannedItem, reply *WireReply) (*ir.Response, bool) {
	if reply.Err != nil || reply.Status != http.StatusBadRequest {
		return nil, false
	}
	root, err := decode(reply.Body)
	if err != nil {
		return nil, false
	}
	rep := shapes.ReadErrorReport(root, rd.replies)
	if rep.Code != vocab.CodeInvalidRequest || rep.Reason != vocab.ReasonNoValidQuestion {
		return nil, false
	}
	resp := &ir.Response{Answers: make([]ir.Answer, len(it.Questions)), Usage: &ir.Usage{}}
	named := 0
	for i, q := range it.Questions {
		a := ir.Answer{Name: q.Name, Type: q.Type, Error: ir.QuestionErrorInvalidInput, Reason: vocab.ReasonUpstreamInvalidInput,
			Message: "the upstream refused every question of the call, this one without naming its error (upstream status 400)"}
		for _, f := range rep.Questions {
			if f.State == "" && f.Question == q.Name {
				if kind, ok := fieldtable.QuestionError(f.Kind); ok && kind.Status >= 400 && kind.Status < 500 {
					a.Error, a.Reason, a.Limit, a.Message = relayed(ir.QuestionErrorCode(f.Kind), f.Reason, f.Limit)
					named++
				}
				break
			}
		}
		resp.Answers[i] = a
	}
	return resp, named > 0
}

// relayed is a question's failure as an upstream named it, vetted
// against the generated tables: its kind, its reason when the
// specification defines the word (else the kind, which is one), the
// limit only with a reason that names one, and the message the runtime
// writes for them (modelcheck.Fail), the reason's description and the
// limit in its unit: fixed words, never the upstream's.
func relayed(kind ir.QuestionErrorCode, reason string, limit *int64) (ir.QuestionErrorCode, string, *int64, string) {
	r, ok := vocab.ReasonOf(reason)
	if !ok {
		r, _ = vocab.ReasonOf(string(kind))
		return kind, string(kind), nil, r.Clause()
	}
	msg := r.Clause()
	if limit == nil || r.Unit == "" {
		return kind, reason, nil, msg
	}
	return kind, reason, limit, msg + " (limit " + strconv.FormatInt(*limit, 10) + " " + r.Unit + ")"
}

// refusedKind is the question error kind of an upstream's refusal of a
// question (a 400 or 422 question_failed naming it): its reason's kind
// when the specification defines the reason and gives it a kind of that
// status; "" otherwise, when the status alone says what the question
// error is (QuestionErrorOf).
func refusedKind(e *ir.ErrorBody) ir.QuestionErrorCode {
	if e.Code != ir.ErrorQuestionFailed || e.Question == "" || (e.Status != http.StatusBadRequest && e.Status != http.StatusUnprocessableEntity) {
		return ""
	}
	if e.Reason == vocab.ReasonUpstreamInvalidInput || e.Reason == vocab.ReasonUpstreamInvalidQuestion {
		return "" // the Router's own word for a refusal that named no reason
	}
	r, ok := vocab.ReasonOf(e.Reason)
	if !ok {
		return ""
	}
	if kind, ok := fieldtable.QuestionError(r.Kind); ok && kind.Status == e.Status {
		return ir.QuestionErrorCode(r.Kind)
	}
	return ""
}
