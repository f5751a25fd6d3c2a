package llm

import (
	"context"
	"errors"
	"log/slog"
	"strconv"
	"unicode/utf8"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/distribution"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/modelcheck"
	"github.com/vllm-sr/systemone/runtime/table"
)

// labelError is an answer the backend's reply cannot give: no
// log-probabilities, no answer position, a label it did not score.
type labelError struct{ reason string }

func (e *labelError) Error() string { return e.reason }

// scoreLabels asks p and returns each label's log-probability at the
// answer position, in label order, and the backend's token counts. Where
// the labels cannot carry the question (more than the backend returns
// alternatives for, past Z, or a label missing from what came back) the
// options' continuations are scored instead on a backend that can, and
// otherwise the question fails label_not_scored.
func (e *Engine) scoreLabels(ctx context.Context, p prompt) ([]float64, ir.Usage, error) {
	if !e.labelsFit(p.labels) {
		return e.continuations(ctx, p, ir.Usage{})
	}
	reply, tokens, err := e.chat(ctx, p)
	if err != nil {
		return nil, tokens, err
	}
	if len(reply.Choices) == 0 || reply.Choices[0].Logprobs == nil {
		return nil, tokens, &labelError{vocab.ReasonNoLogprobs}
	}
	pos, reason := answerPosition(reply.Choices[0].Logprobs.Content)
	if reason != "" {
		return nil, tokens, &labelError{reason}
	}
	if lp, ok := labelLogprobs(pos, p.labels); ok {
		return lp, tokens, nil
	}
	return e.continuations(ctx, p, tokens)
}

// labelsFit reports whether the labels can be read from one position's
// alternatives: single letters or digits, no more than the backend
// returns.
func (e *Engine) labelsFit(labels []string) bool {
	if len(labels) > e.path.topLogprobs {
		return false
	}
	for _, l := range labels {
		if _, err := strconv.Atoi(l); err == nil && len(l) > 1 {
			return false
		}
	}
	return true
}

// chat makes one chat completion call for p under a call slot.
func (e *Engine) chat(ctx context.Context, p prompt) (*chatReply, ir.Usage, error) {
	req := chatRequest{Model: e.cfg.Model, Temperature: 0, Logprobs: true, TopLogprobs: e.path.topLogprobs,
		MaxTokens: 2 + e.cfg.ReasoningTokens,
		Messages:  []message{{Role: "system", Content: p.system}, {Role: "user", Content: p.user}}}
	if e.cfg.ReasoningTokens == 0 {
		switch {
		case e.path.templateKwargs:
			req.ChatTemplateKwargs = map[string]bool{"enable_thinking": false}
		case e.path.reasoningEffort:
			req.ReasoningEffort = "none"
		}
	}
	var reply chatReply
	if err := e.call(ctx, "/chat/completions", req, &reply); err != nil {
		return nil, ir.Usage{}, err
	}
	return &reply, usageOf(reply.Usage), nil
}

// call makes one backend call under a call slot: a call whose slot comes
// after the request's deadline is not made. The backend's words go to the
// log.
func (e *Engine) call(ctx context.Context, endpoint string, in, out any) error {
	if err := e.acquire(ctx); err != nil {
		return err
	}
	defer e.release()
	err := e.client.post(ctx, endpoint, in, out)
	var ce *callError
	if errors.As(err, &ce) {
		e.cfg.Logger.LogAttrs(ctx, slog.LevelWarn, "LLM backend call failed", slog.String("endpoint", endpoint), //vocab:not-spec slog attribute key
			slog.String("reason", ce.reason), slog.Int("status", ce.status), slog.String("backend_said", ce.detail)) //vocab:not-spec slog attribute key
	}
	return err
}

