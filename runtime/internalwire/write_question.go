package internalwire

import (
	"slices"
	"strconv"

	"github.com/vllm-sr/systemone/generated/fieldtable"
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/table"
)

// questionSlots is the canonical member order of a question; "criteria"
// stands for whichever spelling carries them.
var questionSlots = []string{vocab.QuestionType, vocab.QuestionInstructions, vocab.QuestionCriteria,
	vocab.QuestionPreset, vocab.QuestionHead, vocab.QuestionDecisionAdapter, vocab.QuestionOver, vocab.QuestionOverflow,
	vocab.QuestionRequireFullInput, vocab.QuestionThreshold, vocab.QuestionAt, vocab.QuestionRate}

// criteriaSlot maps 4.0's criteria spellings to the standard's.
func criteriaSlot(name string) string {
	switch name {
	case vocab.QuestionChoices, vocab.QuestionLevels, vocab.QuestionLabels:
		return vocab.QuestionCriteria
	}
	return name
}

func (w Writer) appendQuestions(dst []byte, qs []ir.Question) []byte {
	return appendJoined(dst, "{}", qs, func(dst []byte, q *ir.Question) []byte {
		return w.appendQuestion(appendKey(dst, w.rawName(&q.Layout, q.Name), q.Name), q)
	})
}

func (w Writer) appendQuestion(dst []byte, q *ir.Question) []byte {
	o := w.object(dst, &q.Layout, q.Extra, table.LevelQuestion)
	o.each(questionSlots, criteriaSlot, func(slot string) {
		if w.skip(table.LevelQuestion, slot) {
			return
		}
		switch slot {
		case vocab.QuestionType:
			if q.Type != "" {
				o.scalar(slot, func(d []byte) []byte { return jsonvalue.AppendString(d, string(q.Type)) })
			}
		case vocab.QuestionInstructions:
			if q.Instructions.IsValid() {
				o.name(slot)
				o.Dst = jsonvalue.AppendCompact(o.Dst, q.Instructions)
			}
		case vocab.QuestionCriteria:
			w.appendCriteria(&o, q)
		case vocab.QuestionPreset:
			appendStringMember(&o, slot, q.Preset)
		case vocab.QuestionHead:
			appendStringMember(&o, slot, (*string)(q.Head))
		case vocab.QuestionDecisionAdapter:
			appendBoolMember(&o, slot, q.DecisionAdapter)
		case vocab.QuestionOver:
			if q.Over != nil {
				o.scalar(slot, func(d []byte) []byte { return appendStrings(d, q.Over) })
			}
		case vocab.QuestionOverflow:
			appendStringMember(&o, slot, (*string)(q.Overflow))
		case vocab.QuestionRequireFullInput:
			appendBoolMember(&o, slot, q.RequireFullInput)
		case vocab.QuestionThreshold:
			appendFloatMember(&o, slot, q.Threshold)
		case vocab.QuestionAt:
			appendFloatMember(&o, slot, q.At)
		case vocab.QuestionRate:
			appendIntMember(&o, slot, q.Rate)
		}
	})
	return o.Close()
}

// appendCriteria writes the criteria under the spelling they were read in
// while it still fits them (levels for levels, choices or labels for keyed
// criteria of the right type), else under the standard's criteria.
func (w Writer) appendCriteria(o *objectWriter, q *ir.Question) {
	c := &q.Criteria
	if !c.Present() {
		return
	}
	name := vocab.QuestionCriteria
	if w.Lossless {
		name = criteriaName(q)
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

// criteriaName is the 4.0 spelling q's criteria were read under while it
// fits their form and belongs to q's type (the generated table's types of
// that vllm-sr/4.0 member; a preset-only question takes any), else the
// standard's criteria.
func criteriaName(q *ir.Question) string {
	for _, m := range q.Layout.Members {
		fitsForm := false
		switch m.Name {
		case vocab.QuestionLevels:
			fitsForm = q.Criteria.Form == ir.CriteriaLevels
		case vocab.QuestionChoices:
			fitsForm = q.Criteria.Form != ir.CriteriaLevels
		case vocab.QuestionLabels:
			fitsForm = q.Criteria.Form == ir.CriteriaKeyed
		}
		if !fitsForm {
			continue
		}
		f, _ := fieldtable.FieldOf(table.SchemaVllmSR40, table.LevelQuestion, m.Name)
		if q.Type == "" || slices.Contains(f.QuestionTypes, q.Type) {
			return m.Name
		}
	}
	return vocab.QuestionCriteria
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
