package testkit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"strconv"
	"strings"
)

// The request and reply pieces every flavor shares.

// llmCreated is the fixed "created" time of every reply, so the same
// request gives the same bytes.
const llmCreated = 1767225600

// llmChatBody is the union of the chat request fields the flavors read.
type llmChatBody struct {
	Model               *string                    `json:"model"`
	Messages            []llmWireMessage           `json:"messages"`
	Logprobs            *bool                      `json:"logprobs"`
	TopLogprobs         *int                       `json:"top_logprobs"`
	MaxTokens           *int                       `json:"max_tokens"`
	MaxCompletionTokens *int                       `json:"max_completion_tokens"`
	ChatTemplateKwargs  map[string]json.RawMessage `json:"chat_template_kwargs"`
	ReasoningEffort     *string                    `json:"reasoning_effort"`
	StructuredOutputs   *struct {
		Choice []string `json:"choice"`
	} `json:"structured_outputs"`
	GuidedChoice []string `json:"guided_choice"`
	Stream       bool     `json:"stream"`
}

type llmWireMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

// maxTokens is max_completion_tokens, else max_tokens, else nil.
func (c *llmChatBody) maxTokens() *int {
	if c.MaxCompletionTokens != nil {
		return c.MaxCompletionTokens
	}
	return c.MaxTokens
}

// messages turns the wire messages into text: a string content as is, a
// list of parts as its text parts joined by "\n".
func (c *llmChatBody) messages() ([]LLMMessage, error) {
	out := make([]LLMMessage, 0, len(c.Messages))
	for i, m := range c.Messages {
		var s string
		if len(m.Content) == 0 || string(m.Content) == "null" {
			out = append(out, LLMMessage{Role: m.Role})
			continue
		}
		if err := json.Unmarshal(m.Content, &s); err != nil {
			var parts []struct {
				Type string `json:"type"`
				Text string `json:"text"`
			}
			if err := json.Unmarshal(m.Content, &parts); err != nil {
				return nil, fmt.Errorf("messages[%d].content: not a string or a list of parts", i)
			}
			var texts []string
			for _, p := range parts {
				if p.Type == "text" {
					texts = append(texts, p.Text)
				}
			}
			s = strings.Join(texts, "\n")
		}
		out = append(out, LLMMessage{Role: m.Role, Content: s})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("messages: none given")
	}
	return out, nil
}

func (c *llmChatBody) choice() []string {
	if c.StructuredOutputs != nil && len(c.StructuredOutputs.Choice) > 0 {
		return c.StructuredOutputs.Choice
	}
	return c.GuidedChoice
}

// llmChat is a chat request run through the toy model.
type llmChat struct {
	prompt       string
	promptTokens int
	gen          llmGeneration
}

// runChat renders msgs, reads the answer distribution off them and
// generates greedily; thinkingOff turns a reasoning model's thinking off.
func (b *LLMBackend) runChat(msgs []LLMMessage, thinkingOff bool, maxTokens int, choice []string) llmChat {
	prompt := LLMRenderChat(msgs, b.o.Reasoning, thinkingOff)
	return llmChat{prompt: prompt, promptTokens: len(LLMTokenize(prompt)),
		gen: llmGenerate(llmAnswerDist(prompt, msgs), b.o.Reasoning && !thinkingOff, maxTokens, choice)}
}

func llmAnswerDist(prompt string, msgs []LLMMessage) []llmCand {
	last := ""
	all := make([]string, 0, len(msgs))
	for _, m := range msgs {
		all = append(all, m.Content)
		if m.Role == "user" {
			last = m.Content
		}
	}
	toks, logits := LLMAnswerLogits(prompt, last, strings.Join(all, "\n"))
	return llmDist(toks, logits)
}

// llmJSON is a JSON reply.
func llmJSON(status int, v any) llmReply {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(fmt.Sprintf("testkit: fake LLM reply does not encode: %v", err))
	}
	return llmReply{status: status, body: bytes.TrimRight(buf.Bytes(), "\n")}
}

func itoa(n int) string { return strconv.Itoa(n) }

// llmBytes is the UTF-8 bytes of a token as JSON numbers (never base64).
func llmBytes(tok string) []int {
	out := make([]int, len(tok))
	for i := 0; i < len(tok); i++ {
		out[i] = int(tok[i])
	}
	return out
}

