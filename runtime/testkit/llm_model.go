package testkit

import (
	"hash/fnv"
	"math"
	"regexp"
	"sort"
	"strings"
	"unicode"
)

// The fake LLM's "model": a GPT-2-like tokenizer, the ChatML template and a
// next-token distribution that follows from the prompt by fixed rules, so
// that a test can predict every number the fake returns (see
// LLMAnswerLogits) and a prompt whose text supports an option makes that
// option win.

// llmSpecialTokens are single tokens wherever they appear in a text, as a
// real tokenizer's added tokens are.
var llmSpecialTokens = []string{"<|im_start|>", "<|im_end|>", "<think>", "</think>"}

// LLMTokenize splits s as the fake's tokenizer does: the special tokens
// (<|im_start|>, <|im_end|>, <think>, </think>) whole; a run of letters, a
// single digit or a single other non-space character, each with one
// preceding space attached (" Yes"); any other run of whitespace as one
// token. Joining the tokens gives s back.
func LLMTokenize(s string) []string {
	var out []string
	rs := []rune(s)
	for i := 0; i < len(rs); {
		if tok, ok := llmSpecialAt(rs, i); ok {
			out = append(out, tok)
			i += len([]rune(tok))
			continue
		}
		if unicode.IsSpace(rs[i]) {
			j := i
			for j < len(rs) && unicode.IsSpace(rs[j]) {
				if _, ok := llmSpecialAt(rs, j); ok {
					break
				}
				j++
			}
			// One space right before a word belongs to the word.
			if j < len(rs) && rs[j-1] == ' ' {
				if _, special := llmSpecialAt(rs, j); !special {
					if j-1 > i {
						out = append(out, string(rs[i:j-1]))
					}
					n := llmPieceLen(rs, j)
					out = append(out, string(rs[j-1:j+n]))
					i = j + n
					continue
				}
			}
			out = append(out, string(rs[i:j]))
			i = j
			continue
		}
		n := llmPieceLen(rs, i)
		out = append(out, string(rs[i:i+n]))
		i += n
	}
	return out
}

func llmSpecialAt(rs []rune, i int) (string, bool) {
	for _, sp := range llmSpecialTokens {
		spr := []rune(sp)
		if i+len(spr) <= len(rs) && string(rs[i:i+len(spr)]) == sp {
			return sp, true
		}
	}
	return "", false
}

// llmPieceLen is the length of the non-space piece starting at rs[i]: a
// letter run, or one rune.
func llmPieceLen(rs []rune, i int) int {
	if !unicode.IsLetter(rs[i]) {
		return 1
	}
	j := i
	for j < len(rs) && unicode.IsLetter(rs[j]) {
		j++
	}
	return j - i
}

// LLMMessage is one chat message as the fake's template renders it.
type LLMMessage struct {
	Role, Content string
}

// LLMRenderChat renders messages with the ChatML template of Qwen-like
// models: "<|im_start|>{role}\n{content}<|im_end|>\n" per message, then the
// generation prompt "<|im_start|>assistant\n", followed by an empty
// "<think>\n\n</think>\n\n" when a reasoning model's thinking is turned off
// (as Qwen3's template does with enable_thinking false).
func LLMRenderChat(msgs []LLMMessage, reasoningModel, thinkingOff bool) string {
	var b strings.Builder
	for _, m := range msgs {
		b.WriteString("<|im_start|>" + m.Role + "\n" + m.Content + "<|im_end|>\n")
	}
	b.WriteString("<|im_start|>assistant\n")
	if reasoningModel && thinkingOff {
		b.WriteString("<think>\n\n</think>\n\n")
	}
	return b.String()
}

// llmLabelLine is a line that offers an option: a short label (one to
// three letters, or one to three digits) then ")", "." or ":" then text.
var llmLabelLine = regexp.MustCompile(`^\s*([A-Za-z]{1,3}|[0-9]{1,3})[).:]\s+(\S.*)$`)

var llmWord = regexp.MustCompile(`\p{L}{3,}`)

