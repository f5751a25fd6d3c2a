package target

import (
	"errors"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/vllm-sr/systemone/generated/fieldtable"
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/shapes"
)

// MaxRetryAfter caps the delay an upstream may ask for, as the official
// SDKs honour a server's delay only up to a minute: a longer one is cut
// to it, never dropped.
const MaxRetryAfter = 60 * time.Second

// DefaultRetryAfter is the delay a 429, 503 or 529 answer asks for when
// the upstream gave none: such an answer always carries Retry-After.
const DefaultRetryAfter = time.Second

// The failures of a call whose reply could not be read whole; the caller
// sets them as WireReply.Err, and NoReplyError answers them 502.
var (
	// ErrReplyTooLarge: the reply is larger than the body limit, and was
	// not read past it.
	ErrReplyTooLarge = errors.New("target: the upstream reply is larger than the body limit")
	// ErrReplyCut: the reply broke off after it began (the connection
	// closed or was reset mid-head or mid-body).
	ErrReplyCut = errors.New("target: the upstream reply broke off before its end")
	// ErrReplyMalformed: the reply is not well-formed HTTP/1.1 (its status
	// line, a header, its framing or a chunk); its connection was closed.
	ErrReplyMalformed = errors.New("target: the upstream reply is not well-formed HTTP/1.1")
)

// Error is the Router's answer to a non-2xx reply of a call carrying
// items: the entry of the Router's error table (docs/errors.md) for the
// upstream's status, and the delay the answer asks for (RetryDelay).
//
// The upstream's own words (its detail, message, error_type, an HTML
// page) never reach a client, as they may name internal hosts or carry
// stack lines; the caller logs them. Kept from the body are only what can
// be checked: on a status that blames the request (400, 413, 422), a
// vllm-sr/5.0 upstream's code and reason when the specification defines
// them, its limit with its reason, and the question and state it names
// when they are the call's; on any status, a state that is one of items.
// A 422 detail list only locates the question. Messages are fixed
// sentences, or the specification's description of the reason.
//
//	3xx                     502 upstream_error   upstream_redirect
//	400                     400 invalid_request  upstream_invalid_input (or its own code, reason, question)
//	413                     413 request_too_large body_too_large
//	422                     422 question_failed  upstream_invalid_question, or validation_failed when no question is named
//	429                     429 overloaded       upstream_rate_limited   Retry-After
//	503                     503 unavailable      upstream_unavailable    Retry-After
//	529                     529 overloaded       upstream_overloaded     Retry-After
//	504                     504 question_failed  upstream_deadline_exceeded
//	500 naming a question   500 question_failed  upstream_invalid_model_output (or its own reason)
//	other 4xx               502 upstream_error   upstream_refused
//	other 5xx, 500          502 upstream_error   upstream_server_error
func (rd ReplyReader) Error(status int, header http.Header, body []byte, items []PlannedItem) (*ir.ErrorBody, time.Duration) {
	var rep upstreamReport // the zero report for a body that is not JSON
	if root, err := decode(body); err == nil {
		rep = upstreamReport(shapes.ReadErrorReport(root, rd.replies))
	}
	rep.keepOnly(items)
	e := errorOfStatus(status, rep)
	e.State = rep.State
	return e, RetryDelay(e.Status, header)
}

// upstreamReport is what an error body says that can be checked: fixed
// words and names, never its text.
type upstreamReport shapes.ErrorReport

// keepOnly drops what items cannot vouch for: a state that is not one of
// them, a question that is not one of the state's item (or, with no
// state, of any item), a code that is not a request error code, and a
// reason the specification does not define, with its limit.
func (r *upstreamReport) keepOnly(items []PlannedItem) {
	if !slices.ContainsFunc(items, func(it PlannedItem) bool { return it.Name == r.State }) {
		r.State = ""
	}
	if !hasQuestion(items, r.State, r.Question) {
		r.Question = ""
	}
	if _, ok := fieldtable.RequestError(r.Code); !ok {
		r.Code = ""
	}
	if !knownReason(r.Reason) {
		r.Reason, r.Limit = "", nil
	}
}

