package testkit

import (
	"encoding/json"
	"fmt"
	"math"
)

// vLLM's OpenAI-compatible server (sources in llm.go's header).

var vllmRoutes = map[string]llmRoute{
	"GET /v1/models":            {handle: vllmModels},
	"GET /health":               {handle: func(*LLMBackend, []byte, bool) llmReply { return llmReply{status: 200, body: []byte{}} }},
	"POST /v1/chat/completions": {completion: true, handle: vllmChat},
	"POST /v1/completions":      {completion: true, handle: vllmCompletions},
}

func vllmModels(b *LLMBackend, _ []byte, _ bool) llmReply {
	return llmJSON(200, map[string]any{"object": "list", "data": []any{map[string]any{
		"id": b.o.Model, "object": "model", "created": llmCreated, "owned_by": "vllm",
		"root": b.o.Model, "parent": nil, "max_model_len": b.o.MaxModelLen,
		"permission": []any{map[string]any{"id": "modelperm-fake", "object": "model_permission", "created": llmCreated,
			"allow_create_engine": false, "allow_sampling": true, "allow_logprobs": true, "allow_search_indices": false,
			"allow_view": true, "allow_fine_tuning": false, "organization": "*", "group": nil, "is_blocking": false}},
	}}})
}

// vllmLogprobsCap checks a requested number of logprobs against
// --max-logprobs as vLLM's input processor does (-1 is the vocabulary).
func (b *LLMBackend) vllmLogprobsCap(n int) (llmReply, bool) {
	if n == -1 {
		n = llmVocabSize
	}
	if b.o.MaxLogprobs != -1 && n > b.o.MaxLogprobs {
		return b.errorReply(400, fmt.Sprintf("Requested sample logprobs of %d, which is greater than max allowed: %d (parameter=logprobs, value=%d)",
			n, b.o.MaxLogprobs, n), "logprobs"), false
	}
	return llmReply{}, true
}

// vllmContext checks a prompt of m tokens and an output budget against
// max_model_len as vLLM's renderer and serving do.
func (b *LLMBackend) vllmContext(m int, maxTokens *int) (llmReply, bool) {
	n := b.o.MaxModelLen
	if m >= n {
		return b.errorReply(400, fmt.Sprintf("This model's maximum context length is %d tokens. However, your request has %d input tokens. Please reduce the length of the input messages. (parameter=input_tokens, value=%d)", n, m, m), "input_tokens"), false
	}
	if maxTokens != nil && m+*maxTokens > n {
		x := *maxTokens
		return b.errorReply(400, fmt.Sprintf("'max_tokens' or 'max_completion_tokens' is too large: %d. This model's maximum context length is %d tokens and your request has %d input tokens (%d > %d - %d). (parameter=max_tokens, value=%d)", x, n, m, x, n, m, x), "max_tokens"), false
	}
	return llmReply{}, true
}

