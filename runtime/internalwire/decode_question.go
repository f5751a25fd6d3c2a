package internalwire

import (
	"math"

	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/table"
)

// criteriaSpellings are the members that carry a question's criteria: the
// standard's, and 4.0's three.
var criteriaSpellings = map[string]bool{"criteria": true, "choices": true, "levels": true, "labels": true}

func (rd *reader) questions(v jsonvalue.Value, path ir.Path) ([]ir.Question, error) {
	ms, err := nonEmptyObject(v, path)
	if err != nil {
		return nil, err
	}
	qs := make([]ir.Question, len(ms))
	for i := range ms {
		if qs[i], err = rd.question(&ms[i], path.Key(ms[i].Name)); err != nil {
			return nil, err
		}
	}
	return qs, nil
}

func (rd *reader) question(entry *jsonvalue.Member, path ir.Path) (ir.Question, error) {
	q := ir.Question{Name: entry.Name}
	ms, err := object(entry.Value, path)
	if err != nil {
		return q, err
	}
	q.Layout = entryLayout(entry, len(ms))
	// The type decides how criteria and the type-bound fields read, so it
	// is read first, wherever it stands.
	if t, ok := entry.Value.Get("type"); ok {
		if q.Type, err = readType(t, path.Key("type")); err != nil {
			return q, err
		}
	}
	var criteria *jsonvalue.Member
	for i := range ms {
		m := &ms[i]
		lm := layoutMember(m)
		p := path.Key(m.Name)
		if criteriaSpellings[m.Name] {
			if criteria != nil {
				return q, ir.Refuse(ir.ReasonConflict, p, "a question has one criteria member")
			}
			criteria = m
			q.Criteria, err = rd.criteria(q.Type, m, p)
		} else {
			err = questionMember(&q, m, p, &lm)
		}
		if err != nil {
			return q, err
		}
		q.Layout.Members = append(q.Layout.Members, lm)
	}
	return q, rd.checkQuestion(&q, path)
}

func isProbability(f float64) bool { return f >= 0 && f <= 1 }

func isSecond(f float64) bool { return f >= 0 && f <= math.MaxFloat64 }

func readType(v jsonvalue.Value, path ir.Path) (table.QuestionType, error) {
	if v.Kind() != jsonvalue.KindString {
		return "", wrongType(path, "a question type")
	}
	switch t := table.QuestionType(v.Str()); t {
	case table.QuestionNoul, table.QuestionChoice, table.QuestionScore, table.QuestionBox,
		table.QuestionSet, table.QuestionSpan, table.QuestionTrack:
		return t, nil
	}
	return "", ir.Refuse(ir.ReasonUnknownValue, path, "is not a known question type")
}

// questionMember reads every question member but criteria. Fields bound to
// question types are refused on other types; a preset-only question (no
// type) may carry any of them, since its preset implies the type.
func questionMember(q *ir.Question, m *jsonvalue.Member, p ir.Path, lm *ir.LayoutMember) error {
	var err error
	switch m.Name {
	case "type":
		noteString(lm, m.Value.Raw(), string(q.Type))
	case "instructions":
		if err = readContent(m.Value, p, true); err == nil {
			q.Instructions = m.Value
		}
	case "preset":
		var s string
		if s, err = readString(m.Value, p, lm); err == nil {
			q.Preset = &s
		}
	case "head":
		if err = onlyFor(q.Type, p, "span questions", table.QuestionSpan); err == nil {
			q.Head, err = readEnum(m.Value, p, lm, "router or broad", ir.SpanHead.Valid)
		}
	case "decision_adapter":
		if err = onlyFor(q.Type, p, "choice, noul and score questions",
			table.QuestionChoice, table.QuestionNoul, table.QuestionScore); err == nil {
			q.DecisionAdapter, err = readBool(m.Value, p)
		}
	case "over":
		q.Over, err = readOver(m.Value, p, lm)
	case "overflow":
		q.Overflow, err = readEnum(m.Value, p, lm, "window or truncate", ir.Overflow.Valid)
	case "require_full_input":
		q.RequireFullInput, err = readBool(m.Value, p)
	case "threshold":
		if err = onlyFor(q.Type, p, "set and span questions", table.QuestionSet, table.QuestionSpan); err == nil {
			q.Threshold, err = readNumber(m.Value, p, isProbability, "between 0 and 1", lm)
		}
	case "at":
		if err = onlyFor(q.Type, p, "box questions", table.QuestionBox); err == nil {
			q.At, err = readNumber(m.Value, p, isSecond, "a number of seconds, at least 0", lm)
		}
	case "rate":
		if err = onlyFor(q.Type, p, "track questions", table.QuestionTrack); err == nil {
			q.Rate, err = readRate(m.Value, p, lm)
		}
	default:
		err = extraMember(&q.Extra, table.LevelQuestion, m, p)
	}
	return err
}

func onlyFor(t table.QuestionType, path ir.Path, what string, types ...table.QuestionType) error {
	if t == "" {
		return nil
	}
	for _, want := range types {
		if t == want {
			return nil
		}
	}
	return ir.Refuse(ir.ReasonNotAllowedHere, path, "applies to "+what+" only")
}

func readEnum[E ~string](v jsonvalue.Value, path ir.Path, lm *ir.LayoutMember, want string, valid func(E) bool) (*E, error) {
	if v.Kind() != jsonvalue.KindString {
		return nil, wrongType(path, want)
	}
	e := E(v.Str())
	if !valid(e) {
		return nil, ir.Refuse(ir.ReasonUnknownValue, path, "must be "+want)
	}
	noteString(lm, v.Raw(), string(e))
	return &e, nil
}

func readRate(v jsonvalue.Value, path ir.Path, lm *ir.LayoutMember) (*int64, error) {
	n, err := readInt(v, path, 1, lm)
	if err == nil && *n > 2 {
		err = ir.Refuse(ir.ReasonOutOfRange, path, "must be 1 or 2")
	}
	return n, err
}

// readOver reads the state keys a question reads: one key as a string, or
// an array of keys. The IR holds a list; a bare string is a spelling.
func readOver(v jsonvalue.Value, path ir.Path, lm *ir.LayoutMember) ([]string, error) {
	if v.Kind() == jsonvalue.KindString {
		keys := []string{v.Str()}
		note(lm, v.Raw(), appendStrings(nil, keys))
		return keys, nil
	}
	if v.Kind() != jsonvalue.KindArray {
		return nil, wrongType(path, "a string or an array of strings")
	}
	items := v.Items()
	keys := make([]string, len(items))
	escaped := false
	for i, it := range items {
		if it.Kind() != jsonvalue.KindString {
			return nil, wrongType(path.At(i), "a string")
		}
		keys[i] = it.Str()
		escaped = escaped || !quotedCanonically(it.Raw(), keys[i])
	}
	if escaped {
		note(lm, jsonvalue.Compact(v), appendStrings(nil, keys))
	}
	return keys, nil
}

// checkQuestion checks the question as a whole and records 4.0-only forms.
func (rd *reader) checkQuestion(q *ir.Question, path ir.Path) error {
	if q.Type == "" && q.Preset == nil {
		return ir.Refuse(ir.ReasonMissingMember, path.Key("type"), "is required unless the question names a preset")
	}
	if q.Preset != nil && !q.Instructions.IsValid() {
		rd.diags.Add(ir.DiagnosticLegacyForm, ir.FormPresetOnly, path)
	}
	return nil
}