// continuations scores each option's text as the continuation of the
// question without its options (p.cloze), in one /v1/completions call
// (echo, max_tokens 0, logprobs 0) with one prompt per option: an
// option's score is the mean log-probability of its tokens (the length-
// normalised likelihood, so a long option is not penalised for its
// length). Only vLLM returns prompt
// log-probabilities; elsewhere the question fails label_not_scored.
func (e *Engine) continuations(ctx context.Context, p prompt, spent ir.Usage) ([]float64, ir.Usage, error) {
	if !e.path.continuations {
		return nil, spent, &labelError{vocab.ReasonLabelNotScored}
	}
	prefix := p.cloze
	req := completionRequest{Model: e.cfg.Model, Echo: true, MaxTokens: 0, Logprobs: 0}
	for _, t := range p.texts {
		req.Prompt = append(req.Prompt, prefix+" "+t)
	}
	var reply completionReply
	if err := e.call(ctx, "/completions", req, &reply); err != nil {
		return nil, spent, err
	}
	u := usageOf(reply.Usage)
	spent.InputTokens += u.InputTokens
	spent.OutputTokens += u.OutputTokens
	boundary := utf8.RuneCountInString(prefix) // vLLM's text_offset counts characters
	lp := make([]float64, len(p.texts))
	seen := make([]bool, len(p.texts))
	for _, c := range reply.Choices {
		if c.Index < 0 || c.Index >= len(lp) || c.Logprobs == nil || seen[c.Index] {
			return nil, spent, &labelError{vocab.ReasonBackendReplyInvalid}
		}
		sum, ok := continuationLogprob(c.Logprobs.TokenLogprobs, c.Logprobs.TextOffset, boundary)
		if !ok {
			return nil, spent, &labelError{vocab.ReasonLabelNotScored}
		}
		lp[c.Index], seen[c.Index] = sum, true
	}
	for _, s := range seen {
		if !s {
			return nil, spent, &labelError{vocab.ReasonBackendReplyInvalid}
		}
	}
	return lp, spent, nil
}

// continuationLogprob is the mean log-probability of the tokens that end
// past the boundary: the option's own tokens (a token straddling the
// boundary is the option's). ok is false when one of them has none, or
// none does.
func continuationLogprob(logprobs []*float64, offsets []int, boundary int) (float64, bool) {
	if len(logprobs) != len(offsets) {
		return 0, false
	}
	sum, n := 0.0, 0
	for i := range logprobs {
		end := int(^uint(0) >> 1)
		if i+1 < len(offsets) {
			end = offsets[i+1]
		}
		if end <= boundary {
			continue
		}
		if logprobs[i] == nil {
			return 0, false
		}
		sum += *logprobs[i]
		n++
	}
	if n == 0 {
		return 0, false
	}
	return sum / float64(n), true
}

func usageOf(u *usage) ir.Usage {
	if u == nil {
		return ir.Usage{}
	}
	return ir.Usage{InputTokens: u.PromptTokens, OutputTokens: u.CompletionTokens}
}

// compose writes a noul, choice or score answer from the labels'
// probabilities, rounded to whole units as the standard's sums need.
func compose(plan *modelcheck.Plan, name string, p []float64) ir.Answer {
	p = distribution.Rounded(p)
	a := ir.Answer{Name: name, Type: plan.Type}
	switch plan.Type {
	case table.QuestionNoul:
		a.Noul = new(p[0])
	case table.QuestionChoice:
		keys := make([]string, len(plan.Criteria.Keyed))
		for i, m := range plan.Criteria.Keyed {
			keys[i] = m.Name
		}
		a.Choice = new(keys[distribution.Argmax(p)])
		a.Probabilities = probabilities(keys, p)
		a.Confidence = new(distribution.Round4(distribution.ChoiceConfidence(p)))
	case table.QuestionScore:
		keys := make([]string, len(p))
		for i := range keys {
			keys[i] = strconv.Itoa(i)
			a.Legend = append(a.Legend, jsonvalue.Member{Name: keys[i], Value: plan.Criteria.Levels[i]})
		}
		a.Score = new(distribution.Round4(distribution.ExpectedLevel(p)))
		a.Probabilities = probabilities(keys, p)
		a.Confidence = new(distribution.Round4(distribution.ScoreConfidence(p)))
	}
	return a
}

// roundedYes is P(yes) of a Yes/No distribution, to four decimals.
func roundedYes(p []float64) float64 { return distribution.Rounded(p)[0] }

func probabilities(keys []string, p []float64) []ir.Probability {
	out := make([]ir.Probability, len(keys))
	for i, k := range keys {
		out[i] = ir.Probability{Key: k, P: p[i]}
	}
	return out
}
