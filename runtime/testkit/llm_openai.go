package testkit

import (
	"encoding/json"
	"fmt"
)

// OpenAI's API, written from its public API reference (no source to
// read): chat completions with logprobs like vLLM's (sorted, no clamp
// needed), top_logprobs 0..20, errors {"error":{message, type, param,
// code}} with string codes, no reasoning control, and no legacy
// completions for chat models.

var openaiRoutes = map[string]llmRoute{
	"GET /v1/models":            {handle: openaiModels},
	"POST /v1/chat/completions": {completion: true, handle: openaiChat},
	"POST /v1/completions": {completion: true, handle: func(b *LLMBackend, _ []byte, _ bool) llmReply {
		return openaiError(404, "This is a chat model and not supported in the v1/completions endpoint. Did you mean to use v1/chat/completions?", "model", "")
	}},
}

func openaiError(status int, msg, param, code string) llmReply {
	var p, c any
	if param != "" {
		p = param
	}
	if code != "" {
		c = code
	}
	return llmJSON(status, map[string]any{"error": map[string]any{"message": msg, "type": "invalid_request_error", "param": p, "code": c}})
}

func openaiModels(b *LLMBackend, _ []byte, _ bool) llmReply {
	return llmJSON(200, map[string]any{"object": "list", "data": []any{map[string]any{
		"id": b.o.Model, "object": "model", "created": llmCreated, "owned_by": "system"}}})
}

func openaiChat(b *LLMBackend, body []byte, noLogprobs bool) llmReply {
	var req llmChatBody
	if err := json.Unmarshal(body, &req); err != nil {
		return openaiError(400, "We could not parse the JSON body of your request.", "", "")
	}
	msgs, err := req.messages()
	if err != nil {
		return openaiError(400, err.Error(), "messages", "")
	}
	if req.Stream {
		return openaiError(400, errLLMStream.Error(), "stream", "")
	}
	if req.Model == nil || *req.Model == "" {
		return openaiError(400, "you must provide a model parameter", "", "")
	}
	if *req.Model != b.o.Model {
		return openaiError(404, fmt.Sprintf("The model `%s` does not exist or you do not have access to it.", *req.Model), "", "model_not_found")
	}
	logprobs := req.Logprobs != nil && *req.Logprobs
	top := 0
	if req.TopLogprobs != nil {
		top = *req.TopLogprobs
		if top < 0 {
			return openaiError(400, fmt.Sprintf("Invalid 'top_logprobs': integer below minimum value. Expected a value >= 0, but got %d instead.", top), "top_logprobs", "integer_below_min_value")
		}
		if top > 20 {
			return openaiError(400, fmt.Sprintf("Invalid 'top_logprobs': integer above maximum value. Expected a value <= 20, but got %d instead.", top), "top_logprobs", "integer_above_max_value")
		}
		if !logprobs {
			return openaiError(400, "Invalid value for 'top_logprobs': 'logprobs' must be true when 'top_logprobs' is specified.", "top_logprobs", "invalid_value")
		}
	}
	prompt := LLMRenderChat(msgs, false, false)
	m := len(LLMTokenize(prompt))
	mt := req.maxTokens()
	if m >= b.o.MaxModelLen || (mt != nil && m+*mt > b.o.MaxModelLen) {
		return openaiError(400, fmt.Sprintf("This model's maximum context length is %d tokens. However, your messages resulted in %d tokens. Please reduce the length of the messages.", b.o.MaxModelLen, m), "messages", "context_length_exceeded")
	}
	budget := 0
	if mt != nil {
		budget = *mt
	}
	run := llmChat{prompt: prompt, promptTokens: m, gen: llmGenerate(llmAnswerDist(prompt, msgs), false, budget, nil)}
	var lp any
	if logprobs && !noLogprobs {
		lp = map[string]any{"content": vllmChatLogprobs(run.gen.positions, top), "refusal": nil}
	}
	c := len(run.gen.positions)
	return llmJSON(200, map[string]any{
		"id": llmID("chatcmpl", body), "object": "chat.completion", "created": llmCreated, "model": b.o.Model,
		"choices": []any{map[string]any{"index": 0, "message": map[string]any{"role": "assistant", "content": run.gen.content,
			"refusal": nil, "annotations": []any{}}, "logprobs": lp, "finish_reason": run.gen.finish}},
		"usage":        map[string]any{"prompt_tokens": m, "completion_tokens": c, "total_tokens": m + c},
		"service_tier": "default", "system_fingerprint": "fp_fake",
	})
}
