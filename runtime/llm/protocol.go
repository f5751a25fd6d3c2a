package llm

// The OpenAI-compatible wire types the engine sends and reads: only the
// members it uses. Sources (the reference in
// shared/reference/llm-logprob-protocols.md cites them with commits):
// vLLM vllm/entrypoints/openai/chat_completion/protocol.py
// (ChatCompletionRequest, ChatCompletionLogProbs) and
// completion/protocol.py (CompletionRequest, CompletionLogProbs);
// llama.cpp tools/server/server-common.cpp (oaicompat_chat_params_parse)
// and server-task.cpp (probs_vector_to_json); Ollama openai/openai.go
// (ChatCompletionRequest, ToChatCompletion).

type message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type chatRequest struct {
	Model       string    `json:"model"`
	Messages    []message `json:"messages"`
	MaxTokens   int       `json:"max_tokens"`
	Temperature float64   `json:"temperature"`
	Logprobs    bool      `json:"logprobs"`
	TopLogprobs int       `json:"top_logprobs"`
	// ChatTemplateKwargs turns a reasoning model's thinking off on vLLM
	// and llama.cpp (enable_thinking must be a JSON boolean there).
	ChatTemplateKwargs map[string]bool `json:"chat_template_kwargs,omitempty"`
	// ReasoningEffort "none" turns thinking off on Ollama's /v1.
	ReasoningEffort string `json:"reasoning_effort,omitempty"`
}

type chatReply struct {
	Choices []struct {
		Logprobs *struct {
			Content []positionLogprobs `json:"content"`
		} `json:"logprobs"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage *usage `json:"usage"`
}

// positionLogprobs is one generated position: the sampled token and the
// top alternatives (not a distribution: a token missing from it is not
// probability zero).
type positionLogprobs struct {
	Token       string         `json:"token"`
	Logprob     float64        `json:"logprob"`
	TopLogprobs []tokenLogprob `json:"top_logprobs"`
}

type tokenLogprob struct {
	Token   string  `json:"token"`
	Logprob float64 `json:"logprob"`
}

type usage struct {
	PromptTokens     int64 `json:"prompt_tokens"`
	CompletionTokens int64 `json:"completion_tokens"`
}

// completionRequest scores continuations on vLLM: echo with max_tokens 0
// returns the prompt's own tokens and their log-probabilities, one choice
// per prompt.
type completionRequest struct {
	Model       string   `json:"model"`
	Prompt      []string `json:"prompt"`
	MaxTokens   int      `json:"max_tokens"`
	Echo        bool     `json:"echo"`
	Logprobs    int      `json:"logprobs"`
	Temperature float64  `json:"temperature"`
}

type completionReply struct {
	Choices []struct {
		Index    int `json:"index"`
		Logprobs *struct {
			Tokens        []string   `json:"tokens"`
			TokenLogprobs []*float64 `json:"token_logprobs"`
			TextOffset    []int      `json:"text_offset"`
		} `json:"logprobs"`
	} `json:"choices"`
	Usage *usage `json:"usage"`
}

// modelList is GET /v1/models: vLLM's entries carry max_model_len and
// owned_by "vllm", llama.cpp's owned_by "llamacpp" and meta, Ollama's
// owned_by "library".
type modelList struct {
	Data []struct {
		ID          string         `json:"id"`
		OwnedBy     string         `json:"owned_by"`
		MaxModelLen int64          `json:"max_model_len"`
		Meta        map[string]any `json:"meta"`
	} `json:"data"`
}

// llamaProps is llama.cpp's GET /props: the context of one slot.
type llamaProps struct {
	DefaultGenerationSettings struct {
		NCtx int64 `json:"n_ctx"`
	} `json:"default_generation_settings"`
}

// errorReply is the error envelope of all three servers, nested
// ({"error": {...}}) or vLLM's flat form before 0.10.1; only what
// classifies the error is read.
type errorReply struct {
	Error *struct {
		Type    string `json:"type"`
		NCtx    int64  `json:"n_ctx"`
		Message string `json:"message"`
	} `json:"error"`
	Message string `json:"message"`
	Type    string `json:"type"`
}
