package internalwire

import (
	"errors"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
)

// The response shapes (response, usage, batch_response and the extension
// members span_item and set_result) bound to ir.Response and
// ir.BatchResponse in one place: AnswerWriter writes them for every
// listener, ReadResponse reads them for every target codec.

// AnswerWriter writes the answer shapes: the vllm-sr/5.0 ones, and with
// Legacy vllm-sr/4.0's (states answered per state name, error bodies that
// add {"error": {...}}, listings that add the OpenAI data list). Answers
// keep the order they are given in and members are written in a fixed
// order, so output is deterministic. An answer holding NaN or an infinity
// is an error: JSON cannot carry it, so it is an engine bug to report, not
// a body to send.
type AnswerWriter struct {
	Legacy bool
}

var errNotFinite = errors.New("internalwire: a number to write is NaN or infinite")

// Response writes {model, answers, usage} and the extension members r
// holds, with answers in place of r's. fallback is the model written when
// r names none (the standard requires model).
func (w AnswerWriter) Response(r *ir.Response, answers []ir.Answer, fallback *string) ([]byte, error) {
	finite := true
	dst := appendResponse(make([]byte, 0, 512), r, answers, fallback, &finite)
	return dst, finiteErr(finite)
}

// Batch writes a batch response {model, responses, usage}: each response
// under its name with answersOf's answers, the usage summed when b carries
// none.
func (w AnswerWriter) Batch(b *ir.BatchResponse, answersOf func(*ir.NamedResponse) []ir.Answer) ([]byte, error) {
	return writeNamed(b, vocab.BatchResponseResponses, answersOf)
}

// States writes vllm-sr/4.0's answer to a states request: {model, states:
// {state: {question: answer}}, usage}. A states answer is a response
// level, but its model and usage are spelled as a batch response's.
func (w AnswerWriter) States(b *ir.BatchResponse, answersOf func(*ir.NamedResponse) []ir.Answer) ([]byte, error) {
	return writeNamed(b, vocab.ResponseStates, answersOf)
}

// writeNamed writes Batch's or States' answer into a first buffer with room
// for a small response per item, so that a batch grows its buffer about as
// often as one response.
func writeNamed(b *ir.BatchResponse, member string, answersOf func(*ir.NamedResponse) []ir.Answer) ([]byte, error) {
	finite := true
	dst := appendNamedResponses(make([]byte, 0, 512*(1+len(b.Responses))), b, member, answersOf, &finite)
	return dst, finiteErr(finite)
}

func finiteErr(finite bool) error {
	if !finite {
		return errNotFinite
	}
	return nil
}

func appendResponse(dst []byte, r *ir.Response, answers []ir.Answer, fallback *string, finite *bool) []byte {
	o := jsonvalue.OpenObject(dst)
	if r.Model != nil {
		fallback = r.Model
	}
	if fallback != nil {
		o.Name(vocab.ResponseModel)
		o.Dst = jsonvalue.AppendString(o.Dst, *fallback)
	}
	o.Name(vocab.ResponseAnswers)
	o.Dst = appendAnswers(o.Dst, answers, finite)
	o.Name(vocab.ResponseUsage)
	o.Dst = appendUsage(o.Dst, r.Usage)
	for i := range responseExtensions {
		var ok bool
		o, ok = responseExtensions[i].write(o, responseExtensions[i].name, r)
		*finite = *finite && ok
	}
	return o.Close()
}

func appendAnswers(dst []byte, answers []ir.Answer, finite *bool) []byte {
	o := jsonvalue.OpenObject(dst)
	for i := range answers {
		o.Name(answers[i].Name)
		o.Dst = appendAnswer(o.Dst, &answers[i], finite)
	}
	return o.Close()
}

// appendUsage writes a usage; an absent usage is written as zero counts,
// as the standard requires the member.
func appendUsage(dst []byte, u *ir.Usage) []byte {
	if u == nil {
		u = &ir.Usage{}
	}
	o := jsonvalue.OpenObject(dst)
	for _, c := range usageCounts {
		o.Name(c.name)
		o.Dst = appendInt(o.Dst, *c.count(u))
	}
	return o.Close()
}

// usageCounts bind usage's members to ir.Usage's fields.
var usageCounts = [...]struct {
	name  string
	count func(u *ir.Usage) *int64
}{
	{vocab.UsageInputTokens, func(u *ir.Usage) *int64 { return &u.InputTokens }},
	{vocab.UsageOutputTokens, func(u *ir.Usage) *int64 { return &u.OutputTokens }},
}

