package internalwire

import (
	"strconv"

	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
)

// questionSlots is the canonical member order of a question; "criteria"
// stands for whichever spelling carries them.
var questionSlots = []string{"type", "instructions", "criteria", "preset", "head", "decision_adapter",
	"over", "overflow", "require_full_input", "threshold", "at", "rate"}

func criteriaSlot(name string) string {
	if criteriaSpellings[name] {
		return "criteria"
	}
	return name
}

func appendQuestions(dst []byte, qs []ir.Question) []byte {
	dst = append(dst, '{')
	for i := range qs {
		if i > 0 {
			dst = append(dst, ',')
		}
		q := &qs[i]
		dst = appendKey(dst, q.Layout.NameFor(q.Name), q.Name)
		dst = appendQuestion(dst, q)
	}
	return append(dst, '}')
}

func appendQuestion(dst []byte, q *ir.Question) []byte {
	o := objectWriter{dst: append(dst, '{'), layout: &q.Layout, extra: q.Extra}
	o.eachMapped(questionSlots, criteriaSlot, func(slot string) {
		switch slot {
		case "type":
			if q.Type != "" {
				o.scalar("type", func(d []byte) []byte { return appendString(d, string(q.Type)) })
			}
		case "instructions":
			if q.Instructions.IsValid() {
				o.name("instructions")
				o.dst = jsonvalue.AppendCompact(o.dst, q.Instructions)
			}
		case "criteria":
			appendCriteria(&o, q)
		case "preset":
			if q.Preset != nil {
				o.scalar("preset", func(d []byte) []byte { return appendString(d, *q.Preset) })
			}
		case "head":
			if q.Head != nil {
				o.scalar("head", func(d []byte) []byte { return appendString(d, string(*q.Head)) })
			}
		case "decision_adapter":
			appendBoolMember(&o, "decision_adapter", q.DecisionAdapter)
		case "over":
			if q.Over != nil {
				o.scalar("over", func(d []byte) []byte { return appendStrings(d, q.Over) })
			}
		case "overflow":
			if q.Overflow != nil {
				o.scalar("overflow", func(d []byte) []byte { return appendString(d, string(*q.Overflow)) })
			}
		case "require_full_input":
			appendBoolMember(&o, "require_full_input", q.RequireFullInput)
		case "threshold":
			appendFloatMember(&o, "threshold", q.Threshold)
		case "at":
			appendFloatMember(&o, "at", q.At)
		case "rate":
			appendIntMember(&o, "rate", q.Rate)
		}
	})
	return append(o.dst, '}')
}

// appendCriteria writes the criteria under the spelling they were read in
// while it still fits them (levels for levels, choices or labels for keyed
// criteria of the right type), else under the standard's criteria.
func appendCriteria(o *objectWriter, q *ir.Question) {
	c := &q.Criteria
	if !c.Present() {
		return
	}
	o.name(criteriaName(q))
	switch c.Form {
	case ir.CriteriaNull:
		o.dst = append(o.dst, "null"...)
	case ir.CriteriaKeyed:
		o.dst = appendMembers(o.dst, c.Keyed)
	case ir.CriteriaLevels:
		o.dst = append(o.dst, '[')
		for i := range c.Levels {
			if i > 0 {
				o.dst = append(o.dst, ',')
			}
			o.dst = jsonvalue.AppendCompact(o.dst, c.Levels[i])
		}
		o.dst = append(o.dst, ']')
	}
}

func criteriaName(q *ir.Question) string {
	for _, m := range q.Layout.Members {
		if !criteriaSpellings[m.Name] {
			continue
		}
		fitsForm := false
		switch m.Name {
		case "levels":
			fitsForm = q.Criteria.Form == ir.CriteriaLevels
		case "choices":
			fitsForm = q.Criteria.Form != ir.CriteriaLevels
		case "labels":
			fitsForm = q.Criteria.Form == ir.CriteriaKeyed
		}
		if fitsForm && spellingFits(m.Name, q.Type, nil) == nil {
			return m.Name
		}
	}
	return "criteria"
}

func appendBoolMember(o *objectWriter, name string, b *bool) {
	if b != nil {
		o.name(name)
		o.dst = strconv.AppendBool(o.dst, *b)
	}
}

func appendIntMember(o *objectWriter, name string, n *int64) {
	if n != nil {
		o.scalar(name, func(d []byte) []byte { return strconv.AppendInt(d, *n, 10) })
	}
}

func appendFloatMember(o *objectWriter, name string, f *float64) {
	if f != nil {
		o.scalar(name, func(d []byte) []byte { return appendFloat(d, *f) })
	}
}

// appendStrings writes an array of strings, the canonical form of over.
func appendStrings(dst []byte, ss []string) []byte {
	dst = append(dst, '[')
	for i, s := range ss {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendString(dst, s)
	}
	return append(dst, ']')
}
