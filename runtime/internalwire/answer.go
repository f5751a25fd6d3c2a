package internalwire

import (
	"math"

	"github.com/vllm-sr/systemone/generated/fieldtable"
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/table"
)

// The answer shape (answer, box_region) bound to ir.Answer in one place.
// answerMembers binds each member to its field; the writer walks it for
// every answer, the reply reader for the members an answer of its type
// carries under the reply's schema (Replies, from the generated member
// lists). An answer's type comes first and a failed question's error,
// reason and message last, outside the list: they are not values of an
// answered question.

// answerMember binds one answer member. field returns a pointer to its
// ir.Answer field, whose type is the member's kind.
type answerMember struct {
	name  string
	field func(a *ir.Answer) any
}

// answerMembers are in the order every writer writes them.
var answerMembers = [...]answerMember{
	{vocab.AnswerNoul, func(a *ir.Answer) any { return &a.Noul }},
	{vocab.AnswerChoice, func(a *ir.Answer) any { return &a.Choice }},
	{vocab.AnswerScore, func(a *ir.Answer) any { return &a.Score }},
	{vocab.AnswerBox, func(a *ir.Answer) any { return &a.Box }},
	{vocab.AnswerTrack, func(a *ir.Answer) any { return &a.Track }},
	{vocab.AnswerProbabilities, func(a *ir.Answer) any { return &a.Probabilities }},
	{vocab.AnswerConfidence, func(a *ir.Answer) any { return &a.Confidence }},
	{vocab.AnswerLegend, func(a *ir.Answer) any { return &a.Legend }},
	{vocab.AnswerAbstainProbability, func(a *ir.Answer) any { return &a.AbstainProbability }},
	{vocab.AnswerInputCoverage, func(a *ir.Answer) any { return &a.InputCoverage }},
}

// boxEdges bind box_region's members to ir.Box's fields, in writing order.
var boxEdges = [...]struct {
	name string
	edge func(b *ir.Box) *float64
}{
	{vocab.BoxRegionTop, func(b *ir.Box) *float64 { return &b.Top }},
	{vocab.BoxRegionBottom, func(b *ir.Box) *float64 { return &b.Bottom }},
	{vocab.BoxRegionLeft, func(b *ir.Box) *float64 { return &b.Left }},
	{vocab.BoxRegionRight, func(b *ir.Box) *float64 { return &b.Right }},
}

// appendAnswer appends one answer: its type, every member it holds in
// answerMembers' order, then a failed question's error, reason and message.
// A number JSON cannot carry clears *finite (appendFloat).
func appendAnswer(dst []byte, a *ir.Answer, finite *bool) []byte {
	o := jsonvalue.OpenObject(dst)
	if a.Type != "" {
		o.Name(vocab.AnswerType)
		o.Dst = jsonvalue.AppendString(o.Dst, string(a.Type))
	}
	for i := range answerMembers {
		m := &answerMembers[i]
		switch f := m.field(a).(type) {
		case **float64:
			if *f != nil {
				o.Name(m.name)
				o.Dst = appendFloat(o.Dst, **f, finite)
			}
		case **string:
			if *f != nil {
				o.Name(m.name)
				o.Dst = jsonvalue.AppendString(o.Dst, **f)
			}
		case **ir.Box:
			if *f != nil {
				o.Name(m.name)
				o.Dst = appendBox(o.Dst, *f, finite)
			}
		case *jsonvalue.Value:
			if f.IsValid() {
				o.Name(m.name)
				o.Dst = jsonvalue.AppendCompact(o.Dst, *f)
			}
		case *[]ir.Probability:
			if *f != nil {
				o.Name(m.name)
				o.Dst = appendProbabilities(o.Dst, *f, finite)
			}
		case *[]jsonvalue.Member:
			if *f != nil {
				o.Name(m.name)
				o.Dst = Writer{}.appendMembers(o.Dst, *f)
			}
		case *ir.Coverage:
			if *f != "" {
				o.Name(m.name)
				o.Dst = jsonvalue.AppendString(o.Dst, string(*f))
			}
		}
	}
	if a.Error != "" {
		appendStringMembers(&o, vocab.AnswerError, string(a.Error), vocab.AnswerReason, a.Reason, vocab.AnswerMessage, a.Message)
	}
	return o.Close()
}

func appendBox(dst []byte, b *ir.Box, finite *bool) []byte {
	o := jsonvalue.OpenObject(dst)
	for _, e := range boxEdges {
		o.Name(e.name)
		o.Dst = appendFloat(o.Dst, *e.edge(b), finite)
	}
	return o.Close()
}

func appendProbabilities(dst []byte, ps []ir.Probability, finite *bool) []byte {
	o := jsonvalue.OpenObject(dst)
	for i := range ps {
		o.Name(ps[i].Key)
		o.Dst = appendFloat(o.Dst, ps[i].P, finite)
	}
	return o.Close()
}

