package shapes

import (
	"slices"
	"strconv"

	"github.com/vllm-sr/systemone/generated/fieldtable"
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/table"
)

func (w Writer) appendQuestions(dst []byte, qs []ir.Question) []byte {
	return appendJoined(dst, "{}", qs, func(dst []byte, q *ir.Question) []byte {
		return w.appendQuestion(appendKey(dst, w.rawName(&q.Layout, q.Name), q.Name), q)
	})
}

// questionWrite is the state of writing one question (the binding's
// <level>Write of the question level): criteriaDone once one of the
// criteria's spellings has written them.
type questionWrite struct {
	q            *ir.Question
	criteriaDone bool
}

func (w Writer) appendQuestion(dst []byte, q *ir.Question) []byte {
	o := w.object(dst, &q.Layout, q.Extra, table.LevelQuestion)
	s := questionWrite{q: q}
	// No question member's writer fails.
	_ = o.each(questionSlots, func(slot int) error { return w.writeQuestionSlot(&o, &s, slot) })
	return o.Close()
}

// The question's bound members, each written by the function the
// generated binding names for it.

func (w Writer) writeQuestionType(o *objectWriter, s *questionWrite) error {
	if s.q.Type != "" {
		o.scalar(vocab.QuestionType, func(d []byte) []byte { return jsonvalue.AppendString(d, string(s.q.Type)) })
	}
	return nil
}

// The criteria have four spellings: the standard's criteria, and 4.0's
// choices, levels and labels, each of the form it fits. The first of them
// the writer comes to writes the criteria: where the layout recorded the
// spelling they were read under, or else at criteria's canonical place.

func (w Writer) writeQuestionCriteria(o *objectWriter, s *questionWrite) error {
	w.appendCriteria(o, s, vocab.QuestionCriteria, true)
	return nil
}

func (w Writer) writeQuestionChoices(o *objectWriter, s *questionWrite) error {
	w.appendCriteria(o, s, vocab.QuestionChoices, s.q.Criteria.Form != ir.CriteriaLevels)
	return nil
}

func (w Writer) writeQuestionLevels(o *objectWriter, s *questionWrite) error {
	w.appendCriteria(o, s, vocab.QuestionLevels, s.q.Criteria.Form == ir.CriteriaLevels)
	return nil
}

func (w Writer) writeQuestionLabels(o *objectWriter, s *questionWrite) error {
	w.appendCriteria(o, s, vocab.QuestionLabels, s.q.Criteria.Form == ir.CriteriaKeyed)
	return nil
}

// appendCriteria writes the criteria, once, under spelling while it still
// fits them (fits: levels for levels, choices or labels for keyed criteria)
// and belongs to the question's type (the generated table's types of that
// vllm-sr/4.0 member; a preset-only question takes any), else under the
// standard's criteria. Only the internal form writes a 4.0 spelling.
func (w Writer) appendCriteria(o *objectWriter, s *questionWrite, spelling string, fits bool) {
	c := &s.q.Criteria
	if s.criteriaDone || !c.Present() {
		return
	}
	s.criteriaDone = true
	name := vocab.QuestionCriteria
	if w.Lossless && spelling != name && fits && legacySpellingFits(s.q, spelling) {
		name = spelling
	}
	o.name(name)
	switch c.Form {
	case ir.CriteriaNull:
		o.Dst = append(o.Dst, "null"...)
	case ir.CriteriaKeyed:
		o.Dst = w.appendMembers(o.Dst, c.Keyed)
	case ir.CriteriaLevels:
		o.Dst = appendJoined(o.Dst, "[]", c.Levels, func(dst []byte, v *jsonvalue.Value) []byte { return jsonvalue.AppendCompact(dst, *v) })
	}
}

// legacySpellingFits reports whether q's type takes the vllm-sr/4.0
// criteria member spelling; a preset-only question takes any.
func legacySpellingFits(q *ir.Question, spelling string) bool {
	f, _ := fieldtable.FieldOf(table.SchemaVllmSR40, table.LevelQuestion, spelling)
	return q.Type == "" || slices.Contains(f.QuestionTypes, q.Type)
}

func (w Writer) writeQuestionOver(o *objectWriter, s *questionWrite) error {
	if s.q.Over != nil {
		o.scalar(vocab.QuestionOver, func(d []byte) []byte { return appendStrings(d, s.q.Over) })
	}
	return nil
}

func appendStringMember(o *objectWriter, name string, s *string) {
	if s != nil {
		o.scalar(name, func(d []byte) []byte { return jsonvalue.AppendString(d, *s) })
	}
}

func appendBoolMember(o *objectWriter, name string, b *bool) {
	if b != nil {
		o.name(name)
		o.Dst = strconv.AppendBool(o.Dst, *b)
	}
}

func appendIntMember(o *objectWriter, name string, n *int64) {
	if n != nil {
		o.scalar(name, func(d []byte) []byte { return strconv.AppendInt(d, *n, 10) })
	}
}

func appendFloatMember(o *objectWriter, name string, f *float64) {
	if f != nil {
		o.scalar(name, func(d []byte) []byte { return jsonvalue.AppendFloat(d, *f) })
	}
}

// appendStrings writes an array of strings (the canonical form of over).
func appendStrings(dst []byte, ss []string) []byte {
	return appendJoined(dst, "[]", ss, func(dst []byte, s *string) []byte { return jsonvalue.AppendString(dst, *s) })
}
