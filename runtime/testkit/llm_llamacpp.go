package testkit

import (
	"encoding/json"
	"fmt"
	"strings"
)

// llama.cpp's llama-server (sources in llm.go's header). It serves one
// model and does not route by the request's model; logprobs come sorted,
// with token ids, without a cap (top_logprobs 20 when absent); the logprobs
// key is left out when there are none; errors are
// {"error":{code, message, type}}.

var llamaRoutes = map[string]llmRoute{
	"GET /health":               {handle: llamaHealth},
	"GET /v1/health":            {handle: llamaHealth},
	"GET /models":               {handle: llamaModels},
	"GET /v1/models":            {handle: llamaModels},
	"GET /props":                {handle: llamaProps},
	"POST /chat/completions":    {completion: true, handle: llamaChat},
	"POST /v1/chat/completions": {completion: true, handle: llamaChat},
	"POST /completions":         {completion: true, handle: llamaCompletions},
	"POST /v1/completions":      {completion: true, handle: llamaCompletions},
}

func llamaHealth(*LLMBackend, []byte, bool) llmReply {
	return llmJSON(200, map[string]any{"status": "ok"})
}

func llamaModels(b *LLMBackend, _ []byte, _ bool) llmReply {
	var meta any = map[string]any{"vocab_type": 2, "n_vocab": llmVocabSize, "n_ctx_train": b.o.MaxModelLen,
		"n_embd": 4096, "n_params": 8190735360, "size": 5027783488}
	if b.currentFault() == LLMLoading {
		meta = nil // not known before the model is loaded
	}
	return llmJSON(200, map[string]any{
		"models": []any{map[string]any{"name": b.o.Model, "model": b.o.Model, "modified_at": "", "size": "", "digest": "",
			"type": "model", "description": "", "tags": []string{""}, "capabilities": []string{"completion"}, "parameters": "",
			"details": map[string]any{"parent_model": "", "format": "gguf", "family": "", "families": []string{""},
				"parameter_size": "", "quantization_level": ""}}},
		"object": "list",
		"data": []any{map[string]any{"id": b.o.Model, "aliases": []string{}, "tags": []string{}, "object": "model",
			"created": llmCreated, "owned_by": "llamacpp", "meta": meta}},
	})
}

func llamaProps(b *LLMBackend, _ []byte, _ bool) llmReply {
	return llmJSON(200, map[string]any{
		"default_generation_settings": map[string]any{"id": 0, "id_task": -1, "n_ctx": b.o.MaxModelLen,
			"speculative": false, "is_processing": false, "params": map[string]any{"n_predict": -1, "n_probs": 0,
				"temperature": 0.8, "post_sampling_probs": false}},
		"total_slots": 1, "model_alias": b.o.Model, "model_path": "/models/" + b.o.Model + ".gguf",
		"modalities": map[string]any{"vision": false, "audio": false}, "chat_template": "{# ChatML #}",
		"build_info": "b0000-fake", "is_sleeping": false,
	})
}

// llamaLogprobs is logprobs.content as completion_token_output::to_json
// writes it: per position id, token, bytes, logprob and top_logprobs (the
// n best, sorted), as maps, since nlohmann's json writes keys sorted.
func llamaLogprobs(positions []llmPosition, n int) map[string]any {
	out := make([]any, 0, len(positions))
	for _, p := range positions {
		e := llamaLP(p.cands[0])
		top := []any{}
		for i, c := range p.cands {
			if i >= n {
				break
			}
			top = append(top, llamaLP(c))
		}
		e["top_logprobs"] = top
		out = append(out, e)
	}
	return map[string]any{"content": out}
}

func llamaLP(c llmCand) map[string]any {
	return map[string]any{"id": llmTokenID(c.tok), "token": c.tok, "bytes": llmBytes(c.tok), "logprob": c.lp}
}

// llamaBudget is how many tokens may be generated: max_tokens (or
// max_completion_tokens, or n_predict) within what the context leaves.
func (b *LLMBackend) llamaBudget(raw map[string]json.RawMessage, m int) (int, error) {
	budget := b.o.MaxModelLen - m
	for _, k := range []string{"n_predict", "max_completion_tokens", "max_tokens"} {
		v, ok := raw[k]
		if !ok || string(v) == "null" {
			continue
		}
		var n int
		if err := json.Unmarshal(v, &n); err != nil {
			return 0, fmt.Errorf("%s: not an integer", k)
		}
		if n >= 0 && n < budget {
			budget = n
		}
		break
	}
	return budget, nil
}

// llamaContext is the 400 a prompt that fills the slot's context gets.
func (b *LLMBackend) llamaContext(m int) (llmReply, bool) {
	if m < b.o.MaxModelLen {
		return llmReply{}, true
	}
	e := llamaError(400, fmt.Sprintf("request (%d tokens) exceeds the available context size (%d tokens), try increasing it", m, b.o.MaxModelLen), "exceed_context_size_error")
	e["error"].(map[string]any)["n_prompt_tokens"] = m
	e["error"].(map[string]any)["n_ctx"] = b.o.MaxModelLen
	return llmJSON(400, e), false
}

