package testkit

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

func TestLLMLlamaCppShapes(t *testing.T) {
	b := NewLLMBackend(t, LLMBackendOptions{Flavor: LLMLlamaCpp, MaxModelLen: 300, Model: "qwen3-8b-q4"})
	root := strings.TrimSuffix(b.URL(), "/v1")
	st, _, raw := llmDo(t, "GET", b.URL()+"/models", nil)
	v := llmDecode(t, raw)
	if st != 200 || llmPath(t, v, "data", 0, "owned_by") != "llamacpp" || llmPath(t, v, "data", 0, "meta", "n_ctx_train") != 300.0 ||
		llmPath(t, v, "data", 0, "id") != "qwen3-8b-q4" || llmPath(t, v, "models", 0, "name") != "qwen3-8b-q4" {
		t.Errorf("models: %d %s", st, raw)
	}
	st, _, raw = llmDo(t, "GET", root+"/props", nil)
	if st != 200 || llmPath(t, llmDecode(t, raw), "default_generation_settings", "n_ctx") != 300.0 {
		t.Errorf("props: %d %s", st, raw)
	}
	st, _, raw = llmDo(t, "GET", root+"/health", nil)
	if st != 200 || string(raw) != `{"status":"ok"}` {
		t.Errorf("health: %d %s", st, raw)
	}
	chat := func(extra map[string]any) (int, map[string]any) {
		req := map[string]any{"model": "anything", "messages": llmTestMsgs, "max_tokens": 1}
		for k, v := range extra {
			req[k] = v
		}
		st, _, raw := llmDo(t, "POST", b.URL()+"/chat/completions", req)
		return st, llmDecode(t, raw)
	}
	// logprobs true without top_logprobs: 20 alternatives (here all 18).
	st, v = chat(map[string]any{"logprobs": true})
	e := llmPath(t, v, "choices", 0, "logprobs", "content", 0).(map[string]any)
	top := e["top_logprobs"].([]any)
	if st != 200 || len(top) != 18 || e["token"] != "A" || e["id"] != float64(llmTokenID("A")) {
		t.Fatalf("default top_logprobs: %d %v", st, e)
	}
	sum := 0.0
	for i, x := range top {
		lp := x.(map[string]any)["logprob"].(float64)
		sum += math.Exp(lp)
		if i > 0 && lp > top[i-1].(map[string]any)["logprob"].(float64) {
			t.Errorf("alternatives not sorted at %d", i)
		}
	}
	if math.Abs(sum-1) > 1e-9 {
		t.Errorf("all candidates sum to %v, want 1", sum)
	}
	st, v = chat(map[string]any{"logprobs": true, "top_logprobs": 50})
	if st != 200 || len(llmPath(t, v, "choices", 0, "logprobs", "content", 0, "top_logprobs").([]any)) != 18 {
		t.Errorf("top_logprobs 50 (no cap): %d %v", st, v)
	}
	st, v = chat(nil)
	if _, ok := llmPath(t, v, "choices", 0).(map[string]any)["logprobs"]; st != 200 || ok {
		t.Errorf("without logprobs the key is left out: %d %v", st, v)
	}
	for _, c := range []struct {
		extra  map[string]any
		status int
		typ    string
		msg    string
	}{
		{map[string]any{"top_logprobs": 5}, 400, "invalid_request_error", "top_logprobs requires logprobs to be set to true"},
		{map[string]any{"chat_template_kwargs": map[string]any{"enable_thinking": "false"}}, 400, "invalid_request_error",
			`invalid type for "enable_thinking" (expected boolean, got string)`},
		{map[string]any{"messages": []map[string]any{{"role": "user", "content": strings.Repeat("word ", 300)}}}, 400,
			"exceed_context_size_error", "request (309 tokens) exceeds the available context size (300 tokens), try increasing it"},
	} {
		st, v := chat(c.extra)
		if st != c.status || llmPath(t, v, "error", "type") != c.typ || llmPath(t, v, "error", "message") != c.msg ||
			llmPath(t, v, "error", "code") != float64(c.status) {
			t.Errorf("%v: %d %v", c.extra, st, v)
		}
		if c.typ == "exceed_context_size_error" && (llmPath(t, v, "error", "n_prompt_tokens") != 309.0 || llmPath(t, v, "error", "n_ctx") != 300.0) {
			t.Errorf("context error fields: %v", v)
		}
	}
	st, _, raw = llmDo(t, "POST", b.URL()+"/completions", map[string]any{"prompt": "x", "echo": true, "max_tokens": 0, "logprobs": 0})
	v = llmDecode(t, raw)
	if st != 500 || llmPath(t, v, "error", "type") != "server_error" || llmPath(t, v, "error", "message") != "Only no echo is supported" {
		t.Errorf("echo: %d %s", st, raw)
	}
	st, _, raw = llmDo(t, "POST", b.URL()+"/completions", map[string]any{"prompt": []string{"A) x\nB) y\n", "A) p\nB) q\n"}, "max_tokens": 1, "logprobs": 3})
	var list []map[string]any
	if err := json.Unmarshal(raw, &list); st != 200 || err != nil || len(list) != 2 ||
		len(llmPath(t, list[1], "choices", 0, "logprobs", "content", 0, "top_logprobs").([]any)) != 3 {
		t.Errorf("two prompts give an array of two completions: %d %s", st, raw)
	}
}

