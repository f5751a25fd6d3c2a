package shapes

import (
	"errors"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/table"
)

// The response shapes (response, batch_response, usage) bound to
// ir.Response, ir.BatchResponse and ir.Usage: the generated dispatch
// (zz_generated.replybind.go) calls the functions below, one per bound
// member; the extension members and their span_item and set_result are in
// response_ext.go. AnswerWriter writes them for every listener,
// ReadResponse reads them for every target codec.

// AnswerWriter writes the answer shapes: the vllm-sr/5.0 ones, and with
// Legacy vllm-sr/4.0's (states answered per state name, error bodies that
// add {"error": {...}}, listings that add the OpenAI data list). Answers
// keep the order they are given in and members are written in the
// generated slots' order, so output is deterministic; the passive members
// an IR object carries (its Extra) are written at their slots. An answer
// holding NaN or an infinity is an error: JSON cannot carry it, so it is
// an engine bug to report, not a body to send.
type AnswerWriter struct {
	Legacy bool
	// Skip leaves out the members a client's schema does not take, at
	// every level, bound, passive or extra (SkipUndefined(systemone/0.2):
	// the extension set's members, which a standard server never sends);
	// nil writes every member.
	Skip func(level table.Level, name string) bool
}

func (w AnswerWriter) skip(level table.Level, name string) bool {
	return w.Skip != nil && w.Skip(level, name)
}

var errNotFinite = errors.New("shapes: a number to write is NaN or infinite")

// Response writes {model, answers, usage} and the extension members r
// holds, with answers in place of r's. fallback is the model written when
// r names none (the standard requires model).
func (w AnswerWriter) Response(r *ir.Response, answers []ir.Answer, fallback *string) ([]byte, error) {
	finite := true
	dst := w.appendResponse(make([]byte, 0, 512), &responseWrite{r: r, answers: answers, model: fallback}, &finite)
	return dst, finiteErr(finite)
}

// Batch writes a batch response {model, responses, usage}: each response
// under its name with answersOf's answers, the usage summed when b carries
// none.
func (w AnswerWriter) Batch(b *ir.BatchResponse, answersOf func(*ir.NamedResponse) []ir.Answer) ([]byte, error) {
	o := w.object(make([]byte, 0, 512*(1+len(b.Responses))), table.LevelBatchResponse, b.Extra)
	s := batchResponseWrite{b: b, answersOf: answersOf}
	o.each(batchResponseSlots, func(slot int) { w.writeBatchResponseSlot(&o, &s, slot) })
	return o.Close(), finiteErr(o.finite)
}

// States writes vllm-sr/4.0's answer to a states request: {model, states:
// {state: {question: answer}}, usage}, a response whose model and usage
// are the batch's.
func (w AnswerWriter) States(b *ir.BatchResponse, answersOf func(*ir.NamedResponse) []ir.Answer) ([]byte, error) {
	finite := true
	r := &ir.Response{Model: b.Model, Usage: batchUsage(b)}
	s := &responseWrite{r: r, states: b, answersOf: answersOf}
	dst := w.appendResponse(make([]byte, 0, 512*(1+len(b.Responses))), s, &finite)
	return dst, finiteErr(finite)
}

func finiteErr(finite bool) error {
	if !finite {
		return errNotFinite
	}
	return nil
}

// responseWrite is the state of writing one response: r with answers in
// place of its own and model when r names none, or (states) a 4.0 states
// answer, whose answers are each state's.
type responseWrite struct {
	r         *ir.Response
	answers   []ir.Answer
	model     *string
	states    *ir.BatchResponse
	answersOf func(*ir.NamedResponse) []ir.Answer
}

func (w AnswerWriter) appendResponse(dst []byte, s *responseWrite, finite *bool) []byte {
	o := w.object(dst, table.LevelResponse, s.r.Extra)
	o.each(responseSlots, func(slot int) { w.writeResponseSlot(&o, s, slot) })
	return o.close(finite)
}

// writeResponseModel writes the response's model, else the caller's
// fallback (the standard requires model).
func (w AnswerWriter) writeResponseModel(o *replyObject, s *responseWrite) {
	model := s.model
	if s.r.Model != nil {
		model = s.r.Model
	}
	if model != nil {
		o.str(vocab.ResponseModel, *model)
	}
}

func (w AnswerWriter) writeResponseAnswers(o *replyObject, s *responseWrite) {
	if s.states == nil {
		o.Name(vocab.ResponseAnswers)
		o.Dst = w.appendAnswers(o.Dst, s.answers, &o.finite)
	}
}

// writeResponseUsage writes a usage; an absent usage is written as zero
// counts, as the standard requires the member.
func (w AnswerWriter) writeResponseUsage(o *replyObject, s *responseWrite) {
	o.Name(vocab.ResponseUsage)
	o.Dst = w.appendUsage(o.Dst, s.r.Usage)
}

func (w AnswerWriter) writeResponseStates(o *replyObject, s *responseWrite) {
	if s.states == nil {
		return
	}
	o.Name(vocab.ResponseStates)
	named := jsonvalue.OpenObject(o.Dst)
	for i := range s.states.Responses {
		nr := &s.states.Responses[i]
		named.Name(nr.Name)
		named.Dst = w.appendAnswers(named.Dst, s.answersOf(nr), &o.finite)
	}
	o.Dst = named.Close()
}

func (w AnswerWriter) appendAnswers(dst []byte, answers []ir.Answer, finite *bool) []byte {
	o := jsonvalue.OpenObject(dst)
	for i := range answers {
		o.Name(answers[i].Name)
		o.Dst = w.appendAnswer(o.Dst, &answers[i], finite)
	}
	return o.Close()
}

