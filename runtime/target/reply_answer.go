package target

import (
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/table"
)

// readTyped reads the members a's type answers with, or returns the fixed
// reason one is missing or of the wrong type. Unknown types are kept with
// no members: the standard asks clients to skip them, not to fail.
func readTyped(v jsonvalue.Value, a *ir.Answer, ext bool) string {
	switch a.Type {
	case table.QuestionNoul:
		return number(v, "noul", &a.Noul, true)
	case table.QuestionChoice:
		if c, ok := v.Get("choice"); !ok || c.Kind() != jsonvalue.KindString {
			return "choice_missing"
		} else {
			s := c.Str()
			a.Choice = &s
		}
		return first(probabilities(v, &a.Probabilities), number(v, "confidence", &a.Confidence, false))
	case table.QuestionScore:
		return first(number(v, "score", &a.Score, true), probabilities(v, &a.Probabilities),
			number(v, "confidence", &a.Confidence, false), legend(v, &a.Legend))
	case table.QuestionBox:
		return first(box(v, a), number(v, "confidence", &a.Confidence, false))
	case table.QuestionSet, table.QuestionSpan:
		if ext {
			return number(v, "noul", &a.Noul, false)
		}
	case table.QuestionTrack:
		if t, ok := v.Get("track"); ok && ext {
			a.Track = t
		}
	}
	return ""
}

func readAnswerExtensions(v jsonvalue.Value, a *ir.Answer) string {
	if reason := number(v, "abstain_probability", &a.AbstainProbability, false); reason != "" {
		return reason
	}
	if c, ok := v.Get("input_coverage"); ok {
		if c.Kind() != jsonvalue.KindString || ir.Coverage(c.Str()) != ir.CoverageComplete {
			return "input_coverage_unknown"
		}
		a.InputCoverage = ir.CoverageComplete
	}
	return ""
}

// first returns the first non-empty reason.
func first(reasons ...string) string {
	for _, r := range reasons {
		if r != "" {
			return r
		}
	}
	return ""
}

// number reads an optional (or, with required, a mandatory) number member.
func number(v jsonvalue.Value, name string, dst **float64, required bool) string {
	n, ok := v.Get(name)
	if !ok {
		if required {
			return name + "_missing"
		}
		return ""
	}
	f, isNum := n.Float()
	if !isNum {
		return name + "_not_number"
	}
	*dst = &f
	return ""
}

func probabilities(v jsonvalue.Value, dst *[]ir.Probability) string {
	p, ok := v.Get("probabilities")
	if !ok {
		return "probabilities_missing"
	}
	ps, ok := probabilityList(p)
	if !ok {
		return "probabilities_not_numbers"
	}
	*dst = ps
	return ""
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

func legend(v jsonvalue.Value, dst *[]jsonvalue.Member) string {
	l, ok := v.Get("legend")
	if !ok {
		return ""
	}
	if l.Kind() != jsonvalue.KindObject {
		return "legend_not_object"
	}
	*dst = append([]jsonvalue.Member{}, l.Members()...)
	return ""
}

func box(v jsonvalue.Value, a *ir.Answer) string {
	b, ok := v.Get("box")
	if !ok || b.Kind() != jsonvalue.KindObject {
		return "box_missing"
	}
	var out ir.Box
	for _, edge := range []struct {
		name string
		dst  *float64
	}{{"top", &out.Top}, {"bottom", &out.Bottom}, {"left", &out.Left}, {"right", &out.Right}} {
		e, ok := b.Get(edge.name)
		f, isNum := e.Float()
		if !ok || !isNum {
			return "box_edge_missing"
		}
		*edge.dst = f
	}
	a.Box = &out
	return ""
}