func llamaChat(b *LLMBackend, body []byte, noLogprobs bool) llmReply {
	var req llmChatBody
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(body, &raw); err != nil {
		return b.errorReply(500, "[json.exception.parse_error.101] parse error: "+err.Error(), "")
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return b.errorReply(400, err.Error(), "")
	}
	msgs, err := req.messages()
	if err != nil {
		return b.errorReply(400, err.Error(), "")
	}
	if req.Stream {
		return b.errorReply(400, errLLMStream.Error(), "")
	}
	n := 0
	if req.Logprobs != nil && *req.Logprobs {
		n = 20
		if req.TopLogprobs != nil {
			n = *req.TopLogprobs
		}
	} else if req.TopLogprobs != nil {
		return b.errorReply(400, "top_logprobs requires logprobs to be set to true", "")
	}
	thinkingOff := false
	if v, ok := req.ChatTemplateKwargs["enable_thinking"]; ok {
		switch s := strings.TrimSpace(string(v)); {
		case s == "false":
			thinkingOff = true
		case strings.HasPrefix(s, `"`):
			return b.errorReply(400, `invalid type for "enable_thinking" (expected boolean, got string)`, "")
		}
	}
	if req.ReasoningEffort != nil && *req.ReasoningEffort == "none" {
		thinkingOff = true
	}
	prompt := LLMRenderChat(msgs, b.o.Reasoning, thinkingOff)
	m := len(LLMTokenize(prompt))
	if rep, ok := b.llamaContext(m); !ok {
		return rep
	}
	budget, err := b.llamaBudget(raw, m)
	if err != nil {
		return b.errorReply(400, err.Error(), "")
	}
	run := b.runChat(msgs, thinkingOff, budget, nil)
	msg := map[string]any{"role": "assistant", "content": run.gen.content}
	if run.gen.thought && run.gen.reasoning != "" {
		msg["reasoning_content"] = run.gen.reasoning
	}
	choice := map[string]any{"finish_reason": run.gen.finish, "index": 0, "message": msg}
	if n > 0 && !noLogprobs && len(run.gen.positions) > 0 {
		choice["logprobs"] = llamaLogprobs(run.gen.positions, n)
	}
	c := len(run.gen.positions)
	return llmJSON(200, map[string]any{
		"choices": []any{choice}, "created": llmCreated, "model": b.o.Model, "system_fingerprint": "b0000-fake",
		"object": "chat.completion", "usage": map[string]any{"completion_tokens": c, "prompt_tokens": m, "total_tokens": m + c},
		"id": llmID("chatcmpl", body), "timings": map[string]any{"prompt_n": m, "prompt_ms": 0, "predicted_n": c, "predicted_ms": 0},
	})
}

// llamaCompletions: echo is refused with a 500 (a plain runtime error in
// oaicompat_completion_params_parse), logprobs are chat-shaped
// ({"content": [...]}) or null, and several prompts give a JSON array of
// completion objects.
func llamaCompletions(b *LLMBackend, body []byte, noLogprobs bool) llmReply {
	var req llmCmplBody
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(body, &raw); err != nil {
		return b.errorReply(500, "[json.exception.parse_error.101] parse error: "+err.Error(), "")
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return b.errorReply(400, err.Error(), "")
	}
	if _, ok := raw["prompt"]; !ok {
		return b.errorReply(500, `"prompt" is required`, "")
	}
	if req.Echo {
		return b.errorReply(500, "Only no echo is supported", "")
	}
	for _, p := range []string{"best_of", "suffix"} {
		if _, ok := raw[p]; ok {
			return b.errorReply(500, "Unsupported param: "+p, "")
		}
	}
	if req.Stream {
		return b.errorReply(400, errLLMStream.Error(), "")
	}
	prompts, ok := req.prompts()
	if !ok {
		return b.errorReply(400, "the fake backend takes a string prompt or a list of strings", "")
	}
	n := 0
	if req.Logprobs != nil {
		n = *req.Logprobs
	}
	var out []any
	for _, prompt := range prompts {
		m := len(LLMTokenize(prompt))
		if rep, ok := b.llamaContext(m); !ok {
			return rep
		}
		budget, err := b.llamaBudget(raw, m)
		if err != nil {
			return b.errorReply(400, err.Error(), "")
		}
		toks, logits := LLMAnswerLogits(prompt, prompt, prompt)
		gen := llmGenerate(llmDist(toks, logits), false, budget, nil)
		var lp any
		if n > 0 && !noLogprobs && len(gen.positions) > 0 {
			lp = llamaLogprobs(gen.positions, n)
		}
		c := len(gen.positions)
		out = append(out, map[string]any{
			"choices": []any{map[string]any{"text": gen.content, "index": 0, "logprobs": lp, "finish_reason": gen.finish}},
			"created": llmCreated, "model": b.o.Model, "system_fingerprint": "b0000-fake", "object": "text_completion",
			"usage": map[string]any{"completion_tokens": c, "prompt_tokens": m, "total_tokens": m + c},
			"id":    llmID("chatcmpl", []byte(prompt)),
		})
	}
	if len(out) == 1 {
		return llmJSON(200, out[0])
	}
	return llmJSON(200, out)
}
