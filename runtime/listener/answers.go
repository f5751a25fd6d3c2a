package listener

import (
	"cmp"
	"errors"
	"net/http"

	"github.com/vllm-sr/systemone/generated/fieldtable"
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
)

// Answerer writes a listener's answers: the vllm-sr/5.0 shapes, and with
// Legacy the vllm-sr/4.0 ones (states answered per state name, error bodies
// that add {"error": {...}}, listings that add the OpenAI data list).
// Answers keep request order, and members are written in a fixed order, so
// output is deterministic.
type Answerer struct {
	Legacy bool
}

// ErrNoOutcome: the outcome does not fit the request (a batch request
// answered with a single response, or nothing at all).
var ErrNoOutcome = errors.New("listener: the outcome does not answer the request's kind")

// Success writes a success body for req.
func (a Answerer) Success(req *ClientRequest, out Outcome) ([]byte, error) {
	if req == nil {
		return nil, ErrNoOutcome
	}
	w := writer{dst: make([]byte, 0, 512)}
	switch {
	case req.Batch != nil || req.Request != nil && req.Request.States != nil:
		if out.Batch == nil {
			return nil, ErrNoOutcome
		}
		if req.Batch == nil && a.Legacy {
			w.statesResponse(out.Batch, req.QuestionFailures)
		} else {
			w.batchResponse(out.Batch, req.QuestionFailures)
		}
	default:
		if out.Response == nil {
			return nil, ErrNoOutcome
		}
		var model *string
		if req.Request != nil {
			model = req.Request.Model
		}
		w.response(out.Response, MergeFailures(out.Response.Answers, req.QuestionFailures, ""), model)
	}
	return w.dst, w.err
}

// response writes {model, answers, usage} and the extension members that
// are present. fallback is the request's model, written when the response
// names none (the standard requires model).
func (w *writer) response(r *ir.Response, answers []ir.Answer, fallback *string) {
	w.dst = append(w.dst, '{')
	model := r.Model
	if model == nil {
		model = fallback
	}
	first := true
	if model != nil {
		w.key(vocab.ResponseModel, true)
		w.str(*model)
		first = false
	}
	w.key(vocab.ResponseAnswers, first)
	w.answers(answers)
	w.key(vocab.ResponseUsage, false)
	w.usage(r.Usage)
	w.extensions(r)
	w.dst = append(w.dst, '}')
}

func (w *writer) answers(answers []ir.Answer) {
	w.dst = append(w.dst, '{')
	for i := range answers {
		w.key(answers[i].Name, i == 0)
		w.answer(&answers[i])
	}
	w.dst = append(w.dst, '}')
}

// usage writes a response's usage; an absent usage is written as zero
// counts, as the standard requires the member.
func (w *writer) usage(u *ir.Usage) {
	var in, out int64
	if u != nil {
		in, out = u.InputTokens, u.OutputTokens
	}
	w.dst = append(w.dst, '{')
	w.key(vocab.UsageInputTokens, true)
	w.int(in)
	w.key(vocab.UsageOutputTokens, false)
	w.int(out)
	w.dst = append(w.dst, '}')
}

// batchResponse writes {model, responses, usage}: each response under its
// name, the usage summed when the outcome carries none.
func (w *writer) batchResponse(b *ir.BatchResponse, failures []QuestionFailure) {
	w.namedResponses(b, vocab.BatchResponseResponses, func(nr *ir.NamedResponse) {
		w.response(&nr.Response, MergeFailures(nr.Response.Answers, failures, nr.Name), nil)
	})
}

// statesResponse writes vllm-sr/4.0's answer to a states request:
// {model, states: {state: {question: answer}}, usage}.
func (w *writer) statesResponse(b *ir.BatchResponse, failures []QuestionFailure) {
	w.namedResponses(b, vocab.ResponseStates, func(nr *ir.NamedResponse) {
		w.answers(MergeFailures(nr.Response.Answers, failures, ""))
	})
}