// hasQuestion reports whether question is one of state's item, or with no
// state, of any item.
func hasQuestion(items []PlannedItem, state, question string) bool {
	return slices.ContainsFunc(items, func(it PlannedItem) bool {
		return (state == "" || it.Name == state) &&
			slices.ContainsFunc(it.Questions, func(q QuestionRef) bool { return q.Name == question })
	})
}

// errorOfStatus is the error table's entry for status (see Error).
func errorOfStatus(status int, rep upstreamReport) *ir.ErrorBody {
	switch {
	case status >= 300 && status < 400:
		return upstreamFailed(status, vocab.ReasonUpstreamRedirect, "the upstream answered with a redirect, which the Router does not follow")
	case status == http.StatusBadRequest, status == http.StatusRequestEntityTooLarge, status == http.StatusUnprocessableEntity:
		return refusal(status, rep)
	case status == http.StatusTooManyRequests:
		return busy(status, vocab.ReasonUpstreamRateLimited, "the upstream is limiting the rate of calls")
	case status == http.StatusServiceUnavailable:
		return busy(status, vocab.ReasonUpstreamUnavailable, "the upstream is unavailable")
	case status == StatusOverloaded:
		return busy(status, vocab.ReasonUpstreamOverloaded, "the upstream is overloaded")
	case status == http.StatusGatewayTimeout:
		return questionFailedUpstream(status, rep, vocab.ReasonUpstreamDeadlineExceeded, "the upstream did not answer in time")
	case status == http.StatusInternalServerError && rep.Code == vocab.CodeQuestionFailed && rep.Question != "":
		return questionFailedUpstream(status, rep, vocab.ReasonUpstreamInvalidModelOutput, "the upstream's model failed")
	case status >= 400 && status < 500:
		return upstreamFailed(status, vocab.ReasonUpstreamRefused,
			"the upstream refused the call: the deployment's endpoint, model or credentials are at fault, not the request")
	}
	return upstreamFailed(status, vocab.ReasonUpstreamServerError, "the upstream failed with a server error")
}

// StatusOverloaded is the standard's overloaded status, which net/http
// does not name.
const StatusOverloaded = 529

// refusal answers a status that blames the request: 400, 413 or 422.
func refusal(status int, rep upstreamReport) *ir.ErrorBody {
	switch {
	case status == http.StatusRequestEntityTooLarge:
		rep.Reason, rep.Limit = "", nil
		return refusedAs(status, rep, ir.ErrorRequestTooLarge, vocab.ReasonBodyTooLarge, "the upstream refused the request as too large")
	case status == http.StatusUnprocessableEntity && (rep.Code == vocab.CodeQuestionFailed || rep.Question != ""):
		return questionFailedUpstream(status, rep, vocab.ReasonUpstreamInvalidQuestion, "the upstream refused it")
	case rep.Code == vocab.CodeQuestionFailed:
		return questionFailedUpstream(status, rep, vocab.ReasonUpstreamInvalidInput, "the upstream refused its input")
	}
	code := ir.ErrorInvalidRequest
	if status == http.StatusUnprocessableEntity { // a schema violation that names no question
		code = ir.ErrorValidationFailed
	}
	if c, ok := fieldtable.RequestError(rep.Code); ok && c.Status == status {
		code = ir.ErrorCode(rep.Code)
	}
	return refusedAs(status, rep, code, vocab.ReasonUpstreamInvalidInput, "the upstream refused the request as invalid")
}

func refusedAs(status int, rep upstreamReport, code ir.ErrorCode, reason, what string) *ir.ErrorBody {
	e := &ir.ErrorBody{Status: status, Code: code, Reason: reason, Message: message(what, rep.Reason, status)}
	if rep.Reason != "" {
		e.Reason, e.Limit = rep.Reason, rep.Limit
	}
	if status == http.StatusUnprocessableEntity {
		e.Detail = []ir.DetailItem{{Loc: ir.Path{{Name: "body"}}, Msg: e.Message, Type: e.Reason}}
	}
	return e
}

