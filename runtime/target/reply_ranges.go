package target

import (
	"slices"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/table"
)

// checkAnswer returns the fixed reason (answer_out_of_range or
// answer_key_mismatch) and the message, naming the member and never its
// value, of the first way a (an answer, not a failed one) does not fit
// its question q; "" when it fits. The reply's generated validator already
// holds every member to the range the specification gives it (noul,
// probabilities, confidence, abstain_probability and box edges 0 to 1, a
// score at least 0); what is left needs the question: q's Keys, when
// known, are the only keys a choice's choice and probabilities and a
// score's probabilities and legend take, and a score is at most the
// question's last level, a bound the specification cannot state.
func checkAnswer(a *ir.Answer, q QuestionRef) (reason, message string) {
	switch a.Type {
	case table.QuestionChoice:
		return checkChoice(a, q.Keys)
	case table.QuestionScore:
		return checkScore(a, q.Keys)
	}
	return "", ""
}

func checkChoice(a *ir.Answer, options []string) (reason, message string) {
	if options == nil {
		return "", ""
	}
	if a.Choice != nil && !slices.Contains(options, *a.Choice) {
		return vocab.ReasonAnswerKeyMismatch, "the upstream answer's " + vocab.AnswerChoice + " is not one of the question's options"
	}
	if !sameKeys(a.Probabilities, probabilityKey, options) {
		return vocab.ReasonAnswerKeyMismatch, "the upstream answer's " + vocab.AnswerProbabilities + " are not keyed by exactly the question's options"
	}
	return "", ""
}

func checkScore(a *ir.Answer, levels []string) (reason, message string) {
	if a.Score != nil && levels != nil && *a.Score > float64(len(levels)-1) {
		return vocab.ReasonAnswerOutOfRange, "the upstream answer's " + vocab.AnswerScore + " is outside 0 to the question's last level"
	}
	if levels == nil {
		return "", ""
	}
	if !sameKeys(a.Probabilities, probabilityKey, levels) {
		return vocab.ReasonAnswerKeyMismatch, "the upstream answer's " + vocab.AnswerProbabilities + " are not keyed by exactly the question's levels"
	}
	if a.Legend != nil && !sameKeys(a.Legend, legendKey, levels) {
		return vocab.ReasonAnswerKeyMismatch, "the upstream answer's " + vocab.AnswerLegend + " is not keyed by exactly the question's levels"
	}
	return "", ""
}

// sameKeys reports whether the keys of got are exactly want's, in any
// order. Neither repeats a key: the decoder refuses a repeated member
// name, and a request's options and levels are distinct.
func sameKeys[T any](got []T, key func(T) string, want []string) bool {
	if len(got) != len(want) {
		return false
	}
	if len(want) <= 16 {
		for _, g := range got {
			if !slices.Contains(want, key(g)) {
				return false
			}
		}
		return true
	}
	set := make(map[string]struct{}, len(want))
	for _, k := range want {
		set[k] = struct{}{}
	}
	for _, g := range got {
		if _, ok := set[key(g)]; !ok {
			return false
		}
	}
	return true
}

func probabilityKey(p ir.Probability) string { return p.Key }

func legendKey(m jsonvalue.Member) string { return m.Name }
