package testkit

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Ollama's OpenAI-compatible layer (sources in llm.go's header): the
// openai package's structs, reproduced field for field so the bytes come
// out in Go's order; native errors wrapped as {"error":{message, type,
// param: null, code: null}}; top_logprobs 0..20; a context overflow is
// truncated silently; /v1/completions returns no logprobs.

var ollamaRoutes = map[string]llmRoute{
	"GET /": {handle: func(*LLMBackend, []byte, bool) llmReply {
		return llmReply{status: 200, body: []byte("Ollama is running"), ctype: "text/plain; charset=utf-8"}
	}},
	"GET /api/version":          {handle: func(*LLMBackend, []byte, bool) llmReply { return llmJSON(200, map[string]any{"version": "0.33.0-rc2"}) }},
	"GET /v1/models":            {handle: ollamaModels},
	"POST /v1/chat/completions": {completion: true, handle: ollamaChat},
	"POST /v1/completions":      {completion: true, handle: ollamaCompletions},
}

// ollamaName is a model name with its tag (":latest" when none).
func ollamaName(s string) string {
	if i := strings.LastIndex(s, ":"); i > strings.LastIndex(s, "/") {
		return s
	}
	return s + ":latest"
}

func ollamaModels(b *LLMBackend, _ []byte, _ bool) llmReply {
	owner := "library"
	if i := strings.LastIndex(b.o.Model, "/"); i > 0 {
		owner = b.o.Model[:i]
		if j := strings.LastIndex(owner, "/"); j >= 0 {
			owner = owner[j+1:]
		}
	}
	type model struct {
		ID      string `json:"id"`
		Object  string `json:"object"`
		Created int64  `json:"created"`
		OwnedBy string `json:"owned_by"`
	}
	return llmJSON(200, struct {
		Object string  `json:"object"`
		Data   []model `json:"data"`
	}{"list", []model{{ollamaName(b.o.Model), "model", llmCreated, owner}}})
}

type ollamaTokenLogprob struct {
	Token   string  `json:"token"`
	Logprob float64 `json:"logprob"`
	Bytes   []int   `json:"bytes,omitempty"`
}

type ollamaLogprob struct {
	ollamaTokenLogprob
	TopLogprobs []ollamaTokenLogprob `json:"top_logprobs,omitempty"`
}

type ollamaChoiceLogprobs struct {
	Content []ollamaLogprob `json:"content"`
}

type ollamaUsage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

func ollamaLP(c llmCand) ollamaTokenLogprob {
	return ollamaTokenLogprob{Token: c.tok, Logprob: c.lp, Bytes: llmBytes(c.tok)}
}

// ollamaLogprobs: the generated token and, when top > 0, the top best
// (sorted; llama-server was asked for max(top, 1)).
func ollamaLogprobs(positions []llmPosition, top int) *ollamaChoiceLogprobs {
	out := &ollamaChoiceLogprobs{}
	for _, p := range positions {
		e := ollamaLogprob{ollamaTokenLogprob: ollamaLP(p.cands[0])}
		for i := 0; i < top && i < len(p.cands); i++ {
			e.TopLogprobs = append(e.TopLogprobs, ollamaLP(p.cands[i]))
		}
		out.Content = append(out.Content, e)
	}
	return out
}

// ollamaTruncate is Ollama's silent fit into the context: old messages go
// (the system messages and the last message stay), then the head of the
// last message's content.
func (b *LLMBackend) ollamaTruncate(msgs []LLMMessage, thinkingOff bool) []LLMMessage {
	fits := func(ms []LLMMessage) bool {
		return len(LLMTokenize(LLMRenderChat(ms, b.o.Reasoning, thinkingOff))) < b.o.MaxModelLen
	}
	if fits(msgs) {
		return msgs
	}
	var kept []LLMMessage
	for i, m := range msgs {
		if m.Role == "system" || i == len(msgs)-1 {
			kept = append(kept, m)
		}
	}
	last := &kept[len(kept)-1]
	toks := LLMTokenize(last.Content)
	for len(toks) > 0 && !fits(kept) {
		toks = toks[1:]
		last.Content = strings.Join(toks, "")
	}
	return kept
}

