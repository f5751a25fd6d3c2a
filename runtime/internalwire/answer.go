package internalwire

import (
	"math"
	"slices"

	"github.com/vllm-sr/systemone/generated/fieldtable"
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/table"
)

// The answer shape (answer, box_region) bound to ir.Answer in one place.
// answerMembers names each member, its field and which answers carry it;
// the writer walks it for every answer, the reply reader for the members
// an answer of its type carries. An answer's type comes first and a
// failed question's error, reason and message last, outside the list: they
// are not values of an answered question.

// questionTypes is a set of question types: which answers carry a member.
type questionTypes uint8

const (
	forNoul questionTypes = 1 << iota
	forChoice
	forScore
	forBox
	forSet
	forSpan
	forTrack
	forOther               // a type the specs do not define: the standard asks clients to skip it
	forAny   questionTypes = 0xff
)

// definedTypes are the question types the specs define, in the order of
// their bits above.
var definedTypes = []table.QuestionType{table.QuestionNoul, table.QuestionChoice, table.QuestionScore,
	table.QuestionBox, table.QuestionSet, table.QuestionSpan, table.QuestionTrack}

func typeBit(t table.QuestionType) questionTypes {
	if i := slices.Index(definedTypes, t); i >= 0 {
		return 1 << i
	}
	return forOther
}

// answerMember binds one answer member. field returns a pointer to its
// ir.Answer field, whose type is the member's kind. The reader is
// tolerant where the standard lets a client be: an answer of a type in
// required fails without the member, one in optional may leave it out,
// and one in extension is read only by a vllm-sr/5.0 reader.
// TestAnswerBindingsReadWhatTheSpecsGive pins these sets to the specs'
// question_types. missing and wrong are the fixed reasons of an absent
// required member and of a value of the wrong kind.
type answerMember struct {
	name                          string
	field                         func(a *ir.Answer) any
	required, optional, extension questionTypes
	missing, wrong                string
}