// llmFillers are the tokens every answer position offers besides the
// labels, with their fixed logits.
var llmFillers = []struct {
	tok   string
	logit float64
}{{"\n", -1.0}, {"The", -3.0}, {" The", -3.0}, {"I", -3.0}, {"Sure", -3.0}, {"<think>", -3.0}}

// Spelling offsets of a label's token: the label as written scores best.
const (
	llmEvidenceWeight = 4.0
	llmSpaceOffset    = -0.7
	llmCaseOffset     = -2.0
	llmNoiseSpan      = 0.05
	llmUnseenLogit    = -8.0 // a vocabulary token the fake offers nowhere
)

// llmCand is one token of a position's distribution.
type llmCand struct {
	tok   string
	logit float64
	lp    float64 // log-softmax over the position's candidates
}

// LLMAnswerLogits returns the logits the fake gives at the answer
// position. prompt is the exact rendered text (it seeds the noise),
// lastUser the last user message (its label lines offer the options) and
// allText every message's content joined by "\n" (where evidence is
// looked for). For each label line of lastUser in order (a label's first
// line counts), each spelling of the label's first token (as written,
// lower, upper, title case; each bare and with a leading space) gets
//
//	4*evidence + offset + noise
//
// with offset 0 as written, -0.7 with a leading space, -2.0 in another
// case (both: -2.7); noise in [-0.05, 0.05] from a hash of (prompt,
// token); evidence the fraction of the line's words (3+ letters,
// lowercased, repeats counted) that occur in allText outside any line of
// the label shape. The fillers follow with fixed logits ("\n" -1, "The",
// " The", "I", "Sure", "<think>" -3). The first occurrence of a token
// wins. Log-probabilities are the log-softmax over exactly these tokens.
func LLMAnswerLogits(prompt, lastUser, allText string) (toks []string, logits []float64) {
	type label struct{ label, text string }
	var labels []label
	for _, line := range strings.Split(lastUser, "\n") {
		if m := llmLabelLine.FindStringSubmatch(line); m != nil {
			labels = append(labels, label{m[1], m[2]})
		}
	}
	other := map[string]bool{}
	for _, line := range strings.Split(allText, "\n") {
		if llmLabelLine.MatchString(line) {
			continue
		}
		for _, w := range llmWord.FindAllString(strings.ToLower(line), -1) {
			other[w] = true
		}
	}
	seen := map[string]bool{}
	add := func(tok string, logit float64) {
		if seen[tok] {
			return
		}
		seen[tok] = true
		toks = append(toks, tok)
		logits = append(logits, logit)
	}
	for _, l := range labels {
		words := llmWord.FindAllString(strings.ToLower(l.text), -1)
		found := 0
		for _, w := range words {
			if other[w] {
				found++
			}
		}
		evidence := 0.0
		if len(words) > 0 {
			evidence = float64(found) / float64(len(words))
		}
		first := LLMTokenize(l.label)[0]
		for _, sp := range llmSpellings(first) {
			for _, space := range []bool{false, true} {
				tok, off := sp, 0.0
				if sp != first {
					off += llmCaseOffset
				}
				if space {
					tok, off = " "+sp, off+llmSpaceOffset
				}
				add(tok, llmEvidenceWeight*evidence+off+llmNoise(prompt, tok))
			}
		}
	}
	for _, f := range llmFillers {
		add(f.tok, f.logit)
	}
	return toks, logits
}

// llmSpellings are a label token's spellings: as written, then lower,
// upper and title case, without repeats.
func llmSpellings(tok string) []string {
	out := []string{tok}
	title := strings.ToUpper(tok[:1]) + strings.ToLower(tok[1:])
	for _, s := range []string{strings.ToLower(tok), strings.ToUpper(tok), title} {
		dup := false
		for _, o := range out {
			dup = dup || o == s
		}
		if !dup {
			out = append(out, s)
		}
	}
	return out
}

// llmNoise is a deterministic value in [-0.05, 0.05] for (prompt, token).
func llmNoise(prompt, tok string) float64 {
	h := fnv.New64a()
	h.Write([]byte(prompt))
	h.Write([]byte{0})
	h.Write([]byte(tok))
	return (float64(h.Sum64()%1_000_001)/1_000_000*2 - 1) * llmNoiseSpan
}

