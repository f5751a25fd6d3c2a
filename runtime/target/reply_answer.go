package target

import (
	"github.com/vllm-sr/systemone/generated/vocab"
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
		return number(v, vocab.AnswerNoul, &a.Noul, vocab.ReasonNoulMissing, vocab.ReasonNoulNotNumber)
	case table.QuestionChoice:
		if c, ok := v.Get(vocab.AnswerChoice); !ok || c.Kind() != jsonvalue.KindString {
			return vocab.ReasonChoiceMissing
		} else {
			s := c.Str()
			a.Choice = &s
		}
		return first(probabilities(v, &a.Probabilities), confidence(v, a))
	case table.QuestionScore:
		return first(number(v, vocab.AnswerScore, &a.Score, vocab.ReasonScoreMissing, vocab.ReasonScoreNotNumber),
			probabilities(v, &a.Probabilities), confidence(v, a), legend(v, &a.Legend))
	case table.QuestionBox:
		return first(box(v, a), confidence(v, a))
	case table.QuestionSet, table.QuestionSpan:
		if ext {
			return number(v, vocab.AnswerNoul, &a.Noul, "", vocab.ReasonNoulNotNumber)
		}
	case table.QuestionTrack:
		if t, ok := v.Get(vocab.AnswerTrack); ok && ext {
			a.Track = t
		}
	}
	return ""
}

func readAnswerExtensions(v jsonvalue.Value, a *ir.Answer) string {
	if reason := number(v, vocab.AnswerAbstainProbability, &a.AbstainProbability, "", vocab.ReasonAbstainProbabilityNotNumber); reason != "" {
		return reason
	}
	if c, ok := v.Get(vocab.AnswerInputCoverage); ok {
		if c.Kind() != jsonvalue.KindString || ir.Coverage(c.Str()) != ir.CoverageComplete {
			return vocab.ReasonInputCoverageUnknown
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

// number reads the number member name: absent, it is the missing reason
// (empty for an optional member); not a number, the notNumber reason.
func number(v jsonvalue.Value, name string, dst **float64, missing, notNumber string) string {
	n, ok := v.Get(name)
	if !ok {
		return missing
	}
	f, isNum := n.Float()
	if !isNum {
		return notNumber
	}
	*dst = &f
	return ""
}

// confidence reads an answer's optional confidence.
func confidence(v jsonvalue.Value, a *ir.Answer) string {
	return number(v, vocab.AnswerConfidence, &a.Confidence, "", vocab.ReasonConfidenceNotNumber)
}

func probabilities(v jsonvalue.Value, dst *[]ir.Probability) string {
	p, ok := v.Get(vocab.AnswerProbabilities)
	if !ok {
		return vocab.ReasonProbabilitiesMissing
	}
	ps, ok := probabilityList(p)
	if !ok {
		return vocab.ReasonProbabilitiesNotNumbers
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
	l, ok := v.Get(vocab.AnswerLegend)
	if !ok {
		return ""
	}
	if l.Kind() != jsonvalue.KindObject {
		return vocab.ReasonLegendNotObject
	}
	*dst = append([]jsonvalue.Member{}, l.Members()...)
	return ""
}

func box(v jsonvalue.Value, a *ir.Answer) string {
	b, ok := v.Get(vocab.AnswerBox)
	if !ok || b.Kind() != jsonvalue.KindObject {
		return vocab.ReasonBoxMissing
	}
	var out ir.Box
	for _, edge := range []struct {
		name string
		dst  *float64
	}{{vocab.BoxRegionTop, &out.Top}, {vocab.BoxRegionBottom, &out.Bottom}, {vocab.BoxRegionLeft, &out.Left}, {vocab.BoxRegionRight, &out.Right}} {
		e, ok := b.Get(edge.name)
		f, isNum := e.Float()
		if !ok || !isNum {
			return vocab.ReasonBoxEdgeMissing
		}
		*edge.dst = f
	}
	a.Box = &out
	return ""
}
