package llm

import (
	"math"
	"strings"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/distribution"
)

// answerPosition is the position whose alternatives answer the question:
// the first generated token after a closed <think>…</think> block and any
// whitespace-only tokens. It fails no_logprobs when the reply carries
// none, and answer_not_reached when the generation stopped before it.
func answerPosition(positions []positionLogprobs) (*positionLogprobs, string) {
	if len(positions) == 0 {
		return nil, vocab.ReasonNoLogprobs
	}
	thinking := false
	for i := range positions {
		tok := strings.TrimSpace(positions[i].Token)
		switch {
		case thinking:
			if strings.Contains(tok, "</think>") {
				thinking = false
			}
			continue
		case tok == "<think>":
			thinking = true
			continue
		case tok == "":
			continue
		}
		if len(positions[i].TopLogprobs) == 0 {
			return nil, vocab.ReasonNoLogprobs
		}
		return &positions[i], ""
	}
	return nil, vocab.ReasonAnswerNotReached
}

// spelling is a token as a label: without surrounding whitespace, in
// lower case. "A", " A", "a" and " a" are one label.
func spelling(token string) string {
	return strings.ToLower(strings.TrimSpace(token))
}

// labelLogprobs is each label's log-probability at the position: the
// log-sum-exp over every alternative that spells it. ok is false when a
// label has no alternative at all: top_logprobs is a top-k list, not a
// distribution, so a missing label is not probability zero and is never
// given one.
func labelLogprobs(pos *positionLogprobs, labels []string) (lp []float64, ok bool) {
	index := make(map[string]int, len(labels))
	for i, l := range labels {
		index[spelling(l)] = i
	}
	lp = make([]float64, len(labels))
	seen := make([]bool, len(labels))
	for _, alt := range pos.TopLogprobs {
		i, is := index[spelling(alt.Token)]
		if !is || math.IsNaN(alt.Logprob) {
			continue
		}
		if !seen[i] {
			lp[i], seen[i] = alt.Logprob, true
			continue
		}
		lp[i] = logAddExp(lp[i], alt.Logprob)
	}
	for _, s := range seen {
		if !s {
			return nil, false
		}
	}
	return lp, true
}

// logAddExp is log(exp(a) + exp(b)) without overflow.
func logAddExp(a, b float64) float64 {
	hi, lo := max(a, b), min(a, b)
	return hi + math.Log1p(math.Exp(lo-hi))
}

// tempered is the softmax of log-probabilities divided by the
// temperature: the calibrated distribution over the labels.
func tempered(lp []float64, temperature float64) []float64 {
	z := make([]float64, len(lp))
	for i, x := range lp {
		z[i] = x / temperature
	}
	return distribution.Softmax(z)
}
