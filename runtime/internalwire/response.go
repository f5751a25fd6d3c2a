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

// ReadResponse reads a checked response's (CheckResponse,
// CheckBatchResponse) model and usage, and the extension members its
// schema defines; it returns its answers object for the caller to read
// question by question (AnswerReader). item names the response in a batch
// response ("" for a response alone), for the path of an error. What the
// check cannot know is refused here, as a *ir.ProtocolError naming its
// path: a response without answers (the internal form's shapes make them
// optional, for 4.0's states answers, which no call of the Router asks
// for) and a span that starts after its end.
func ReadResponse(v jsonvalue.Value, rs *Replies, item string) (*ir.Response, jsonvalue.Value, error) {
	read := &readResponse{}
	r := &read.response
	if m, ok := v.Get(vocab.ResponseModel); ok {
		read.model = m.Str()
		r.Model = &read.model
	}
	answers, ok := v.Get(vocab.ResponseAnswers)
	if !ok {
		return nil, v, ir.Refuse(ir.ReasonMissingMember, responsePath(item).Key(vocab.ResponseAnswers), "a response answers its questions")
	}
	if u, ok := v.Get(vocab.ResponseUsage); ok {
		for _, c := range usageCounts {
			if n, ok := u.Get(c.name); ok {
				*c.count(&read.usage), _ = n.Int()
			}
		}
		r.Usage = &read.usage
	}
	for i := range responseExtensions {
		if !rs.response[i] {
			continue
		}
		x, ok := v.Get(responseExtensions[i].name)
		if !ok {
			continue
		}
		if bad, ok := responseExtensions[i].read(x, r); !ok {
			return nil, v, ir.Refuse(ir.ReasonOutOfRange, append(responsePath(item).Key(responseExtensions[i].name), bad...), responseExtensions[i].invalid)
		}
	}
	return r, answers, nil
}

// responsePath is the path of the response item names in a batch
// response, or of a response alone.
func responsePath(item string) ir.Path {
	if item == "" {
		return nil
	}
	return ir.Path{{Name: vocab.BatchResponseResponses}, {Name: item}}
}

// readResponse is a read response with its model and usage, in one
// allocation.
type readResponse struct {
	response ir.Response
	model    string
	usage    ir.Usage
}

// ReadBatchResponse reads a checked batch response {model, responses,
// usage}: its object of responses, for the caller to read by name
// (ReadResponse), and its model, which a response that names none takes
// (the zero Value when it has none; the caller copies it out only for a
// response that needs it).
func ReadBatchResponse(root jsonvalue.Value) (responses, model jsonvalue.Value) {
	responses, _ = root.Get(vocab.BatchResponseResponses)
	model, _ = root.Get(vocab.BatchResponseModel)
	return responses, model
}
