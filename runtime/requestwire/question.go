package requestwire

import (
	"strconv"

	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/table"
)

func (w Writer) appendQuestions(dst []byte, qs []ir.Question, at ir.Path) ([]byte, error) {
	dst = append(dst, '{')
	for i := range qs {
		q := &qs[i]
		if q.Type == "" {
			return dst, invalidIR(at.Key(q.Name).Key("type"), ir.ReasonMissingMember,
				"a question needs a type; a preset-only question is expanded before writing")
		}
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(appendString(dst, q.Name), ':')
		dst = w.appendQuestion(dst, q)
	}
	return append(dst, '}'), nil
}

// appendQuestion writes the standard members, then each extension field
// that is present and not skipped, in the specification's order.
func (w Writer) appendQuestion(dst []byte, q *ir.Question) []byte {
	o := object{dst: append(dst, '{')}
	o.name("type")
	o.dst = appendString(o.dst, string(q.Type))
	if q.Instructions.IsValid() {
		o.name("instructions")
		o.dst = jsonvalue.AppendCompact(o.dst, q.Instructions)
	}
	if q.Criteria.Present() {
		o.name("criteria")
		o.dst = appendCriteria(o.dst, &q.Criteria)
	}
	str := func(name string, s *string) {
		if s != nil && !w.skip(table.LevelQuestion, name) {
			o.name(name)
			o.dst = appendString(o.dst, *s)
		}
	}
	boolean := func(name string, b *bool) {
		if b != nil && !w.skip(table.LevelQuestion, name) {
			o.name(name)
			o.dst = strconv.AppendBool(o.dst, *b)
		}
	}
	number := func(name string, f *float64) {
		if f != nil && !w.skip(table.LevelQuestion, name) {
			o.name(name)
			o.dst = jsonvalue.AppendCompact(o.dst, jsonvalue.Float(*f))
		}
	}
	str("preset", q.Preset)
	str("head", (*string)(q.Head))
	boolean("decision_adapter", q.DecisionAdapter)
	if q.Over != nil && !w.skip(table.LevelQuestion, "over") {
		o.name("over")
		o.dst = appendStrings(o.dst, q.Over)
	}
	str("overflow", (*string)(q.Overflow))
	boolean("require_full_input", q.RequireFullInput)
	number("threshold", q.Threshold)
	number("at", q.At)
	if q.Rate != nil && !w.skip(table.LevelQuestion, "rate") {
		o.name("rate")
		o.dst = strconv.AppendInt(o.dst, *q.Rate, 10)
	}
	w.appendExtra(&o, table.LevelQuestion, q.Extra)
	return append(o.dst, '}')
}

func appendCriteria(dst []byte, c *ir.Criteria) []byte {
	switch c.Form {
	case ir.CriteriaKeyed:
		dst = append(dst, '{')
		for i := range c.Keyed {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(appendString(dst, c.Keyed[i].Name), ':')
			dst = jsonvalue.AppendCompact(dst, c.Keyed[i].Value)
		}
		return append(dst, '}')
	case ir.CriteriaLevels:
		dst = append(dst, '[')
		for i := range c.Levels {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = jsonvalue.AppendCompact(dst, c.Levels[i])
		}
		return append(dst, ']')
	}
	return append(dst, "null"...)
}

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
