package testkit

import (
	"math"
	"strconv"
	"strings"
)

// The toy model's positions other than a plain answer: guided choice and
// the prompt's own tokens.

// llmChoicePositions is guided choice at the answer position: the grammar
// mask leaves only the choices' first tokens, renormalised among
// themselves (a token the fake offers nowhere has logit -8), every other
// candidate at -9999 (vLLM's clamp of -inf); the chosen string's further
// tokens are certain (logprob 0).
func llmChoicePositions(answer []llmCand, choice []string) []llmPosition {
	logit := map[string]float64{}
	for _, c := range answer {
		logit[c.tok] = c.logit
	}
	var toks []string
	var logits []float64
	allowed := map[string]bool{}
	for _, ch := range choice {
		pieces := LLMTokenize(ch)
		if len(pieces) == 0 || allowed[pieces[0]] {
			continue
		}
		allowed[pieces[0]] = true
		l, ok := logit[pieces[0]]
		if !ok {
			l = llmUnseenLogit
		}
		toks, logits = append(toks, pieces[0]), append(logits, l)
	}
	cands := llmDist(toks, logits)
	for _, c := range answer {
		if !allowed[c.tok] {
			cands = append(cands, llmCand{tok: c.tok, logit: c.logit, lp: -9999.0})
		}
	}
	var chosen []string
	for _, ch := range choice {
		if p := LLMTokenize(ch); len(p) > 0 && p[0] == cands[0].tok {
			chosen = p
			break
		}
	}
	out := []llmPosition{{cands[0].tok, cands}}
	for _, t := range chosen[1:] {
		out = append(out, llmPosition{t, []llmCand{{tok: t, lp: 0}}})
	}
	return out
}

// llmPromptPositions are the log-probabilities of a prompt's own tokens
// (vLLM's prompt logprobs, echoed by its completions): the first token has
// none; a token whose text (trimmed, lowercased) occurs earlier in the
// prompt gets -0.5 + noise, any other -(2 + noise), noise in [-0.05, 0.05]
// from (prompt, index, token). Alternatives follow with fixed values.
func llmPromptPositions(prompt string) []llmPosition {
	toks := LLMTokenize(prompt)
	seen := map[string]bool{}
	out := make([]llmPosition, len(toks))
	for i, t := range toks {
		key := strings.ToLower(strings.TrimSpace(t))
		if key == "" {
			key = t
		}
		if i == 0 {
			out[i] = llmPosition{tok: t}
			seen[key] = true
			continue
		}
		noise := llmNoise(prompt, strconv.Itoa(i)+"\x00"+t)
		lp := -(2 + noise)
		if seen[key] {
			lp = math.Min(0, -0.5+noise)
		}
		seen[key] = true
		cands := []llmCand{{tok: t, lp: lp}}
		for j, alt := range []string{" the", "\n", " The", ",", "."} {
			if alt != t {
				cands = append(cands, llmCand{tok: alt, lp: -3.0 - 0.5*float64(j)})
			}
		}
		out[i] = llmPosition{tok: t, cands: cands}
	}
	return out
}
