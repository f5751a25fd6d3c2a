package target

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
)

// NoReplyError is the error body of a call that got no reply it could
// read whole: 504 when err is (or wraps) context.DeadlineExceeded, the
// call's deadline having passed; 502 upstream_error for a reply over the
// body limit (ErrReplyTooLarge), cut off after it began (ErrReplyCut) or
// not well-formed (ErrReplyMalformed), none with Retry-After: retrying a
// broken upstream soon helps nobody; else 503 unavailable, the upstream
// unreachable (the call could not be sent, or nothing of a reply came
// back). It never carries err's text, which may name hosts or addresses.
func NoReplyError(err error) *ir.ErrorBody {
	switch {
	case errors.Is(err, ErrReplyTooLarge):
		return upstreamFailedReading(vocab.ReasonUpstreamReplyTooLarge)
	case errors.Is(err, ErrReplyMalformed):
		return upstreamFailedReading(vocab.ReasonUpstreamMalformedReply)
	case errors.Is(err, ErrReplyCut):
		return upstreamFailedReading(vocab.ReasonUpstreamReplyCut)
	case errors.Is(err, context.DeadlineExceeded):
		return &ir.ErrorBody{Status: http.StatusGatewayTimeout, Code: ir.ErrorQuestionFailed, Reason: string(ir.QuestionErrorDeadlineExceeded),
			Message: "the upstream call did not answer before its deadline"}
	}
	return ir.ReasonError(vocab.ReasonUpstreamUnreachable, "the upstream deployment could not be reached")
}

// MalformedReplyError is the error body of a reply that is not what the
// target's schema answers with: 502, naming the JSON path at fault when
// err is a *ir.ProtocolError.
func MalformedReplyError(err error) *ir.ErrorBody {
	var path ir.Path
	var pe *ir.ProtocolError
	if errors.As(err, &pe) {
		path = pe.Path
	}
	return ir.ReasonError(vocab.ReasonInvalidUpstreamReply, "the upstream deployment answered with a body its schema does not define, at "+path.String())
}

func upstreamFailedReading(reason string) *ir.ErrorBody {
	return ir.ReasonError(reason, describe(reason))
}

// CallFailed answers every item of call with e: each item gets its own
// copy naming the item as the error's state and, for a question_failed
// error that names no question, the item's first question (the one a
// fail-fast endpoint would name). Other calls' items are not touched.
func CallFailed(p *Plan, call *WireCall, e *ir.ErrorBody, retryAfter time.Duration) []ItemResult {
	out := make([]ItemResult, 0, len(call.Items))
	for _, name := range call.Items {
		one := *e
		one.State = name
		if one.Code == ir.ErrorQuestionFailed && one.Question == "" {
			if it, ok := p.Item(name); ok && len(it.Questions) > 0 {
				one.Question = it.Questions[0].Name
			}
		}
		out = append(out, ItemResult{Name: name, Error: &one, RetryAfter: retryAfter})
	}
	return out
}

// QuestionErrorOf is the per-question error an item's failure gives each
// of its questions: what the status says about the question.
func QuestionErrorOf(e *ir.ErrorBody) ir.QuestionErrorCode {
	switch s := e.Status; {
	case s == http.StatusGatewayTimeout:
		return ir.QuestionErrorDeadlineExceeded
	case s == http.StatusUnprocessableEntity:
		return ir.QuestionErrorInvalidQuestion
	case s == http.StatusTooManyRequests, s == http.StatusServiceUnavailable,
		s == http.StatusBadGateway, s == 529:
		return ir.QuestionErrorUnavailable
	case s >= 400 && s < 500:
		return ir.QuestionErrorInvalidInput
	}
	return ir.QuestionErrorInvalidModelOutput
}

// failedAnswers answers every question of it with e's question error: its
// questions are unknown, and the reason and message say why without any
// request data. The question an upstream's refusal names (a 400 or 422
// question_failed whose reason the specification defines, with a kind of
// that status: refusedKind) is answered as the upstream failed it: its
// kind, reason, limit and the runtime's words for them (relayed). The
// others keep the reason only when it is one of their kind's: an
// upstream's reason for another question is not theirs.
func failedAnswers(it PlannedItem, e *ir.ErrorBody) []ir.Answer {
	code := QuestionErrorOf(e)
	reason := e.Reason
	named := refusedKind(e)
	if r, ok := vocab.ReasonOf(reason); reason == "" || named != "" && (!ok || r.Kind != string(code)) {
		reason = "upstream_" + string(code)
	}
	msg := "the upstream call carrying this question failed with status " + strconv.Itoa(e.Status)
	answers := make([]ir.Answer, len(it.Questions))
	for i, q := range it.Questions {
		answers[i] = ir.Answer{Name: q.Name, Type: q.Type, Error: code, Reason: reason, Message: msg}
		if named != "" && q.Name == e.Question {
			a := &answers[i]
			a.Error, a.Reason, a.Limit, a.Message = relayed(named, e.Reason, e.Limit)
		}
	}
	return answers
}