// llmTokenID is the fake vocabulary id of a token: Qwen's ids for the
// special tokens, a hash for the rest.
func llmTokenID(tok string) int {
	switch tok {
	case "<|im_start|>":
		return 151644
	case "<|im_end|>":
		return 151645
	case "<think>":
		return 151667
	case "</think>":
		return 151668
	}
	h := fnv.New32a()
	h.Write([]byte(tok))
	return int(h.Sum32() % 151000)
}

// llmVocabSize is the fake's vocabulary size (what -1 logprobs means).
const llmVocabSize = 151936

// llmID is a reply id that follows from the request body.
func llmID(prefix string, body []byte) string {
	h := fnv.New64a()
	h.Write(body)
	return fmt.Sprintf("%s-%016x", prefix, h.Sum64())
}

// llmOrdered is a JSON object whose keys keep their order (vLLM's
// completions top_logprobs dicts, sampled token first).
type llmOrdered []llmCand

func (o llmOrdered) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, c := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(c.tok)
		b.Write(k)
		b.WriteByte(':')
		b.WriteString(strconv.FormatFloat(math.Max(c.lp, -9999.0), 'g', -1, 64))
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// errorReply is an error in the flavor's envelope, typed by status.
func (b *LLMBackend) errorReply(status int, msg, param string) llmReply {
	var p any
	if param != "" {
		p = param
	}
	switch b.o.Flavor {
	case LLMLlamaCpp:
		t := map[int]string{400: "invalid_request_error", 401: "authentication_error", 403: "permission_error",
			404: "not_found_error", 501: "not_supported_error", 503: "unavailable_error"}[status]
		if t == "" {
			t = "server_error"
		}
		return llmJSON(status, llamaError(status, msg, t))
	case LLMOllama:
		t := "api_error"
		switch status {
		case 400:
			t = "invalid_request_error"
		case 404:
			t = "not_found_error"
		}
		// openai.Error's field order.
		type ollamaError struct {
			Message string  `json:"message"`
			Type    string  `json:"type"`
			Param   any     `json:"param"`
			Code    *string `json:"code"`
		}
		return llmJSON(status, map[string]any{"error": ollamaError{Message: msg, Type: t}})
	case LLMOpenAI:
		t := map[int]string{400: "invalid_request_error", 404: "invalid_request_error", 429: "requests"}[status]
		if t == "" {
			t = "server_error"
		}
		return llmJSON(status, map[string]any{"error": map[string]any{"message": msg, "type": t, "param": p, "code": nil}})
	}
	t := map[int]string{400: "BadRequestError", 404: "NotFoundError", 422: "UnprocessableEntityError",
		429: "Too Many Requests", 501: "NotImplementedError", 503: "Service Unavailable"}[status]
	if t == "" {
		t = "InternalServerError"
	}
	return llmJSON(status, map[string]any{"error": map[string]any{"message": msg, "type": t, "param": p, "code": status}})
}

func llamaError(status int, msg, typ string) map[string]any {
	return map[string]any{"error": map[string]any{"code": status, "message": msg, "type": typ}}
}

// busyReply is the flavor's 503 for a full queue.
func (b *LLMBackend) busyReply() llmReply {
	switch b.o.Flavor {
	case LLMOllama:
		return b.errorReply(503, "server busy, please try again.  maximum pending requests exceeded", "")
	case LLMLlamaCpp:
		return b.errorReply(503, "no slot available", "")
	case LLMOpenAI:
		return b.errorReply(503, "The server is overloaded or not ready yet.", "")
	}
	return b.errorReply(503, "The request queue is full; try again later.", "")
}

// notFoundReply is the flavor's answer to an unknown route.
func (b *LLMBackend) notFoundReply() llmReply {
	switch b.o.Flavor {
	case LLMLlamaCpp:
		return llmJSON(404, llamaError(404, "File Not Found", "not_found_error"))
	case LLMOllama:
		return llmReply{status: 404, body: []byte("404 page not found"), ctype: "text/plain"}
	case LLMOpenAI:
		return b.errorReply(404, "Invalid URL", "")
	}
	return llmJSON(404, map[string]any{"detail": "Not Found"})
}