// namedResponses writes {model, <member>: {name: each(response)}, usage},
// the model left out when the outcome has none. A 4.0 states answer is a
// response level, but its model and usage are spelled as a batch
// response's.
func (w *writer) namedResponses(b *ir.BatchResponse, member string, each func(nr *ir.NamedResponse)) {
	w.dst = append(w.dst, '{')
	first := true
	if b.Model != nil {
		w.key(vocab.BatchResponseModel, true)
		w.str(*b.Model)
		first = false
	}
	w.key(member, first)
	w.dst = append(w.dst, '{')
	for i := range b.Responses {
		nr := &b.Responses[i]
		w.key(nr.Name, i == 0)
		each(nr)
	}
	w.dst = append(w.dst, '}')
	w.key(vocab.BatchResponseUsage, false)
	w.usage(batchUsage(b))
	w.dst = append(w.dst, '}')
}

func batchUsage(b *ir.BatchResponse) *ir.Usage {
	if b.Usage != nil {
		return b.Usage
	}
	var sum ir.Usage
	for i := range b.Responses {
		if u := b.Responses[i].Response.Usage; u != nil {
			sum.InputTokens += u.InputTokens
			sum.OutputTokens += u.OutputTokens
		}
	}
	return &sum
}

// Error writes an error body; its status is e.Status, else the generated
// table's status for e.Code, else 500. The body is at most
// ir.MaxErrorBytes whatever e holds: e is written cut to its bounds
// (ir.ErrorBody.Bounded), and cut to the tight bounds when that is still
// too large.
func (a Answerer) Error(e *ir.ErrorBody) (int, []byte) {
	b := e.Bounded(false)
	status, out := a.error(&b)
	if len(out) > ir.MaxErrorBytes {
		b = e.Bounded(true)
		status, out = a.error(&b)
	}
	return status, out
}

// error writes e as it is.
func (a Answerer) error(e *ir.ErrorBody) (int, []byte) {
	status := errorStatus(e)
	w := writer{dst: make([]byte, 0, 256)}
	w.dst = append(w.dst, '{')
	w.key(vocab.ErrorDetail, true)
	w.detail(e, status)
	if e.Code != "" {
		w.key(vocab.ErrorCode, false)
		w.str(string(e.Code))
	}
	w.flat(e)
	if a.Legacy {
		w.key(vocab.ErrorError, false)
		w.legacyError(e, status)
	}
	w.dst = append(w.dst, '}')
	return status, w.dst
}

func errorStatus(e *ir.ErrorBody) int {
	if e.Status != 0 {
		return e.Status
	}
	if c, ok := fieldtable.RequestError(string(e.Code)); ok && c.Status != 0 {
		return c.Status
	}
	return http.StatusInternalServerError
}

// detail writes the standard detail: a list on 422 (one item locating the
// question when the body carries none), else the message.
func (w *writer) detail(e *ir.ErrorBody, status int) {
	if status != http.StatusUnprocessableEntity {
		w.str(message(e, status))
		return
	}
	items := e.Detail
	if len(items) == 0 {
		loc := ir.Path{{Name: "body"}}
		if e.Question != "" {
			loc = append(loc, ir.PathElem{Name: vocab.RequestQuestions}, ir.PathElem{Name: e.Question})
		}
		items = []ir.DetailItem{{Loc: loc, Msg: message(e, status), Type: string(ir.QuestionErrorInvalidQuestion)}}
	}
	w.dst = append(w.dst, '[')
	for i := range items {
		if i > 0 {
			w.dst = append(w.dst, ',')
		}
		w.detailItem(&items[i])
	}
	w.dst = append(w.dst, ']')
}

func (w *writer) detailItem(d *ir.DetailItem) {
	w.dst = append(w.dst, '{')
	w.key(vocab.ValidationItemLoc, true)
	w.dst = append(w.dst, '[')
	for i, e := range d.Loc {
		if i > 0 {
			w.dst = append(w.dst, ',')
		}
		if e.IsIndex {
			w.int(int64(e.Index))
		} else {
			w.str(e.Name)
		}
	}
	w.dst = append(w.dst, ']')
	w.key(vocab.ValidationItemMsg, false)
	w.str(d.Msg)
	w.key(vocab.ValidationItemType, false)
	w.str(d.Type)
	w.dst = append(w.dst, '}')
}

func message(e *ir.ErrorBody, status int) string {
	if e.Message != "" {
		return e.Message
	}
	return http.StatusText(status)
}