func vllmChat(b *LLMBackend, body []byte, noLogprobs bool) llmReply {
	var req llmChatBody
	if err := json.Unmarshal(body, &req); err != nil {
		return vllmRequestInvalid("request body does not decode: "+err.Error(), "")
	}
	msgs, err := req.messages()
	if err != nil {
		return b.errorReply(400, err.Error(), "messages")
	}
	if req.Stream {
		return b.errorReply(400, errLLMStream.Error(), "stream")
	}
	if req.Model != nil && *req.Model != "" && *req.Model != b.o.Model {
		return b.errorReply(404, fmt.Sprintf("The model `%s` does not exist.", *req.Model), "model")
	}
	logprobs := req.Logprobs != nil && *req.Logprobs
	top := 0
	if req.TopLogprobs != nil {
		top = *req.TopLogprobs
		if top < -1 {
			return vllmRequestInvalid(fmt.Sprintf("Value error, `top_logprobs` must be a positive value or -1. (parameter=top_logprobs, value=%d)", top), "top_logprobs")
		}
		if top != 0 && !logprobs {
			return vllmRequestInvalid("Value error, when using `top_logprobs`, `logprobs` must be set to true. (parameter=top_logprobs)", "top_logprobs")
		}
		if rep, ok := b.vllmLogprobsCap(top); !ok {
			return rep
		}
	}
	mt := req.maxTokens()
	if mt != nil && *mt < 1 {
		return b.errorReply(400, fmt.Sprintf("max_tokens must be at least 1, got %d. (parameter=max_tokens, value=%d)", *mt, *mt), "max_tokens")
	}
	// enable_thinking false turns thinking off only as a JSON boolean (the
	// template tests `enable_thinking is false`); reasoning_effort "none"
	// stands for it when enable_thinking is not given.
	thinkingOff := false
	if raw, ok := req.ChatTemplateKwargs["enable_thinking"]; ok {
		thinkingOff = string(raw) == "false"
	} else if req.ReasoningEffort != nil {
		thinkingOff = *req.ReasoningEffort == "none"
	}
	prompt := LLMRenderChat(msgs, b.o.Reasoning, thinkingOff)
	m := len(LLMTokenize(prompt))
	if rep, ok := b.vllmContext(m, mt); !ok {
		return rep
	}
	budget := b.o.MaxModelLen - m
	if mt != nil {
		budget = *mt
	}
	run := b.runChat(msgs, thinkingOff, budget, req.choice())
	msg := map[string]any{"role": "assistant", "content": nullIfEmpty(run.gen.content), "refusal": nil,
		"annotations": nil, "audio": nil, "function_call": nil, "tool_calls": []any{}, "reasoning": nil}
	if run.gen.thought {
		msg["reasoning"] = nullIfEmpty(run.gen.reasoning)
	}
	var lp any
	if logprobs && !noLogprobs {
		lp = map[string]any{"content": vllmChatLogprobs(run.gen.positions, top)}
	}
	c := len(run.gen.positions)
	return llmJSON(200, map[string]any{
		"id": llmID("chatcmpl", body), "object": "chat.completion", "created": llmCreated, "model": b.o.Model,
		"choices": []any{map[string]any{"index": 0, "message": msg, "logprobs": lp,
			"finish_reason": run.gen.finish, "stop_reason": nil}},
		"service_tier": nil, "system_fingerprint": nil,
		"usage":           map[string]any{"prompt_tokens": m, "total_tokens": m + c, "completion_tokens": c, "prompt_tokens_details": nil},
		"prompt_logprobs": nil, "kv_transfer_params": nil,
	})
}

// vllmRequestInvalid is what vLLM's validation_exception_handler answers
// when the request model's validators refuse a body (server_utils.py): type
// "Bad Request" (the status phrase), param from the VLLMValidationError;
// the message, pydantic's error list in vLLM, is shortened here to the
// validator's words.
func vllmRequestInvalid(msg, param string) llmReply {
	var p any
	if param != "" {
		p = param
	}
	return llmJSON(400, map[string]any{"error": map[string]any{"message": msg, "type": "Bad Request", "param": p, "code": 400}})
}

func nullIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// vllmLogprob is vLLM's ChatCompletionLogProb.
type vllmLogprob struct {
	Token   string  `json:"token"`
	Logprob float64 `json:"logprob"`
	Bytes   []int   `json:"bytes"`
}

type vllmLogprobContent struct {
	vllmLogprob
	TopLogprobs []vllmLogprob `json:"top_logprobs"`
}

// vllmChatLogprobs is logprobs.content: per position the sampled token
// and the first top of (sampled token, then the rest by rank), values
// clamped at -9999.0; top -1 is every candidate.
func vllmChatLogprobs(positions []llmPosition, top int) []vllmLogprobContent {
	out := make([]vllmLogprobContent, 0, len(positions))
	for _, p := range positions {
		e := vllmLogprobContent{vllmLogprob: vllmLP(p.cands[0]), TopLogprobs: []vllmLogprob{}}
		for i, c := range p.cands {
			if top != -1 && i >= top {
				break
			}
			e.TopLogprobs = append(e.TopLogprobs, vllmLP(c))
		}
		out = append(out, e)
	}
	return out
}

func vllmLP(c llmCand) vllmLogprob {
	return vllmLogprob{Token: c.tok, Logprob: math.Max(c.lp, -9999.0), Bytes: llmBytes(c.tok)}
}

// llmCmplBody is the union of the completions request fields read.
type llmCmplBody struct {
	Model     *string         `json:"model"`
	Prompt    json.RawMessage `json:"prompt"`
	Logprobs  *int            `json:"logprobs"`
	Echo      bool            `json:"echo"`
	MaxTokens *int            `json:"max_tokens"`
	Stream    bool            `json:"stream"`
}

// prompts is the prompt as a list: a string or a list of strings.
func (c *llmCmplBody) prompts() ([]string, bool) {
	var one string
	if err := json.Unmarshal(c.Prompt, &one); err == nil {
		return []string{one}, true
	}
	var many []string
	if err := json.Unmarshal(c.Prompt, &many); err == nil && len(many) > 0 {
		return many, true
	}
	return nil, false
}