// questionFailedUpstream answers a status that fails the call's question
// rep names (CallFailed names the item's first when rep names none).
func questionFailedUpstream(status int, rep upstreamReport, reason, what string) *ir.ErrorBody {
	e := &ir.ErrorBody{Status: status, Code: ir.ErrorQuestionFailed, Question: rep.Question, Reason: reason}
	if rep.Reason != "" {
		e.Reason, e.Limit = rep.Reason, rep.Limit
	}
	if rep.Question != "" {
		what = "question " + strconv.Quote(rep.Question) + " cannot be answered: " + what
	}
	e.Message = message(what, rep.Reason, status)
	if status == http.StatusUnprocessableEntity && rep.Question != "" {
		loc := ir.Path{{Name: "body"}}.Key(vocab.RequestQuestions).Key(rep.Question)
		e.Detail = []ir.DetailItem{{Loc: loc, Msg: e.Message, Type: string(ir.QuestionErrorInvalidQuestion)}}
	}
	return e
}

// busy answers a status that asks the caller to retry (429, 503, 529),
// with the code and status the specification gives reason.
func busy(status int, reason, what string) *ir.ErrorBody {
	return ir.ReasonError(reason, message(what, "", status)+"; retry after the delay Retry-After gives")
}

// upstreamFailed answers a failure that does not blame the request: 502
// upstream_error, as the specification gives reason.
func upstreamFailed(status int, reason, what string) *ir.ErrorBody {
	return ir.ReasonError(reason, message(what, "", status))
}

// message is what a client reads: the Router's fixed sentence, the
// description of the reason the upstream gave (a word the specification
// defines; "" for none) and the upstream's status.
func message(what, upstreamReason string, status int) string {
	if upstreamReason != "" {
		what += ": " + describe(upstreamReason)
	}
	return what + " (upstream status " + strconv.Itoa(status) + ")"
}

// RetryDelay is the delay an answer of status asks for: for 429, 503 and
// 529, the upstream's (RetryAfter), else DefaultRetryAfter; zero for any
// other status.
func RetryDelay(status int, h http.Header) time.Duration {
	if !AsksRetry(status) {
		return 0
	}
	if d := RetryAfter(h); d > 0 {
		return d
	}
	return DefaultRetryAfter
}

// AsksRetry reports whether an answer of status carries Retry-After: 429,
// 503 and 529 always do.
func AsksRetry(status int) bool {
	return status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable || status == StatusOverloaded
}

// RetryAfter returns the delay a reply asks for: Retry-After-Ms first
// (milliseconds), then Retry-After (seconds, or an HTTP date counted from
// the reply's Date header), cut to MaxRetryAfter; zero when absent,
// unreadable, zero or negative.
func RetryAfter(h http.Header) time.Duration {
	if ms, err := strconv.ParseFloat(strings.TrimSpace(h.Get(vocab.HeaderRetryAfterMs)), 64); err == nil && !math.IsNaN(ms) {
		return capped(time.Duration(min(ms, float64(MaxRetryAfter/time.Millisecond)) * float64(time.Millisecond)))
	}
	v := strings.TrimSpace(h.Get(vocab.HeaderRetryAfter))
	if v == "" {
		return 0
	}
	s, err := strconv.ParseInt(v, 10, 64)
	switch {
	case err == nil:
		return capped(time.Duration(min(s, int64(MaxRetryAfter/time.Second))) * time.Second)
	case errors.Is(err, strconv.ErrRange):
		// A whole number of seconds past int64: past any cap, or negative.
		return capped(time.Duration(s))
	}
	at, err1 := http.ParseTime(v)
	now, err2 := http.ParseTime(h.Get("Date"))
	if err1 != nil || err2 != nil {
		return 0
	}
	return capped(at.Sub(now))
}

func capped(d time.Duration) time.Duration {
	if d <= 0 {
		return 0
	}
	return min(d, MaxRetryAfter)
}

// knownReason reports whether the specification defines reason as a
// reason word: the only upstream text a client may get.
func knownReason(reason string) bool {
	_, ok := vocab.ReasonOf(reason)
	return ok
}

// describe is the specification's description of a reason word, as a
// clause: first letter lower-cased, no final period.
func describe(reason string) string {
	r, ok := vocab.ReasonOf(reason)
	if !ok {
		return reason
	}
	return r.Clause()
}