// llmDist turns logits into a position's candidates, sorted by logprob
// (ties keep their order), with log-softmax values.
func llmDist(toks []string, logits []float64) []llmCand {
	maxL := math.Inf(-1)
	for _, l := range logits {
		maxL = math.Max(maxL, l)
	}
	sum := 0.0
	for _, l := range logits {
		sum += math.Exp(l - maxL)
	}
	lse := maxL + math.Log(sum)
	out := make([]llmCand, len(toks))
	for i := range toks {
		out[i] = llmCand{tok: toks[i], logit: logits[i], lp: math.Min(0, logits[i]-lse)}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].logit > out[j].logit })
	return out
}

// llmForced is a position whose token the model is sure of (reasoning
// prose, the end of thinking): the token at logit 0 and three fixed
// alternatives.
func llmForced(tok string) []llmCand {
	toks := []string{tok}
	logits := []float64{0}
	for _, alt := range []struct {
		tok   string
		logit float64
	}{{"So", -2.5}, {" the", -3.0}, {"\n", -3.5}} {
		if alt.tok != tok {
			toks, logits = append(toks, alt.tok), append(logits, alt.logit)
		}
	}
	return llmDist(toks, logits)
}

// llmPosition is one generated token and the distribution it was taken
// from (cands[0] is the argmax, which greedy decoding takes).
type llmPosition struct {
	tok   string
	cands []llmCand
}

// llmReasoningProse is what the fake "thinks" between <think> and </think>.
var llmReasoningProse = []string{"\n", "Okay", ",", " the", " answer", " is", " clear", ".", "\n"}

// llmGeneration is a whole greedy generation.
type llmGeneration struct {
	positions []llmPosition
	reasoning string // text between <think> and </think> (trimmed)
	content   string // the answer text after the thinking
	thought   bool   // a <think> block was opened
	finish    string // "stop" or "length"
}

// llmGenerate runs the fake model: with thinking, <think>, the prose,
// </think>, "\n\n" and then the answer; without, the answer alone. The
// answer position's distribution is answer; choice (vLLM's guided choice)
// restricts it to the choices' first tokens, renormalised, the others at
// -9999, and emits the chosen string whole. maxTokens <= 0 means no limit.
func llmGenerate(answer []llmCand, thinking bool, maxTokens int, choice []string) llmGeneration {
	var g llmGeneration
	var seq []llmPosition
	if thinking {
		first := append([]llmCand(nil), answer...)
		toks, logits := make([]string, 0, len(first)+1), make([]float64, 0, len(first)+1)
		toks, logits = append(toks, "<think>"), append(logits, 6.0)
		for _, c := range first {
			if c.tok != "<think>" {
				toks, logits = append(toks, c.tok), append(logits, c.logit)
			}
		}
		seq = append(seq, llmPosition{"<think>", llmDist(toks, logits)})
		for _, t := range llmReasoningProse {
			seq = append(seq, llmPosition{t, llmForced(t)})
		}
		seq = append(seq, llmPosition{"</think>", llmForced("</think>")}, llmPosition{"\n\n", llmForced("\n\n")})
	}
	if len(choice) > 0 {
		seq = append(seq, llmChoicePositions(answer, choice)...)
	} else {
		seq = append(seq, llmPosition{answer[0].tok, answer})
	}
	g.finish = "stop"
	// The end-of-turn token after the answer needs one more token of
	// budget; it is neither reported nor counted.
	if maxTokens > 0 && len(seq) >= maxTokens {
		seq, g.finish = seq[:maxTokens], "length"
	}
	g.positions = seq
	var text strings.Builder
	for _, p := range seq {
		text.WriteString(p.tok)
	}
	out := text.String()
	if thinking {
		g.thought = true
		out = strings.TrimPrefix(out, "<think>")
		if i := strings.Index(out, "</think>"); i >= 0 {
			g.reasoning = strings.TrimSpace(out[:i])
			g.content = strings.TrimLeft(out[i+len("</think>"):], "\n")
		} else {
			g.reasoning = strings.TrimSpace(out)
		}
		return g
	}
	g.content = out
	return g
}