// appendFloat appends f, or for NaN and infinities 0, clearing *finite.
// The flag is a caller's local, so writing allocates nothing but bytes.
func appendFloat(dst []byte, f float64, finite *bool) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		*finite = false
		f = 0
	}
	return jsonvalue.AppendFloat(dst, f)
}

// AnswerReader reads the answers of one checked response (CheckResponse,
// CheckBatchResponse), question by question (Read). The numbers of the
// answers it reads share a few allocations rather than one each, so a
// reader belongs to one response's reading.
type AnswerReader struct {
	// Replies is the reply's schema (RepliesOf); Check its problems; Item
	// the batch item the response answers ("" for a response alone).
	Replies *Replies
	Check   ReplyCheck
	Item    string
	// numbers is the room left for the numbers answers point to.
	numbers []float64
}

// numbersPerAllocation is how many answer numbers share one allocation:
// a few answers' worth.
const numbersPerAllocation = 16

// Read reads the answer name to a question of type want ("" when not
// known), whose value is v, into a, or returns the fixed reason it fails
// and what is wrong for a person ("" when the reason says it): an answer
// of another type than want's answer type, the problem the reply's check
// found in it (the specification's word for it, and the member at fault),
// or a member vllm-sr/5.0 requires of its type missing (the internal
// form's shapes require none). A failed answer (a schema with
// answer.error) keeps its kind, and its reason and message as the
// upstream gave them, for the caller to vet. a is the caller's, an element
// of its answers, so reading allocates only values; the answer's name is
// the caller's to set.
func (rd *AnswerReader) Read(a *ir.Answer, v jsonvalue.Value, name string, want table.QuestionType) (reason, what string) {
	*a = ir.Answer{Type: want}
	failed := false
	if rd.Replies.failed {
		_, failed = v.Get(vocab.AnswerError)
	}
	t, typed := v.Get(vocab.AnswerType)
	if !failed && typed && want != "" && t.Kind() == jsonvalue.KindString && table.QuestionType(t.Str()) != fieldtable.AnswerType(want) {
		return vocab.ReasonAnswerTypeMismatch, ""
	}
	if reason, what := rd.Check.answerProblem(rd.Item, name); reason != "" {
		return reason, what
	}
	// v is an answer its schema defines: every member read below has the
	// kind and range the specification gives it.
	if failed {
		e, _ := v.Get(vocab.AnswerError)
		a.Error = ir.QuestionErrorCode(e.Str())
		a.Reason, a.Message = stringMember(v, vocab.AnswerReason), stringMember(v, vocab.AnswerMessage)
		return "", ""
	}
	a.Type = table.QuestionType(t.Str())
	for i := range answerMembers {
		use := &rd.Replies.answer[i]
		if !use.carries(a.Type) {
			continue
		}
		x, ok := v.Get(answerMembers[i].name)
		switch {
		case ok:
			rd.member(x, answerMembers[i].field(a))
		case use.required:
			return missing(answerMembers[i].name)
		}
	}
	return "", ""
}

// missing is the reason of an answer without member, which its type
// requires, and what is wrong.
func missing(member string) (reason, what string) {
	p := table.Problem{Reason: table.ReasonMissingMember, Member: member}
	reason = string(p.Reason)
	if row, ok := vocab.ReplyProblemOf(table.LevelAnswer, []string{member}, p.Reason); ok {
		reason = row.Reason
	}
	return reason, describeMember([]string{member}, p)
}

// member reads x, a checked value, into field.
func (rd *AnswerReader) member(x jsonvalue.Value, field any) {
	switch f := field.(type) {
	case **float64:
		n, _ := x.Float()
		*f = rd.number(n)
	case **string:
		s := x.Str()
		*f = &s
	case **ir.Box:
		b := &ir.Box{}
		for _, e := range boxEdges {
			edge, _ := x.Get(e.name)
			*e.edge(b), _ = edge.Float()
		}
		*f = b
	case *jsonvalue.Value:
		*f = x
	case *[]ir.Probability:
		*f = probabilityList(x)
	case *[]jsonvalue.Member:
		*f = append([]jsonvalue.Member{}, x.Members()...)
	case *ir.Coverage:
		*f = ir.Coverage(x.Str())
	}
}

// number returns a pointer to a copy of n, in room shared with the
// response's other numbers.
func (rd *AnswerReader) number(n float64) *float64 {
	if len(rd.numbers) == 0 {
		rd.numbers = make([]float64, numbersPerAllocation)
	}
	p := &rd.numbers[0]
	*p, rd.numbers = n, rd.numbers[1:]
	return p
}

// probabilityList reads a checked object of key to number, in the order
// answered.
func probabilityList(p jsonvalue.Value) []ir.Probability {
	out := make([]ir.Probability, 0, p.Len())
	for _, m := range p.Members() {
		f, _ := m.Value.Float()
		out = append(out, ir.Probability{Key: m.Name, P: f})
	}
	return out
}

// stringMember is the checked string v's member name holds, "" when v
// has none.
func stringMember(v jsonvalue.Value, name string) string {
	m, _ := v.Get(name)
	return m.Str()
}
