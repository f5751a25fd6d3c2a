package internalwire

import (
	"strconv"

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

func criteriaSlot(name string) string {
	if criteriaSpellings[name] {
		return vocab.QuestionCriteria
	}
	return name
}

func (w Writer) appendQuestions(dst []byte, qs []ir.Question) []byte {
	dst = append(dst, '{')
	for i := range qs {
		if i > 0 {
			dst = append(dst, ',')
		}
		q := &qs[i]
		dst = appendKey(dst, w.rawName(&q.Layout, q.Name), q.Name)
		dst = w.appendQuestion(dst, q)
	}
	return append(dst, '}')
}

func (w Writer) appendQuestion(dst []byte, q *ir.Question) []byte {
	o := w.object(dst, &q.Layout, q.Extra, table.LevelQuestion)
	o.eachMapped(questionSlots, criteriaSlot, func(slot string) {
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
		o.Dst = append(o.Dst, '[')
		for i := range c.Levels {
			if i > 0 {
				o.Dst = append(o.Dst, ',')
			}
			o.Dst = jsonvalue.AppendCompact(o.Dst, c.Levels[i])
		}
		o.Dst = append(o.Dst, ']')
	}
}

func criteriaName(q *ir.Question) string {
	for _, m := range q.Layout.Members {
		if !criteriaSpellings[m.Name] {
			continue
		}
		fitsForm := false
		switch m.Name {
		case vocab.QuestionLevels:
			fitsForm = q.Criteria.Form == ir.CriteriaLevels
		case vocab.QuestionChoices:
			fitsForm = q.Criteria.Form != ir.CriteriaLevels
		case vocab.QuestionLabels:
			fitsForm = q.Criteria.Form == ir.CriteriaKeyed
		}
		if fitsForm && spellingFits(m.Name, q.Type) {
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

// appendStrings writes an array of strings, the canonical form of over.
func appendStrings(dst []byte, ss []string) []byte {
	dst = append(dst, '[')
	for i, s := range ss {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = jsonvalue.AppendString(dst, s)
	}
	return append(dst, ']')
}