// answerMembers are in the order every writer writes them.
var answerMembers = [...]answerMember{
	{name: vocab.AnswerNoul, field: func(a *ir.Answer) any { return &a.Noul }, required: forNoul, extension: forSet | forSpan,
		missing: vocab.ReasonNoulMissing, wrong: vocab.ReasonNoulNotNumber},
	{name: vocab.AnswerChoice, field: func(a *ir.Answer) any { return &a.Choice }, required: forChoice,
		missing: vocab.ReasonChoiceMissing, wrong: vocab.ReasonChoiceMissing},
	{name: vocab.AnswerScore, field: func(a *ir.Answer) any { return &a.Score }, required: forScore,
		missing: vocab.ReasonScoreMissing, wrong: vocab.ReasonScoreNotNumber},
	{name: vocab.AnswerBox, field: func(a *ir.Answer) any { return &a.Box }, required: forBox,
		missing: vocab.ReasonBoxMissing, wrong: vocab.ReasonBoxMissing},
	{name: vocab.AnswerTrack, field: func(a *ir.Answer) any { return &a.Track }, extension: forTrack},
	{name: vocab.AnswerProbabilities, field: func(a *ir.Answer) any { return &a.Probabilities }, required: forChoice | forScore,
		missing: vocab.ReasonProbabilitiesMissing, wrong: vocab.ReasonProbabilitiesNotNumbers},
	{name: vocab.AnswerConfidence, field: func(a *ir.Answer) any { return &a.Confidence }, optional: forChoice | forScore | forBox,
		wrong: vocab.ReasonConfidenceNotNumber},
	{name: vocab.AnswerLegend, field: func(a *ir.Answer) any { return &a.Legend }, optional: forScore,
		wrong: vocab.ReasonLegendNotObject},
	{name: vocab.AnswerAbstainProbability, field: func(a *ir.Answer) any { return &a.AbstainProbability }, extension: forAny,
		wrong: vocab.ReasonAbstainProbabilityNotNumber},
	{name: vocab.AnswerInputCoverage, field: func(a *ir.Answer) any { return &a.InputCoverage }, extension: forAny,
		wrong: vocab.ReasonInputCoverageUnknown},
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

// AnswerReader reads the answers of one response, question by question
// (Read). The numbers of the answers it reads share a few allocations
// rather than one each, so a reader belongs to one response's reading.
// Its zero value reads the standard's members only.
type AnswerReader struct {
	// Extensions: read the vllm-sr/5.0 members too, and a failed
	// question's error, reason and message as the upstream gave them (its
	// reason and message are the upstream's words, for the caller to vet).
	Extensions bool
	// numbers is the room left for the numbers answers point to.
	numbers []float64
}

// numbersPerAllocation is how many answer numbers share one allocation:
// a few answers' worth.
const numbersPerAllocation = 16

// Read reads one answer to a question of type want ("" when not known)
// into a, or returns the fixed reason it is malformed. a is the caller's,
// an element of its answers, so reading allocates only values. The
// answer's name is the caller's to set.
func (rd *AnswerReader) Read(a *ir.Answer, v jsonvalue.Value, want table.QuestionType) string {
	extensions := rd.Extensions
	*a = ir.Answer{Type: want}
	if v.Kind() != jsonvalue.KindObject {
		return vocab.ReasonAnswerNotObject
	}
	if e, ok := v.Get(vocab.AnswerError); ok && extensions {
		a.Error = ir.QuestionErrorCode(e.Str())
		if e.Kind() != jsonvalue.KindString || !a.Error.Valid() {
			a.Error = ""
			return vocab.ReasonUnknownQuestionError
		}
		a.Reason, a.Message = stringMember(v, vocab.AnswerReason), stringMember(v, vocab.AnswerMessage)
		return ""
	}
	t, ok := v.Get(vocab.AnswerType)
	if !ok || t.Kind() != jsonvalue.KindString {
		return vocab.ReasonAnswerWithoutType
	}
	if want != "" && table.QuestionType(t.Str()) != fieldtable.AnswerType(want) {
		return vocab.ReasonAnswerTypeMismatch
	}
	a.Type = table.QuestionType(t.Str())
	bit := typeBit(a.Type)
	for i := range answerMembers {
		m := &answerMembers[i]
		required := m.required&bit != 0
		if !required && m.optional&bit == 0 && (!extensions || m.extension&bit == 0) {
			continue
		}
		x, ok := v.Get(m.name)
		if !ok {
			if required {
				return m.missing
			}
			continue
		}
		if reason := rd.member(x, m, m.field(a)); reason != "" {
			return reason
		}
	}
	return ""
}

// member reads x into field, or returns the reason it is not of m's
// kind.
func (rd *AnswerReader) member(x jsonvalue.Value, m *answerMember, field any) string {
	ok := true
	switch f := field.(type) {
	case **float64:
		var n float64
		if n, ok = x.Float(); ok {
			*f = rd.number(n)
		}
	case **string:
		if ok = x.Kind() == jsonvalue.KindString; ok {
			s := x.Str()
			*f = &s
		}
	case **ir.Box:
		if x.Kind() != jsonvalue.KindObject {
			return m.wrong
		}
		b := &ir.Box{}
		for _, e := range boxEdges {
			edge, has := x.Get(e.name)
			n, isNum := edge.Float()
			if !has || !isNum {
				return vocab.ReasonBoxEdgeMissing
			}
			*e.edge(b) = n
		}
		*f = b
	case *jsonvalue.Value:
		*f = x
	case *[]ir.Probability:
		*f, ok = probabilityList(x)
	case *[]jsonvalue.Member:
		if ok = x.Kind() == jsonvalue.KindObject; ok {
			*f = append([]jsonvalue.Member{}, x.Members()...)
		}
	case *ir.Coverage:
		if ok = x.Kind() == jsonvalue.KindString && ir.Coverage(x.Str()) == ir.CoverageComplete; ok {
			*f = ir.CoverageComplete
		}
	}
	if !ok {
		return m.wrong
	}
	return ""
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

// probabilityList reads an object of key to number, in the order answered.
func probabilityList(p jsonvalue.Value) ([]ir.Probability, bool) {
	if p.Kind() != jsonvalue.KindObject {
		return nil, false
	}
	out := make([]ir.Probability, 0, p.Len())
	for _, m := range p.Members() {
		f, ok := m.Value.Float()
		if !ok {
			return nil, false
		}
		out = append(out, ir.Probability{Key: m.Name, P: f})
	}
	return out, true
}

// stringMember is v's member name when it is a string, else "".
func stringMember(v jsonvalue.Value, name string) string {
	if m, ok := v.Get(name); ok && m.Kind() == jsonvalue.KindString {
		return m.Str()
	}
	return ""
}
