package target

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"sync"
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
// target's schema answers with: 502 invalid_upstream_reply, saying what is
// wrong (the fixed reason of err, a *ir.ProtocolError) and where, by the
// level and the request's own names (replyWhere). The member at fault may
// be the upstream's word (answers.q.zz_extra), which no client gets:
// MalformedReply keeps err for the log.
func MalformedReplyError(err error, own func(name string) bool) *ir.ErrorBody {
	what, where := "", "the response"
	var pe *ir.ProtocolError
	if errors.As(err, &pe) {
		what = " (" + string(pe.Reason) + ")"
		if at := replyWhere(pe.Path, pe.Reason, own); len(at) > 0 {
			where = at.String()
		}
	}
	return ir.ReasonError(vocab.ReasonInvalidUpstreamReply, "the upstream deployment answered with a body its schema does not define"+what+", in "+where)
}

// MalformedReply fails every item of call with MalformedReplyError, each
// result keeping err as its Cause for the log.
func MalformedReply(p *Plan, call *WireCall, err error) []ItemResult {
	out := CallFailed(p, call, MalformedReplyError(err, OwnNames(p, call)), 0)
	for i := range out {
		out[i].Cause = err
	}
	return out
}

// OwnNames reports whether a name is one the request of call gave: an
// item's, a question's, or a choice's or score's key.
func OwnNames(p *Plan, call *WireCall) func(name string) bool {
	return func(name string) bool {
		for _, item := range call.Items {
			it, _ := p.Item(item)
			if item == name || slices.ContainsFunc(it.Questions, func(q QuestionRef) bool { return q.Name == name || slices.Contains(q.Keys, name) }) {
				return true
			}
		}
		return false
	}
}

// replyWhere is path cut before its first name that is neither a member
// some schema defines nor one of the request's own names (own), and before
// the member at fault when the schema does not define it there
// (unknown_member): the level and the request's names, never the
// upstream's words. A batch reply's responses.<item> is left out: the
// error names the item as its state, and a single request travels as the
// batch item SingleItem, a name its client never wrote.
func replyWhere(path ir.Path, reason ir.Reason, own func(name string) bool) ir.Path {
	if reason == ir.ReasonUnknownMember && len(path) > 0 {
		path = path[:len(path)-1]
	}
	if len(path) >= 2 && path[0].Name == vocab.BatchResponseResponses && (own == nil || own(path[1].Name)) {
		path = path[2:]
	}
	for i, e := range path {
		if !e.IsIndex && !schemaWord(e.Name) && (own == nil || !own(e.Name)) {
			return path[:i]
		}
	}
	return path
}

// schemaWord reports whether some schema defines a member of that name,
// at any level.
func schemaWord(name string) bool {
	_, ok := schemaWords()[name]
	return ok
}

var schemaWords = sync.OnceValue(func() map[string]struct{} {
	words := map[string]struct{}{}
	for _, lm := range vocab.Members {
		for _, m := range lm.Members {
			words[m.Name] = struct{}{}
		}
	}
	return words
})

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
