package shapes

import (
	"cmp"
	"net/http"

	"github.com/vllm-sr/systemone/generated/fieldtable"
	"github.com/vllm-sr/systemone/generated/validate"
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/table"
)

// The error shapes (error, validation_item, and vllm-sr/4.0's
// legacy_error, which is written alone) bound to ir.ErrorBody for the
// writer and to ErrorReport for the reader: the generated dispatch
// (zz_generated.replybind.go) calls the functions below, one per bound
// member.

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

// errorWrite is the state of writing one error body (and, with Legacy,
// its vllm-sr/4.0 error object): e, cut to its bounds, and its status.
type errorWrite struct {
	e      *ir.ErrorBody
	status int
}

// errorBody writes {detail, code, <flat>} and with Legacy {"error": {code,
// message, <flat>}}. An error body is the server's own: no passive member
// of a read one reaches it (an upstream's words never reach a client).
func (w AnswerWriter) errorBody(e *ir.ErrorBody, status int) []byte {
	o := w.object(make([]byte, 0, 256), table.LevelError, nil)
	s := errorWrite{e: e, status: status}
	o.each(errorSlots, func(slot int) { w.writeErrorSlot(&o, &s, slot) })
	return o.Close()
}

func (w AnswerWriter) writeErrorDetail(o *replyObject, s *errorWrite) {
	o.Name(vocab.ErrorDetail)
	o.Dst = w.appendDetail(o.Dst, s.e, s.status)
}

// writeErrorError writes vllm-sr/4.0's error object, with Legacy alone.
func (w AnswerWriter) writeErrorError(o *replyObject, s *errorWrite) {
	if !w.Legacy {
		return
	}
	o.Name(vocab.ErrorError)
	legacy := w.object(o.Dst, table.LevelLegacyError, nil)
	legacy.each(legacyErrorSlots, func(slot int) { w.writeLegacyErrorSlot(&legacy, s, slot) })
	o.Dst = legacy.Close()
}

// legacyErrorWrite is the state of writing 4.0's error object: the error
// body's.
type legacyErrorWrite = errorWrite

// writeLegacyErrorCode writes the code 4.0 requires: the body's, else the
// status's.
func (w AnswerWriter) writeLegacyErrorCode(o *replyObject, s *legacyErrorWrite) {
	o.str(vocab.LegacyErrorCode, cmp.Or(string(s.e.Code), legacyCode(s.status)))
}

// writeLegacyErrorMessage writes the message 4.0 requires: the body's, else
// the status's words (message).
func (w AnswerWriter) writeLegacyErrorMessage(o *replyObject, s *legacyErrorWrite) {
	o.str(vocab.LegacyErrorMessage, message(s.e, s.status))
}

// writeNonEmpty writes name: value unless value is empty (srgen's default
// writer of a string the canonical form does not require).
func writeNonEmpty(o *replyObject, name, value string) {
	if value != "" {
		o.str(name, value)
	}
}

// appendDetail writes the standard detail: a list on 422 (one item
// locating the question when e carries none) and for an error whose
// detail is a list whatever its status (DetailList), else the message.
func (w AnswerWriter) appendDetail(dst []byte, e *ir.ErrorBody, status int) []byte {
	if status != http.StatusUnprocessableEntity && !(e.DetailList && len(e.Detail) > 0) {
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
		o := w.object(dst, table.LevelValidationItem, nil)
		s := validationItemWrite{d: d}
		o.each(validationItemSlots, func(slot int) { w.writeValidationItemSlot(&o, &s, slot) })
		return o.Close()
	})
}

// validationItemWrite is the state of writing one 422 detail item.
type validationItemWrite struct{ d *ir.DetailItem }

func (w AnswerWriter) writeValidationItemLoc(o *replyObject, s *validationItemWrite) {
	o.Name(vocab.ValidationItemLoc)
	o.Dst = appendJoined(o.Dst, "[]", s.d.Loc, func(dst []byte, step *ir.PathElem) []byte {
		if step.IsIndex {
			return appendInt(dst, int64(step.Index))
		}
		return jsonvalue.AppendString(dst, step.Name)
	})
}

// writeValidationItemInput writes nothing: the value that failed is never
// echoed.
func (w AnswerWriter) writeValidationItemInput(*replyObject, *validationItemWrite) {}

// writeValidationItemCtx writes the check's parameters of a failed
// question's item: {"reason": <word>, "limit": <n>}, each when set
// (ir.DetailItem); nothing for an item without them.
func (w AnswerWriter) writeValidationItemCtx(o *replyObject, s *validationItemWrite) {
	if s.d.Reason == "" && s.d.Limit == nil {
		return
	}
	o.Name(vocab.ValidationItemCtx)
	ctx := jsonvalue.OpenObject(o.Dst)
	if s.d.Reason != "" {
		ctx.Name(vocab.ErrorReason)
		ctx.Dst = jsonvalue.AppendString(ctx.Dst, s.d.Reason)
	}
	if s.d.Limit != nil {
		ctx.Name(vocab.ErrorLimit)
		ctx.Dst = appendInt(ctx.Dst, *s.d.Limit)
	}
	o.Dst = ctx.Close()
}