func TestLLMLlamaCppReasoning(t *testing.T) {
	b := NewLLMBackend(t, LLMBackendOptions{Flavor: LLMLlamaCpp, Reasoning: true})
	for _, c := range []struct {
		extra    map[string]any
		thinking bool
	}{
		{nil, true},
		{map[string]any{"chat_template_kwargs": map[string]any{"enable_thinking": false}}, false},
		{map[string]any{"reasoning_effort": "none"}, false},
	} {
		req := map[string]any{"messages": llmTestMsgs, "logprobs": true, "top_logprobs": 2}
		for k, v := range c.extra {
			req[k] = v
		}
		st, _, raw := llmDo(t, "POST", b.URL()+"/chat/completions", req)
		v := llmDecode(t, raw)
		msg := llmPath(t, v, "choices", 0, "message").(map[string]any)
		first := llmPath(t, v, "choices", 0, "logprobs", "content", 0, "token")
		_, hasReasoning := msg["reasoning_content"]
		if st != 200 || msg["content"] != "A" || hasReasoning != c.thinking || (first == "<think>") != c.thinking {
			t.Errorf("%v: %d %s", c.extra, st, raw)
		}
	}
}

func TestLLMOllamaShapes(t *testing.T) {
	b := NewLLMBackend(t, LLMBackendOptions{Flavor: LLMOllama, Model: "qwen3:8b", Reasoning: true, MaxModelLen: 100})
	st, _, raw := llmDo(t, "GET", strings.TrimSuffix(b.URL(), "/v1")+"/", nil)
	if st != 200 || string(raw) != "Ollama is running" {
		t.Errorf("GET /: %d %s", st, raw)
	}
	st, _, raw = llmDo(t, "GET", b.URL()+"/models", nil)
	if st != 200 || string(raw) != `{"object":"list","data":[{"id":"qwen3:8b","object":"model","created":1767225600,"owned_by":"library"}]}` {
		t.Errorf("models: %d %s", st, raw)
	}
	chat := func(extra map[string]any) (int, map[string]any) {
		req := map[string]any{"model": "qwen3:8b", "messages": llmTestMsgs, "max_tokens": 1, "reasoning_effort": "none"}
		for k, v := range extra {
			req[k] = v
		}
		st, _, raw := llmDo(t, "POST", b.URL()+"/chat/completions", req)
		return st, llmDecode(t, raw)
	}
	st, v := chat(map[string]any{"logprobs": true})
	e := llmPath(t, v, "choices", 0, "logprobs", "content", 0).(map[string]any)
	if _, ok := e["top_logprobs"]; st != 200 || ok || e["token"] != "A" {
		t.Errorf("top_logprobs 0 leaves the key out: %d %v", st, e)
	}
	st, v = chat(map[string]any{"logprobs": true, "top_logprobs": 20})
	if st != 200 || len(llmPath(t, v, "choices", 0, "logprobs", "content", 0, "top_logprobs").([]any)) != 18 {
		t.Errorf("top 20: %d %v", st, v)
	}
	st, v = chat(map[string]any{"top_logprobs": 5})
	if _, ok := llmPath(t, v, "choices", 0).(map[string]any)["logprobs"]; st != 200 || ok {
		t.Errorf("top_logprobs without logprobs is ignored: %d %v", st, v)
	}
	for _, c := range []struct {
		extra  map[string]any
		status int
		body   string
	}{
		{map[string]any{"logprobs": true, "top_logprobs": 21}, 400, `{"error":{"message":"top_logprobs must be between 0 and 20","type":"invalid_request_error","param":null,"code":null}}`},
		{map[string]any{"model": "llama3"}, 404, `{"error":{"message":"model 'llama3' not found","type":"not_found_error","param":null,"code":null}}`},
	} {
		req := map[string]any{"model": "qwen3:8b", "messages": llmTestMsgs}
		for k, v := range c.extra {
			req[k] = v
		}
		st, _, raw := llmDo(t, "POST", b.URL()+"/chat/completions", req)
		if st != c.status || string(raw) != c.body {
			t.Errorf("%v: %d %s", c.extra, st, raw)
		}
	}
	// Thinking is on unless reasoning_effort is "none".
	st, v = chat(map[string]any{"reasoning_effort": "high", "max_tokens": 50, "logprobs": true})
	if st != 200 || llmPath(t, v, "choices", 0, "message", "reasoning") != "Okay, the answer is clear." ||
		llmPath(t, v, "choices", 0, "logprobs", "content", 0, "token") != "<think>" {
		t.Errorf("thinking: %d %v", st, v)
	}
	// Too long for the context: old turns and the head are dropped, no error.
	long := []map[string]any{{"role": "user", "content": strings.Repeat("old ", 80)}, {"role": "assistant", "content": "ok"},
		{"role": "user", "content": strings.Repeat("filler ", 120) + "\nA) left\nB) right"}}
	st, v = chat(map[string]any{"messages": long})
	if pt := llmPath(t, v, "usage", "prompt_tokens").(float64); st != 200 || pt >= 100 || llmPath(t, v, "choices", 0, "message", "content") != "A" {
		t.Errorf("silent truncation: %d %v", st, v)
	}
	st, _, raw = llmDo(t, "POST", b.URL()+"/completions", map[string]any{"model": "qwen3:8b", "prompt": "A) x\nB) y", "logprobs": 5, "max_tokens": 1})
	if st != 200 || strings.Contains(string(raw), "logprobs") {
		t.Errorf("completions return no logprobs: %d %s", st, raw)
	}
}