// usageWrite is the state of writing one usage.
type usageWrite struct{ u *ir.Usage }

func (w AnswerWriter) appendUsage(dst []byte, u *ir.Usage) []byte {
	if u == nil {
		u = &ir.Usage{}
	}
	o := w.object(dst, table.LevelUsage, u.Extra)
	s := usageWrite{u: u}
	o.each(usageSlots, func(slot int) { w.writeUsageSlot(&o, &s, slot) })
	return o.Close()
}

// batchResponseWrite is the state of writing one batch response.
type batchResponseWrite struct {
	b         *ir.BatchResponse
	answersOf func(*ir.NamedResponse) []ir.Answer
}

func (w AnswerWriter) writeBatchResponseResponses(o *replyObject, s *batchResponseWrite) {
	o.Name(vocab.BatchResponseResponses)
	named := jsonvalue.OpenObject(o.Dst)
	for i := range s.b.Responses {
		nr := &s.b.Responses[i]
		named.Name(nr.Name)
		named.Dst = w.appendResponse(named.Dst, &responseWrite{r: &nr.Response, answers: s.answersOf(nr)}, &o.finite)
	}
	o.Dst = named.Close()
}

// writeBatchResponseUsage writes b's usage, summed when it carries none.
func (w AnswerWriter) writeBatchResponseUsage(o *replyObject, s *batchResponseWrite) {
	o.Name(vocab.BatchResponseUsage)
	o.Dst = w.appendUsage(o.Dst, batchUsage(s.b))
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
// CheckBatchResponse) model and usage, the extension members its schema
// defines and its passive members (r.Extra); it returns its answers
// object for the caller to read question by question (AnswerReader). item
// names the response in a batch response ("" for a response alone), for
// the path of an error. What the check cannot know is refused here, as a
// *ir.ProtocolError naming its path: a response without answers (the
// internal form's shapes make them optional, for 4.0's states answers,
// which no call of the Router asks for) and a span that starts after its
// end.
func ReadResponse(v jsonvalue.Value, rs *Replies, item string) (*ir.Response, jsonvalue.Value, error) {
	read := &readResponse{}
	s := responseRead{r: &read.response, read: read, rs: rs, item: item}
	if _, err := readResponseMembers(&s, v.Members()); err != nil {
		return nil, v, err
	}
	read.response.Extra = s.extra
	if !s.answers.IsValid() {
		return nil, v, ir.Refuse(ir.ReasonMissingMember, responsePath(item).Key(vocab.ResponseAnswers), "a response answers its questions")
	}
	return &read.response, s.answers, nil
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

// responseRead is the state of reading one checked response. Its first
// field is the response the binding's default readers fill (r is
// &read.response).
type responseRead struct {
	r       *ir.Response
	read    *readResponse
	rs      *Replies
	item    string
	answers jsonvalue.Value
	extra   []jsonvalue.Member
}

func (s *responseRead) takes(slot int) bool { return s.rs.response&(1<<slot) != 0 }

// readResponseModel reads the model into the response's block (one
// allocation with the response).
func (s *responseRead) readResponseModel(m *jsonvalue.Member) error {
	s.read.model = m.Value.Str()
	s.read.response.Model = &s.read.model
	return nil
}

func (s *responseRead) readResponseAnswers(m *jsonvalue.Member) error {
	s.answers = m.Value
	return nil
}

func (s *responseRead) readResponseUsage(m *jsonvalue.Member) error {
	u := &s.read.usage
	us := usageRead{u: u, defined: s.rs.usage}
	_, err := readUsageMembers(&us, m.Value.Members())
	u.Extra = us.extra
	s.read.response.Usage = u
	return err
}

// readResponseStates: 4.0's states answer is no reply of an upstream (no
// call of the Router asks for one).
func (s *responseRead) readResponseStates(*jsonvalue.Member) error { return nil }

// usageRead is the state of reading one checked usage.
type usageRead struct {
	u       *ir.Usage
	defined uint64
	extra   []jsonvalue.Member
}

func (s *usageRead) takes(slot int) bool { return s.defined&(1<<slot) != 0 }

// ReadBatchResponse reads a checked batch response {model, responses,
// usage} under rs: its object of responses, for the caller to read by
// name (ReadResponse), and its model, which a response that names none
// takes (the zero Value when it has none; the caller copies it out only
// for a response that needs it). The Router answers a batch with the
// usage it sums and the batch response it assembles from its items, so
// the batch's own usage and passive members are not kept.
func ReadBatchResponse(root jsonvalue.Value, rs *Replies) (responses, model jsonvalue.Value) {
	s := batchResponseRead{rs: rs}
	_, _ = readBatchResponseMembers(&s, root.Members())
	return s.responses, s.model
}

// batchResponseRead is the state of reading one checked batch response.
type batchResponseRead struct {
	rs               *Replies
	responses, model jsonvalue.Value
	//lint:ignore U1000 the slot srgen's dispatch reads a passive member of this level into (none today)
	extra []jsonvalue.Member
}

func (s *batchResponseRead) takes(slot int) bool { return s.rs.batchResponse&(1<<slot) != 0 }

func (s *batchResponseRead) readBatchResponseModel(m *jsonvalue.Member) error {
	s.model = m.Value
	return nil
}

func (s *batchResponseRead) readBatchResponseResponses(m *jsonvalue.Member) error {
	s.responses = m.Value
	return nil
}

// readBatchResponseUsage: the Router sums its items' usage itself.
func (s *batchResponseRead) readBatchResponseUsage(*jsonvalue.Member) error { return nil }
