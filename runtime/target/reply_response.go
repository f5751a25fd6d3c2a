package target

import (
	"github.com/vllm-sr/systemone/generated/fieldtable"
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/table"
)

// MaxDepth bounds the nesting of a body this package reads: a reply,
// whose answers echo content (legends, meta, tracks) up to the request's
// own depth, or a call body a deviation rewrites, which the codecs write
// no deeper than the requests they read.
const MaxDepth = 128

// ReplyReader reads what a System One server answers a client with into
// the IR: a response, a batch response, an error body and a model
// listing, in the vllm-sr/5.0 shapes, which contain the standard's
// (systemone/0.2). Extensions says whether the vllm-sr/5.0 members are
// read; the zero ReplyReader reads the standard's only and ignores every
// extension member, since a standard server never sends them and the
// Router never expects them.
//
// Reading is tolerant where the standard asks clients to be (unknown
// members and answer types are ignored, probabilities are matched by key,
// release dates are kept as written) and strict about the members the
// Router acts on: a body that is not JSON, or a member of the wrong type,
// is a *ir.ProtocolError naming the JSON path. One question's malformed
// or missing answer, or one outside the schema's ranges (checkAnswer),
// fails that question alone (invalid_model_output), never its neighbours.
//
// The upstream's own words never reach a client: an error body becomes
// the Router's error table's entry for its status (Error), keeping only
// what can be checked (a reason word the specification defines, a
// question and a state of the call), and a failed answer keeps its kind
// and a defined reason, with the reason's description as its message.
type ReplyReader struct {
	Extensions bool
}

// Response reads one POST /v1/systemone (or /v1/decisions) body answering
// questions, in their order.
func (rd ReplyReader) Response(body []byte, questions []QuestionRef) (*ir.Response, error) {
	root, err := decode(body)
	if err != nil {
		return nil, err
	}
	return rd.response(root, nil, questions)
}

// BatchResponse reads one POST /v1/systemone/batch (or /v1/bundle) body:
// {model, responses: {name: response}, usage}. It returns each planned
// item's response, in the items' order; an item the body does not answer
// has a nil response.
func (rd ReplyReader) BatchResponse(body []byte, items []PlannedItem) ([]*ir.Response, error) {
	root, err := decode(body)
	if err != nil {
		return nil, err
	}
	if root.Kind() != jsonvalue.KindObject {
		return nil, malformed(nil, "a batch response is an object")
	}
	responses, ok := root.Get(vocab.BatchResponseResponses)
	if !ok || responses.Kind() != jsonvalue.KindObject {
		return nil, malformed(ir.Path{{Name: vocab.BatchResponseResponses}}, "a batch response has an object of responses")
	}
	model, _ := root.Get(vocab.BatchResponseModel)
	out := make([]*ir.Response, len(items))
	for i, it := range items {
		v, ok := responses.Get(it.Name)
		if !ok {
			continue
		}
		r, err := rd.response(v, ir.Path{{Name: vocab.BatchResponseResponses}, {Name: it.Name}}, it.Questions)
		if err != nil {
			return nil, err
		}
		if r.Model == nil && model.Kind() == jsonvalue.KindString {
			s := model.Str()
			r.Model = &s
		}
		out[i] = r
	}
	return out, nil
}

func (rd ReplyReader) response(v jsonvalue.Value, at ir.Path, questions []QuestionRef) (*ir.Response, error) {
	if v.Kind() != jsonvalue.KindObject {
		return nil, malformed(at, "a response is an object")
	}
	r := &ir.Response{}
	if m, ok := v.Get(vocab.ResponseModel); ok {
		if m.Kind() != jsonvalue.KindString {
			return nil, malformed(at.Key(vocab.ResponseModel), "model is a string")
		}
		s := m.Str()
		r.Model = &s
	}
	answers, ok := v.Get(vocab.ResponseAnswers)
	if !ok || answers.Kind() != jsonvalue.KindObject {
		return nil, malformed(at.Key(vocab.ResponseAnswers), "a response has an object of answers")
	}
	r.Answers = make([]ir.Answer, len(questions))
	for i, q := range questions {
		r.Answers[i] = rd.answerOf(answers, q)
	}
	if u, ok := v.Get(vocab.ResponseUsage); ok {
		usage, err := readUsage(u, at.Key(vocab.ResponseUsage))
		if err != nil {
			return nil, err
		}
		r.Usage = usage
	}
	if rd.Extensions {
		if err := readExtensions(v, at, r); err != nil {
			return nil, err
		}
	}
	return r, nil
}