func TestLLMOpenAIShapes(t *testing.T) {
	b := NewLLMBackend(t, LLMBackendOptions{Flavor: LLMOpenAI, Model: "gpt-4.1-mini"})
	st, _, raw := llmDo(t, "GET", b.URL()+"/models", nil)
	if st != 200 || llmPath(t, llmDecode(t, raw), "data", 0, "owned_by") != "system" {
		t.Errorf("models: %d %s", st, raw)
	}
	req := map[string]any{"model": "gpt-4.1-mini", "messages": llmTestMsgs, "max_tokens": 1, "logprobs": true, "top_logprobs": 20}
	st, _, raw = llmDo(t, "POST", b.URL()+"/chat/completions", req)
	if v := llmDecode(t, raw); st != 200 || llmPath(t, v, "choices", 0, "message", "content") != "A" ||
		len(llmPath(t, v, "choices", 0, "logprobs", "content", 0, "top_logprobs").([]any)) != 18 {
		t.Errorf("chat: %d %s", st, raw)
	}
	req["top_logprobs"] = 21
	st, _, raw = llmDo(t, "POST", b.URL()+"/chat/completions", req)
	if v := llmDecode(t, raw); st != 400 || llmPath(t, v, "error", "code") != "integer_above_max_value" {
		t.Errorf("top_logprobs 21: %d %s", st, raw)
	}
}