func ollamaChat(b *LLMBackend, body []byte, noLogprobs bool) llmReply {
	var req llmChatBody
	var extra struct {
		Reasoning *struct {
			Effort *string `json:"effort"`
		} `json:"reasoning"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return b.errorReply(400, err.Error(), "")
	}
	json.Unmarshal(body, &extra)
	msgs, err := req.messages()
	if err != nil {
		return b.errorReply(400, err.Error(), "")
	}
	if req.Stream {
		return b.errorReply(400, errLLMStream.Error(), "")
	}
	effort := ""
	if extra.Reasoning != nil && extra.Reasoning.Effort != nil {
		effort = *extra.Reasoning.Effort
	} else if req.ReasoningEffort != nil {
		effort = *req.ReasoningEffort
	}
	switch effort {
	case "", "none", "minimal", "low", "medium", "high", "max", "xhigh", "ultra":
	default:
		return b.errorReply(400, fmt.Sprintf(`invalid reasoning value: %q (must be "minimal", "low", "medium", "high", "xhigh", "ultra", "max", or "none")`, effort), "")
	}
	top := 0
	if req.TopLogprobs != nil {
		top = *req.TopLogprobs
	}
	if top < 0 || top > 20 {
		return b.errorReply(400, "top_logprobs must be between 0 and 20", "")
	}
	model := ""
	if req.Model != nil {
		model = *req.Model
	}
	if model == "" {
		return b.errorReply(400, "model is required", "")
	}
	if ollamaName(model) != ollamaName(b.o.Model) {
		return b.errorReply(404, fmt.Sprintf("model '%s' not found", model), "")
	}
	thinkingOff := effort == "none"
	msgs = b.ollamaTruncate(msgs, thinkingOff)
	budget := 0
	if mt := req.maxTokens(); mt != nil && *mt > 0 {
		budget = *mt
	}
	run := b.runChat(msgs, thinkingOff, budget, nil)
	type message struct {
		Role      string `json:"role"`
		Content   any    `json:"content"`
		Reasoning string `json:"reasoning,omitempty"`
	}
	type choice struct {
		Index        int                   `json:"index"`
		Message      message               `json:"message"`
		FinishReason *string               `json:"finish_reason"`
		Logprobs     *ollamaChoiceLogprobs `json:"logprobs,omitempty"`
	}
	ch := choice{Message: message{Role: "assistant", Content: run.gen.content, Reasoning: run.gen.reasoning}, FinishReason: &run.gen.finish}
	if req.Logprobs != nil && *req.Logprobs && !noLogprobs && len(run.gen.positions) > 0 {
		ch.Logprobs = ollamaLogprobs(run.gen.positions, top)
	}
	c := len(run.gen.positions)
	return llmJSON(200, struct {
		ID                string      `json:"id"`
		Object            string      `json:"object"`
		Created           int64       `json:"created"`
		Model             string      `json:"model"`
		SystemFingerprint string      `json:"system_fingerprint"`
		Choices           []choice    `json:"choices"`
		Usage             ollamaUsage `json:"usage,omitempty"`
	}{llmID("chatcmpl", body), "chat.completion", llmCreated, model, "fp_ollama", []choice{ch},
		ollamaUsage{run.promptTokens, c, run.promptTokens + c}})
}

// ollamaCompletions: the prompt is one string, rendered with the model's
// template as a user turn; logprobs are accepted and never returned.
func ollamaCompletions(b *LLMBackend, body []byte, _ bool) llmReply {
	var req struct {
		Model     string `json:"model"`
		Prompt    string `json:"prompt"`
		MaxTokens *int   `json:"max_tokens"`
		Logprobs  *int   `json:"logprobs"`
		Stream    bool   `json:"stream"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return b.errorReply(400, err.Error(), "")
	}
	if req.Stream {
		return b.errorReply(400, errLLMStream.Error(), "")
	}
	if req.Logprobs != nil && *req.Logprobs > 20 {
		return b.errorReply(400, "top_logprobs must be between 0 and 20", "")
	}
	if req.Model == "" {
		return b.errorReply(400, "model is required", "")
	}
	if ollamaName(req.Model) != ollamaName(b.o.Model) {
		return b.errorReply(404, fmt.Sprintf("model '%s' not found", req.Model), "")
	}
	msgs := b.ollamaTruncate([]LLMMessage{{Role: "user", Content: req.Prompt}}, false)
	budget := 0
	if req.MaxTokens != nil && *req.MaxTokens > 0 {
		budget = *req.MaxTokens
	}
	run := b.runChat(msgs, false, budget, nil)
	type choice struct {
		Text         string  `json:"text"`
		Index        int     `json:"index"`
		FinishReason *string `json:"finish_reason"`
	}
	c := len(run.gen.positions)
	return llmJSON(200, struct {
		ID                string      `json:"id"`
		Object            string      `json:"object"`
		Created           int64       `json:"created"`
		Model             string      `json:"model"`
		SystemFingerprint string      `json:"system_fingerprint"`
		Choices           []choice    `json:"choices"`
		Usage             ollamaUsage `json:"usage,omitempty"`
	}{llmID("cmpl", body), "text_completion", llmCreated, req.Model, "fp_ollama",
		[]choice{{Text: run.gen.content, FinishReason: &run.gen.finish}}, ollamaUsage{run.promptTokens, c, run.promptTokens + c}})
}
