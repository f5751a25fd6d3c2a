package refscorer

import (
	"sort"
	"strconv"

	"github.com/vllm-sr/systemone/runtime/distribution"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/modelcheck"
	"github.com/vllm-sr/systemone/runtime/table"
)

// labelProbability is one label's own probability, sigmoid of a logit in
// [−3, 3).
func (s seed) labelProbability(label string) float64 {
	return distribution.Round4(distribution.Sigmoid(2*logitScale*s.uniform(drawLabel, label) - logitScale))
}

// set: each label's own probability and the labels at or above the
// threshold, in criteria order. The set question's answer is a noul, the
// highest label probability; each label also answers as a noul under
// <question>.<label> (returned as extra answers).
func set(s seed, plan *modelcheck.Plan, a *ir.Answer) (ir.QuestionSet, []ir.Answer) {
	result := ir.QuestionSet{Question: a.Name, Selected: []string{}}
	var extra []ir.Answer
	highest := 0.0
	for _, label := range keyedNames(plan.Criteria) {
		p := s.labelProbability(label)
		result.Probabilities = append(result.Probabilities, ir.Probability{Key: label, P: p})
		if p >= plan.Threshold {
			result.Selected = append(result.Selected, label)
		}
		highest = max(highest, p)
		extra = append(extra, ir.Answer{Name: a.Name + "." + label, Type: table.QuestionNoul, Noul: new(p)})
	}
	a.Noul = new(highest)
	return result, extra
}

// wordProbability is one word's probability for one label: sigmoid of a
// logit in [−6, 2), so about a quarter of the words pass a threshold of
// 0.5.
func (s seed) wordProbability(label string, index int, word string) float64 {
	return distribution.Round4(distribution.Sigmoid(8*s.uniform(drawSpan, label, strconv.Itoa(index), word) - 6))
}

// span finds, for each label, the words of the text read whose
// probability reaches the threshold, and joins runs of consecutive such
// words into one span whose probability is its highest word's. Offsets
// are code points into the text read (Input.Text), End exclusive, and each
// span's text is exactly that substring. Spans are ordered by start, then
// by label order. The span question's answer is a noul: the highest
// probability any word reached.
func span(s seed, plan *modelcheck.Plan, a *ir.Answer) []ir.Span {
	text := plan.Input.Text()
	runes := []rune(text)
	var words []modelcheck.Token
	for _, t := range modelcheck.Tokens(text) {
		if t.Word {
			words = append(words, t)
		}
	}
	var spans []ir.Span
	highest := 0.0
	for _, label := range keyedNames(plan.Criteria) {
		open := -1 // index in spans of the span the previous word extends
		for i, w := range words {
			p := s.wordProbability(label, i, string(runes[w.Start:w.End]))
			highest = max(highest, p)
			if p < plan.Threshold {
				open = -1
				continue
			}
			if open >= 0 {
				spans[open].End = int64(w.End)
				spans[open].Probability = max(spans[open].Probability, p)
				continue
			}
			spans = append(spans, ir.Span{Label: label, Start: int64(w.Start), End: int64(w.End), Probability: p})
			open = len(spans) - 1
		}
	}
	for i := range spans {
		spans[i].Text = string(runes[spans[i].Start:spans[i].End])
	}
	sortSpans(spans, keyedNames(plan.Criteria))
	a.Noul = new(highest)
	return spans
}

// sortSpans orders spans by start, then by label order.
func sortSpans(spans []ir.Span, labels []string) {
	rank := map[string]int{}
	for i, l := range labels {
		rank[l] = i
	}
	sort.SliceStable(spans, func(i, j int) bool {
		if spans[i].Start != spans[j].Start {
			return spans[i].Start < spans[j].Start
		}
		return rank[spans[i].Label] < rank[spans[j].Label]
	})
}