// appendNamedResponses writes {model, <member>: {name: response}, usage},
// the model left out when b has none; under states each response is its
// answers alone.
func appendNamedResponses(dst []byte, b *ir.BatchResponse, member string, answersOf func(*ir.NamedResponse) []ir.Answer, finite *bool) []byte {
	o := jsonvalue.OpenObject(dst)
	if b.Model != nil {
		o.Name(vocab.BatchResponseModel)
		o.Dst = jsonvalue.AppendString(o.Dst, *b.Model)
	}
	o.Name(member)
	named := jsonvalue.OpenObject(o.Dst)
	for i := range b.Responses {
		nr := &b.Responses[i]
		named.Name(nr.Name)
		if member == vocab.ResponseStates {
			named.Dst = appendAnswers(named.Dst, answersOf(nr), finite)
		} else {
			named.Dst = appendResponse(named.Dst, &nr.Response, answersOf(nr), nil, finite)
		}
	}
	o.Dst = named.Close()
	o.Name(vocab.BatchResponseUsage)
	o.Dst = appendUsage(o.Dst, batchUsage(b))
	return o.Close()
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

// ReadResponse reads a response's model and usage, and with extensions
// its vllm-sr/5.0 members; it returns its answers object for the caller to
// read question by question (AnswerReader). at locates v in the body. A
// member of the wrong type is a *ir.ProtocolError naming its path;
// members it does not read are ignored, as the standard asks of clients.
func ReadResponse(v jsonvalue.Value, at ir.Path, extensions bool) (*ir.Response, jsonvalue.Value, error) {
	if v.Kind() != jsonvalue.KindObject {
		return nil, v, malformed(at, "a response is an object")
	}
	read := &readResponse{}
	r := &read.response
	if m, ok := v.Get(vocab.ResponseModel); ok {
		if m.Kind() != jsonvalue.KindString {
			return nil, v, malformed(at.Key(vocab.ResponseModel), "model is a string")
		}
		read.model = m.Str()
		r.Model = &read.model
	}
	answers, ok := v.Get(vocab.ResponseAnswers)
	if !ok || answers.Kind() != jsonvalue.KindObject {
		return nil, v, malformed(at.Key(vocab.ResponseAnswers), "a response has an object of answers")
	}
	if u, ok := v.Get(vocab.ResponseUsage); ok {
		if err := readUsage(&read.usage, u, at); err != nil {
			return nil, v, err
		}
		r.Usage = &read.usage
	}
	for i := range responseExtensions {
		x, ok := v.Get(responseExtensions[i].name)
		if !ok || !extensions {
			continue
		}
		if err := responseExtensions[i].read(x, at.Key(responseExtensions[i].name), r); err != nil {
			return nil, v, err
		}
	}
	return r, answers, nil
}

// readResponse is a read response with its model and usage, in one
// allocation.
type readResponse struct {
	response ir.Response
	model    string
	usage    ir.Usage
}

// readUsage reads u, the usage of the response at at, into usage.
func readUsage(usage *ir.Usage, u jsonvalue.Value, at ir.Path) error {
	if u.Kind() != jsonvalue.KindObject {
		return malformed(at.Key(vocab.ResponseUsage), "usage is an object")
	}
	for _, c := range usageCounts {
		v, ok := u.Get(c.name)
		if !ok {
			continue
		}
		n, isInt := v.Int()
		if !isInt || n < 0 {
			return malformed(at.Key(vocab.ResponseUsage).Key(c.name), "a token count is a non-negative integer")
		}
		*c.count(usage) = n
	}
	return nil
}

// ReadBatchResponse reads a batch response {model, responses, usage}: its
// object of responses, for the caller to read by name (ReadResponse), and
// its model, which a response that names none takes: the model member when
// it is a string, else the zero Value (the caller copies it out only for a
// response that needs it).
func ReadBatchResponse(root jsonvalue.Value) (responses, model jsonvalue.Value, err error) {
	if root.Kind() != jsonvalue.KindObject {
		return root, jsonvalue.Value{}, malformed(nil, "a batch response is an object")
	}
	responses, ok := root.Get(vocab.BatchResponseResponses)
	if !ok || responses.Kind() != jsonvalue.KindObject {
		return root, jsonvalue.Value{}, malformed(ir.Path{{Name: vocab.BatchResponseResponses}}, "a batch response has an object of responses")
	}
	if m, ok := root.Get(vocab.BatchResponseModel); ok && m.Kind() == jsonvalue.KindString {
		model = m
	}
	return responses, model, nil
}

// malformed is a reply member of the wrong type (or out of its range).
func malformed(at ir.Path, message string) *ir.ProtocolError {
	return ir.Refuse(ir.ReasonWrongType, at, message)
}