// flat writes the extension's flat question, state, reason and limit.
func (w *writer) flat(e *ir.ErrorBody) {
	if e.Question != "" {
		w.key(vocab.ErrorQuestion, false)
		w.str(e.Question)
	}
	if e.State != "" {
		w.key(vocab.ErrorState, false)
		w.str(e.State)
	}
	if e.Reason != "" {
		w.key(vocab.ErrorReason, false)
		w.str(e.Reason)
	}
	if e.Limit != nil {
		w.key(vocab.ErrorLimit, false)
		w.int(*e.Limit)
	}
}

// legacyError writes vllm-sr/4.0's {code, message, question, state,
// reason, limit}; code is required there, so an error without one takes
// legacyCode of its status.
func (w *writer) legacyError(e *ir.ErrorBody, status int) {
	code := string(e.Code)
	if code == "" {
		code = legacyCode(status)
	}
	w.dst = append(w.dst, '{')
	w.key(vocab.LegacyErrorCode, true)
	w.str(code)
	w.key(vocab.LegacyErrorMessage, false)
	w.str(message(e, status))
	w.flat(e)
	w.dst = append(w.dst, '}')
}

// legacyCode is the code of an error that names none: the generated
// request error of its status when exactly one has it, else legacyNoCode. A
// status several codes share (404: model_not_found and not_found) says
// nothing about which, so every producer of such an error names its code.
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

// The fixed words of vllm-sr/4.0's error and OpenAI listing that are values,
// not members: the code of an error whose status no single request error
// has, the listing's and an entry's object (the spec's enums [list] and
// [model]), and who owns every model.
const (
	legacyNoCode     = "error" //vocab:not-spec a legacy_error code value, not the error member
	legacyListObject = "list"
	legacyItemObject = "model" //vocab:not-spec legacy_list_item.object's enum value, not the model member
	legacyOwnedBy    = "vllm-sr"
)

// Listing writes GET /v1/models: {models: [...]}, and with Legacy first
// the OpenAI list {object: "list", data: [...]}.
func (a Answerer) Listing(l *ir.Listing) ([]byte, error) {
	w := writer{dst: make([]byte, 0, 256)}
	w.dst = append(w.dst, '{')
	if a.Legacy {
		w.key(vocab.ListingObject, true)
		w.str(legacyListObject)
		w.key(vocab.ListingData, false)
		w.dst = append(w.dst, '[')
		for i := range l.Models {
			if i > 0 {
				w.dst = append(w.dst, ',')
			}
			w.dst = append(w.dst, '{')
			w.key(vocab.LegacyListItemID, true)
			w.str(l.Models[i].Name)
			w.key(vocab.LegacyListItemObject, false)
			w.str(legacyItemObject)
			w.key(vocab.LegacyListItemOwnedBy, false)
			w.str(legacyOwnedBy)
			w.dst = append(w.dst, '}')
		}
		w.dst = append(w.dst, ']')
	}
	w.key(vocab.ListingModels, !a.Legacy)
	w.dst = append(w.dst, '[')
	for i := range l.Models {
		if i > 0 {
			w.dst = append(w.dst, ',')
		}
		w.listed(&l.Models[i])
	}
	w.dst = append(w.dst, "]}"...)
	return w.dst, w.err
}

func (w *writer) listed(m *ir.ListedModel) {
	w.dst = append(w.dst, '{')
	w.key(vocab.ListingEntryName, true)
	w.str(m.Name)
	w.key(vocab.ListingEntryDescription, false)
	w.str(m.Description)
	w.key(vocab.ListingEntryReleaseDate, false)
	w.str(m.ReleaseDate)
	if m.Version != nil {
		w.key(vocab.ListingEntryVersion, false)
		w.str(*m.Version)
	}
	if m.Features != nil {
		w.key(vocab.ListingEntryFeatures, false)
		w.dst = append(w.dst, '[')
		for i, f := range m.Features {
			if i > 0 {
				w.dst = append(w.dst, ',')
			}
			w.str(f)
		}
		w.dst = append(w.dst, ']')
	}
	if m.Card.IsValid() {
		w.key(vocab.ListingEntryCard, false)
		w.content(m.Card)
	}
	w.dst = append(w.dst, '}')
}