func readUsage(u jsonvalue.Value, at ir.Path) (*ir.Usage, error) {
	if u.Kind() != jsonvalue.KindObject {
		return nil, malformed(at, "usage is an object")
	}
	var usage ir.Usage
	for _, f := range []struct {
		name string
		dst  *int64
	}{{vocab.UsageInputTokens, &usage.InputTokens}, {vocab.UsageOutputTokens, &usage.OutputTokens}} {
		v, ok := u.Get(f.name)
		if !ok {
			continue
		}
		n, isInt := v.Int()
		if !isInt || n < 0 {
			return nil, malformed(at.Key(f.name), "a token count is a non-negative integer")
		}
		*f.dst = n
	}
	return &usage, nil
}

// answerOf reads q's answer; a missing or malformed answer fails q alone.
func (rd ReplyReader) answerOf(answers jsonvalue.Value, q QuestionRef) ir.Answer {
	v, ok := answers.Get(q.Name)
	if !ok {
		return failed(q, vocab.ReasonMissingAnswer, "the upstream answer has no answer for this question")
	}
	a, reason := rd.answer(v, q)
	if reason != "" {
		return failed(q, reason, "the upstream answer for this question is not what its type answers with")
	}
	if reason, message := checkAnswer(&a, q); reason != "" {
		return failed(q, reason, message)
	}
	return a
}

func failed(q QuestionRef, reason, message string) ir.Answer {
	return ir.Answer{Name: q.Name, Type: q.Type, Error: ir.QuestionErrorInvalidModelOutput, Reason: reason, Message: message}
}

// answer reads one answer, or returns the fixed reason it is malformed.
func (rd ReplyReader) answer(v jsonvalue.Value, q QuestionRef) (ir.Answer, string) {
	a := ir.Answer{Name: q.Name, Type: q.Type}
	if v.Kind() != jsonvalue.KindObject {
		return a, vocab.ReasonAnswerNotObject
	}
	if rd.Extensions {
		if e, ok := v.Get(vocab.AnswerError); ok {
			return questionError(v, e, a)
		}
	}
	t, ok := v.Get(vocab.AnswerType)
	if !ok || t.Kind() != jsonvalue.KindString {
		return a, vocab.ReasonAnswerWithoutType
	}
	if q.Type != "" && table.QuestionType(t.Str()) != fieldtable.AnswerType(q.Type) {
		return a, vocab.ReasonAnswerTypeMismatch
	}
	a.Type = table.QuestionType(t.Str())
	if reason := readTyped(v, &a, rd.Extensions); reason != "" {
		return a, reason
	}
	if rd.Extensions {
		if reason := readAnswerExtensions(v, &a); reason != "" {
			return a, reason
		}
	}
	return a, ""
}

// questionError reads /v1/decisions' failed answer: its error kind, its
// reason when the specification defines the word (else the kind, as a
// reason). The upstream's message is its own words and
// never reaches a client: the message is the reason's description from
// the specification.
func questionError(v, e jsonvalue.Value, a ir.Answer) (ir.Answer, string) {
	code := ir.QuestionErrorCode(e.Str())
	if e.Kind() != jsonvalue.KindString || !code.Valid() {
		return a, vocab.ReasonUnknownQuestionError
	}
	a.Error, a.Reason = code, string(code)
	if r := stringMember(v, vocab.AnswerReason); knownReason(r) {
		a.Reason = r
	}
	a.Message = describe(a.Reason)
	return a, ""
}

func decode(body []byte) (jsonvalue.Value, error) {
	v, err := jsonvalue.Decode(body, jsonvalue.Options{MaxDepth: MaxDepth})
	if err != nil {
		return v, &ir.ProtocolError{Category: ir.CategoryInvalidRequest, Reason: ir.ReasonInvalidJSON,
			Message: "the upstream body is not JSON", Cause: err}
	}
	return v, nil
}

func malformed(at ir.Path, message string) *ir.ProtocolError {
	return &ir.ProtocolError{Category: ir.CategoryInvalidRequest, Reason: ir.ReasonWrongType, Path: at, Message: message}
}
