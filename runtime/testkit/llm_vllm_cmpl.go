package testkit

import (
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// vLLM's /v1/completions: prompt a string or a list of strings (one choice
// per prompt, index = position), int logprobs, echo (with max_tokens 0:
// the prompt's own tokens and their log-probabilities only), usage summed
// over the prompts. A completion prompt is raw text: no template, and the
// whole prompt offers the labels.

func vllmCompletions(b *LLMBackend, body []byte, noLogprobs bool) llmReply {
	var req llmCmplBody
	if err := json.Unmarshal(body, &req); err != nil {
		return vllmRequestInvalid("request body does not decode: "+err.Error(), "")
	}
	if req.Stream {
		return b.errorReply(400, errLLMStream.Error(), "stream")
	}
	if req.Model != nil && *req.Model != "" && *req.Model != b.o.Model {
		return b.errorReply(404, fmt.Sprintf("The model `%s` does not exist.", *req.Model), "model")
	}
	prompts, ok := req.prompts()
	if !ok {
		return b.errorReply(400, "prompt must be a string or a list of strings", "prompt")
	}
	if req.Logprobs != nil {
		if *req.Logprobs < -1 {
			return vllmRequestInvalid(fmt.Sprintf("Value error, `logprobs` must be a positive value or -1. (parameter=logprobs, value=%d)", *req.Logprobs), "logprobs")
		}
		if rep, ok := b.vllmLogprobsCap(*req.Logprobs); !ok {
			return rep
		}
	}
	maxTokens := 16
	if req.MaxTokens != nil {
		maxTokens = *req.MaxTokens
	}
	if maxTokens < 0 || (maxTokens == 0 && !req.Echo) {
		return b.errorReply(400, fmt.Sprintf("max_tokens must be at least 1, got %d. (parameter=max_tokens, value=%d)", maxTokens, maxTokens), "max_tokens")
	}
	choices := make([]any, 0, len(prompts))
	sumPrompt, sumGen := 0, 0
	for i, prompt := range prompts {
		ptoks := LLMTokenize(prompt)
		mt := maxTokens
		if rep, ok := b.vllmContext(len(ptoks), &mt); !ok {
			return rep
		}
		var gen llmGeneration
		if maxTokens > 0 {
			toks, logits := LLMAnswerLogits(prompt, prompt, prompt)
			gen = llmGenerate(llmDist(toks, logits), false, maxTokens, nil)
		} else {
			gen.finish = "length"
		}
		sumPrompt += len(ptoks)
		sumGen += len(gen.positions)
		var positions []llmPosition
		text := gen.content
		if req.Echo {
			positions = llmPromptPositions(prompt)
			text = prompt + text
		}
		positions = append(positions, gen.positions...)
		choice := map[string]any{"index": i, "text": text, "logprobs": nil, "finish_reason": gen.finish,
			"stop_reason": nil, "prompt_logprobs": nil}
		if req.Logprobs != nil && !noLogprobs {
			choice["logprobs"] = vllmCmplLogprobs(positions, *req.Logprobs)
			if req.Echo {
				choice["prompt_logprobs"] = vllmPromptLogprobs(positions[:len(ptoks)], *req.Logprobs)
			}
		}
		choices = append(choices, choice)
	}
	return llmJSON(200, map[string]any{
		"id": llmID("cmpl", body), "object": "text_completion", "created": llmCreated, "model": b.o.Model,
		"choices": choices, "service_tier": nil, "system_fingerprint": nil,
		"usage": map[string]any{"prompt_tokens": sumPrompt, "total_tokens": sumPrompt + sumGen,
			"completion_tokens": sumGen, "prompt_tokens_details": nil},
		"kv_transfer_params": nil,
	})
}

// vllmCmplLogprobs is the legacy completions logprobs object: a position
// without log-probabilities (the first prompt token) is null in
// token_logprobs and top_logprobs; top_logprobs dicts hold the actual
// token first and up to n+1 entries; text_offset counts characters from 0.
func vllmCmplLogprobs(positions []llmPosition, n int) map[string]any {
	toks := make([]string, 0, len(positions))
	lps := make([]any, 0, len(positions))
	tops := make([]any, 0, len(positions))
	offs := make([]int, 0, len(positions))
	off := 0
	for _, p := range positions {
		toks = append(toks, p.tok)
		offs = append(offs, off)
		off += utf8.RuneCountInString(p.tok)
		if p.cands == nil {
			lps, tops = append(lps, nil), append(tops, nil)
			continue
		}
		lps = append(lps, max(p.cands[0].lp, -9999.0))
		k := n + 1
		if n == -1 || k > len(p.cands) {
			k = len(p.cands)
		}
		tops = append(tops, llmOrdered(p.cands[:k]))
	}
	return map[string]any{"text_offset": offs, "token_logprobs": lps, "tokens": toks, "top_logprobs": tops}
}

// vllmPromptLogprobs is choices[].prompt_logprobs: null first, then per
// token a dict keyed by token id of {logprob, rank, decoded_token} for the
// actual token and the n best others.
func vllmPromptLogprobs(positions []llmPosition, n int) []any {
	out := make([]any, 0, len(positions))
	for _, p := range positions {
		if p.cands == nil {
			out = append(out, nil)
			continue
		}
		d := map[string]any{}
		for i, c := range p.cands {
			if i > 0 && n != -1 && i > n {
				break
			}
			rank := 1
			for _, o := range p.cands {
				if o.lp > c.lp {
					rank++
				}
			}
			d[itoa(llmTokenID(c.tok))] = map[string]any{"logprob": max(c.lp, -9999.0), "rank": rank, "decoded_token": c.tok}
		}
		out = append(out, d)
	}
	return out
}