func message(e *ir.ErrorBody, status int) string {
	return cmp.Or(e.Message, http.StatusText(status))
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
	// Questions are the failed questions the detail list locates, each
	// with its item's type and ctx (a /v1/decisions refusal of a request
	// none of whose questions is valid lists every one: ir.DetailItem), at
	// most ir.MaxDetailItems, in the list's order.
	Questions []QuestionReport
}

// QuestionReport is one question's failure as an error's detail list
// names it: the question (and, in a batch body, the request) its item
// locates, the item's type (a question error kind, as the runtime writes
// it) and its ctx's reason and limit, as the upstream wrote them: the
// caller vets each against what it sent and the generated tables.
type QuestionReport struct {
	State, Question, Kind, Reason string
	Limit                         *int64
}

// ReadErrorReport reads an error body under the schema rs names, after
// its generated validator: the flat members the schema defines (the
// extension set's code, reason, question, state and limit) and the
// question its 422 detail list locates. A body its schema does not define
// (not JSON, not an object, a member of the wrong type, or on a vllm-sr
// schema one no specification defines) names nothing: the zero report,
// for the status alone to answer. Its passive members are read and
// dropped: an upstream's words never reach a client.
func ReadErrorReport(root jsonvalue.Value, rs *Replies) ErrorReport {
	if len(validate.ErrorBody(rs.schema, root)) > 0 {
		return ErrorReport{}
	}
	s := errorRead{rs: rs}
	_, _ = readErrorMembers(&s, root.Members())
	s.r.Question = cmp.Or(s.r.Question, s.located.question)
	s.r.State = cmp.Or(s.r.State, s.located.state)
	return s.r
}

// errorRead is the state of reading one checked error body: the flat
// members into r, the detail's located question beside them (the flat
// members name it first).
type errorRead struct {
	r       ErrorReport
	rs      *Replies
	located struct{ question, state string }
	//lint:ignore U1000 the slot srgen's dispatch reads a passive member of this level into (none today)
	extra []jsonvalue.Member
}

func (s *errorRead) takes(slot int) bool { return s.rs.error&(1<<slot) != 0 }

func (s *errorRead) readErrorDetail(m *jsonvalue.Member) error {
	if m.Value.Kind() == jsonvalue.KindArray {
		s.r.Questions = s.locateQuestions(m.Value)
		if len(s.r.Questions) > 0 {
			s.located.question, s.located.state = s.r.Questions[0].Question, s.r.Questions[0].State
		}
	}
	return nil
}

// readErrorError: vllm-sr/4.0's error object repeats the flat members.
func (s *errorRead) readErrorError(*jsonvalue.Member) error { return nil }

// locateQuestions are the questions the detail items locate (loc
// body.questions.<q>... or body.requests.<s>.questions.<q>...), in order,
// at most ir.MaxDetailItems (a server writes no more), each with its
// item's type and ctx.
func (s *errorRead) locateQuestions(detail jsonvalue.Value) []QuestionReport {
	var out []QuestionReport
	for _, item := range detail.Items() {
		if len(out) == ir.MaxDetailItems {
			break
		}
		v := validationItemRead{defined: s.rs.validationItem}
		_, _ = readValidationItemMembers(&v, item.Members())
		var q QuestionReport
		steps := v.loc.Items()
		switch {
		case len(steps) >= 5 && steps[1].Str() == vocab.BatchRequests && steps[3].Str() == vocab.RequestQuestions:
			q.Question, q.State = steps[4].Str(), steps[2].Str()
		case len(steps) >= 3 && steps[1].Str() == vocab.RequestQuestions:
			q.Question = steps[2].Str()
		default:
			continue
		}
		q.Kind = v.typ
		if r, ok := v.ctx.Get(vocab.ErrorReason); ok && r.Kind() == jsonvalue.KindString {
			q.Reason = r.Str()
		}
		if l, ok := v.ctx.Get(vocab.ErrorLimit); ok {
			if n, isInt := l.Int(); isInt {
				q.Limit = &n
			}
		}
		out = append(out, q)
	}
	return out
}

// validationItemRead is the state of reading one checked detail item: its
// location, its type and its ctx (its message is the upstream's words).
type validationItemRead struct {
	loc     jsonvalue.Value
	typ     string
	ctx     jsonvalue.Value
	defined uint64
	//lint:ignore U1000 the slot srgen's dispatch reads a passive member of this level into (none today)
	extra []jsonvalue.Member
}

func (s *validationItemRead) takes(slot int) bool { return s.defined&(1<<slot) != 0 }

func (s *validationItemRead) readValidationItemLoc(m *jsonvalue.Member) error {
	s.loc = m.Value
	return nil
}

func (s *validationItemRead) readValidationItemMsg(*jsonvalue.Member) error   { return nil }
func (s *validationItemRead) readValidationItemInput(*jsonvalue.Member) error { return nil }

func (s *validationItemRead) readValidationItemType(m *jsonvalue.Member) error {
	if m.Value.Kind() == jsonvalue.KindString {
		s.typ = m.Value.Str()
	}
	return nil
}

func (s *validationItemRead) readValidationItemCtx(m *jsonvalue.Member) error {
	if m.Value.Kind() == jsonvalue.KindObject {
		s.ctx = m.Value
	}
	return nil
}
