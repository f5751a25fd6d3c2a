package internalwire

import (
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/table"
)

// criteria reads a question's criteria under any of its spellings. What
// shape they take follows the question type: an object of keys for choice,
// noul (true and false only, or null), set and span; an array of levels for
// score; none for box and track. A preset-only question (no type) takes any
// shape its spelling allows.
func (rd *reader) criteria(t table.QuestionType, m *jsonvalue.Member, path ir.Path) (ir.Criteria, error) {
	if m.Name != "criteria" {
		if err := spellingFits(m.Name, t, path); err != nil {
			return ir.Criteria{}, err
		}
		rd.diags.Add(ir.DiagnosticLegacyForm, m.Name, path)
	}
	if t == table.QuestionBox || t == table.QuestionTrack {
		return ir.Criteria{}, ir.Refuse(ir.ReasonNotAllowedHere, path, "box and track questions take no criteria")
	}
	v := m.Value
	switch v.Kind() {
	case jsonvalue.KindNull:
		if (t == table.QuestionNoul || t == "") && m.Name != "levels" && m.Name != "labels" {
			return ir.Criteria{Form: ir.CriteriaNull}, nil
		}
	case jsonvalue.KindObject:
		if t != table.QuestionScore && m.Name != "levels" {
			return keyedCriteria(v, t, path)
		}
	case jsonvalue.KindArray:
		if (t == table.QuestionScore || t == "") && m.Name != "choices" && m.Name != "labels" {
			return levelCriteria(v, path)
		}
	}
	return ir.Criteria{}, wrongType(path, criteriaShape(t))
}

// spellingFits checks that a 4.0 spelling belongs to the question type:
// choices to choice and noul, levels to score, labels to set and span.
func spellingFits(spelling string, t table.QuestionType, path ir.Path) error {
	var fits bool
	switch spelling {
	case "choices":
		fits = t == table.QuestionChoice || t == table.QuestionNoul
	case "levels":
		fits = t == table.QuestionScore
	case "labels":
		fits = t == table.QuestionSet || t == table.QuestionSpan
	}
	if fits || t == "" {
		return nil
	}
	return ir.Refuse(ir.ReasonSpellingForType, path, "is not a criteria spelling of this question type")
}

func criteriaShape(t table.QuestionType) string {
	switch t {
	case table.QuestionNoul:
		return "an object with true and false, or null"
	case table.QuestionScore:
		return "an array of levels, lowest first"
	case "":
		return "an object, an array or null"
	}
	return "an object of keys to descriptions"
}

func keyedCriteria(v jsonvalue.Value, t table.QuestionType, path ir.Path) (ir.Criteria, error) {
	ms := v.Members()
	for i := range ms {
		p := path.Key(ms[i].Name)
		if t == table.QuestionNoul && ms[i].Name != "true" && ms[i].Name != "false" {
			return ir.Criteria{}, ir.Refuse(ir.ReasonUnknownMember, p, "a noul's criteria are true and false only")
		}
		if err := readContent(ms[i].Value, p, true); err != nil {
			return ir.Criteria{}, err
		}
	}
	// A copy, so an IR edited in place never writes into the decoded value.
	return ir.Criteria{Form: ir.CriteriaKeyed, Keyed: append([]jsonvalue.Member(nil), ms...)}, nil
}

func levelCriteria(v jsonvalue.Value, path ir.Path) (ir.Criteria, error) {
	items := v.Items()
	for i := range items {
		if err := readContent(items[i], path.At(i), false); err != nil {
			return ir.Criteria{}, err
		}
	}
	return ir.Criteria{Form: ir.CriteriaLevels, Levels: append([]jsonvalue.Value(nil), items...)}, nil
}
