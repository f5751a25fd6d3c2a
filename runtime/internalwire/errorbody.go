package internalwire

import (
	"cmp"
	"net/http"

	"github.com/vllm-sr/systemone/generated/fieldtable"
	"github.com/vllm-sr/systemone/generated/validate"
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
)

// The error shapes (error, validation_item, and vllm-sr/4.0's
// legacy_error) bound to ir.ErrorBody in one place.

// Error writes an error body; its status is e.Status, else the generated
// table's status for e.Code, else 500. The body is at most
// ir.MaxErrorBytes whatever e holds: e is written cut to its bounds
// (ir.ErrorBody.Bounded), and cut to the tight bounds when that is still
// too large.
func (w AnswerWriter) Error(e *ir.ErrorBody) (int, []byte) {
	status := cmp.Or(e.Status, e.Code.Status())
	b := e.Bounded(false)
	out := w.errorBody(&b, status)
	if len(out) > ir.MaxErrorBytes {
		b = e.Bounded(true)
		out = w.errorBody(&b, status)
	}
	return status, out
}

// errorBody writes {detail, code, <flat>} and with Legacy {"error": {code,
// message, <flat>}}.
func (w AnswerWriter) errorBody(e *ir.ErrorBody, status int) []byte {
	o := jsonvalue.OpenObject(make([]byte, 0, 256))
	o.Name(vocab.ErrorDetail)
	o.Dst = appendDetail(o.Dst, e, status)
	if e.Code != "" {
		o.Name(vocab.ErrorCode)
		o.Dst = jsonvalue.AppendString(o.Dst, string(e.Code))
	}
	appendFlat(&o, e)
	if w.Legacy {
		o.Name(vocab.ErrorError)
		legacy := jsonvalue.OpenObject(o.Dst)
		appendStringMembers(&legacy, vocab.LegacyErrorCode, cmp.Or(string(e.Code), legacyCode(status)),
			vocab.LegacyErrorMessage, message(e, status))
		appendFlat(&legacy, e)
		o.Dst = legacy.Close()
	}
	return o.Close()
}

// appendDetail writes the standard detail: a list on 422 (one item
// locating the question when e carries none), else the message.
func appendDetail(dst []byte, e *ir.ErrorBody, status int) []byte {
	if status != http.StatusUnprocessableEntity {
		return jsonvalue.AppendString(dst, message(e, status))
	}
	items := e.Detail
	if len(items) == 0 {
		loc := ir.Path{{Name: "body"}}
		if e.Question != "" {
			loc = loc.Key(vocab.RequestQuestions).Key(e.Question)
		}
		items = []ir.DetailItem{{Loc: loc, Msg: message(e, status), Type: string(ir.QuestionErrorInvalidQuestion)}}
	}
	return appendJoined(dst, "[]", items, func(dst []byte, d *ir.DetailItem) []byte {
		o := jsonvalue.OpenObject(dst)
		o.Name(vocab.ValidationItemLoc)
		o.Dst = appendJoined(o.Dst, "[]", d.Loc, func(dst []byte, step *ir.PathElem) []byte {
			if step.IsIndex {
				return appendInt(dst, int64(step.Index))
			}
			return jsonvalue.AppendString(dst, step.Name)
		})
		appendStringMembers(&o, vocab.ValidationItemMsg, d.Msg, vocab.ValidationItemType, d.Type)
		return o.Close()
	})
}

func message(e *ir.ErrorBody, status int) string {
	return cmp.Or(e.Message, http.StatusText(status))
}

// appendFlat writes the extension's flat question, state, reason and
// limit, those e holds.
func appendFlat(o *jsonvalue.ObjectWriter, e *ir.ErrorBody) {
	for _, s := range [...]struct{ name, value string }{
		{vocab.ErrorQuestion, e.Question}, {vocab.ErrorState, e.State}, {vocab.ErrorReason, e.Reason},
	} {
		if s.value != "" {
			o.Name(s.name)
			o.Dst = jsonvalue.AppendString(o.Dst, s.value)
		}
	}
	if e.Limit != nil {
		o.Name(vocab.ErrorLimit)
		o.Dst = appendInt(o.Dst, *e.Limit)
	}
}

// legacyCode is the code of an error that names none, as vllm-sr/4.0
// requires one: the generated request error of its status when exactly
// one has it, else legacyNoCode. A status several codes share (404:
// model_not_found and not_found) says nothing about which, so every
// producer of such an error names its code.
func legacyCode(status int) string {
	code := ""
	for _, c := range fieldtable.RequestErrors {
		if c.Status != status {
			continue
		}
		if code != "" {
			return legacyNoCode
		}
		code = c.Code
	}
	return cmp.Or(code, legacyNoCode)
}

// legacyNoCode is the code of an error whose status no single request
// error has.
const legacyNoCode = "error" //vocab:not-spec a legacy_error code value, not the error member

// ErrorReport is what an error body names that can be checked, as the
// upstream wrote it: fixed words and names, never its text. The caller
// vets each against what it sent.
type ErrorReport struct {
	Code, Reason, Question, State string
	Limit                         *int64
}

// ReadErrorReport reads an error body under the schema rs names, after
// its generated validator: the flat members the schema defines (the
// extension set's code, reason, question, state and limit) and the
// question its 422 detail list locates. A body its schema does not define
// (not JSON, not an object, a member of the wrong type, or on a vllm-sr
// schema one no specification defines) names nothing: the zero report,
// for the status alone to answer.
func ReadErrorReport(root jsonvalue.Value, rs *Replies) ErrorReport {
	var r ErrorReport
	if len(validate.ErrorBody(rs.schema, root)) > 0 {
		return r
	}
	if detail, ok := root.Get(vocab.ErrorDetail); ok && detail.Kind() == jsonvalue.KindArray {
		r.Question, r.State = locateQuestion(detail)
	}
	if !rs.errorFlat {
		return r
	}
	r.Code, r.Reason = stringMember(root, vocab.ErrorCode), stringMember(root, vocab.ErrorReason)
	r.Question = cmp.Or(stringMember(root, vocab.ErrorQuestion), r.Question)
	r.State = cmp.Or(stringMember(root, vocab.ErrorState), r.State)
	if l, ok := root.Get(vocab.ErrorLimit); ok {
		n, _ := l.Int()
		r.Limit = &n
	}
	return r
}

// locateQuestion is the question (and, in a batch body, the request) the
// first detail item locating one names: loc body.questions.<q>... or
// body.requests.<s>.questions.<q>....
func locateQuestion(detail jsonvalue.Value) (question, state string) {
	for _, item := range detail.Items() {
		loc, _ := item.Get(vocab.ValidationItemLoc)
		steps := loc.Items()
		if len(steps) >= 5 && steps[1].Str() == vocab.BatchRequests && steps[3].Str() == vocab.RequestQuestions {
			return steps[4].Str(), steps[2].Str()
		}
		if len(steps) >= 3 && steps[1].Str() == vocab.RequestQuestions {
			return steps[2].Str(), ""
		}
	}
	return "", ""
}
