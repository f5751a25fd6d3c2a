package testkit

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

func TestLLMVLLMModelsAndHealth(t *testing.T) {
	b := NewLLMBackend(t, LLMBackendOptions{MaxModelLen: 4096})
	if !strings.HasSuffix(b.URL(), "/v1") {
		t.Fatalf("URL %q does not end in /v1", b.URL())
	}
	st, _, raw := llmDo(t, "GET", b.URL()+"/models", nil)
	v := llmDecode(t, raw)
	if st != 200 || llmPath(t, v, "object") != "list" || llmPath(t, v, "data", 0, "id") != "qwen3-8b" ||
		llmPath(t, v, "data", 0, "owned_by") != "vllm" || llmPath(t, v, "data", 0, "max_model_len") != 4096.0 {
		t.Errorf("models: %d %s", st, raw)
	}
	st, _, raw = llmDo(t, "GET", strings.TrimSuffix(b.URL(), "/v1")+"/health", nil)
	if st != 200 || len(raw) != 0 {
		t.Errorf("health: %d %q, want 200 and an empty body", st, raw)
	}
	st, _, raw = llmDo(t, "GET", b.URL()+"/nowhere", nil)
	if st != 404 || string(raw) != `{"detail":"Not Found"}` {
		t.Errorf("unknown route: %d %s", st, raw)
	}
}

// TestLLMVLLMChatLogprobs asks as the engine will (thinking off, one
// token, top 20) and checks the answer, the shape and that every value is
// the log-softmax the rule gives.
func TestLLMVLLMChatLogprobs(t *testing.T) {
	b := NewLLMBackend(t, LLMBackendOptions{})
	req := map[string]any{"model": "qwen3-8b", "messages": llmTestMsgs, "max_tokens": 1, "temperature": 0,
		"logprobs": true, "top_logprobs": 5}
	st, _, raw := llmDo(t, "POST", b.URL()+"/chat/completions", req)
	if st != 200 {
		t.Fatalf("status %d: %s", st, raw)
	}
	v := llmDecode(t, raw)
	choice := llmPath(t, v, "choices", 0)
	if llmPath(t, choice, "message", "content") != "A" || llmPath(t, choice, "finish_reason") != "length" ||
		llmPath(t, choice, "message", "reasoning") != nil || llmPath(t, choice, "stop_reason") != nil {
		t.Errorf("choice: %v", choice)
	}
	content := llmPath(t, choice, "logprobs", "content").([]any)
	if len(content) != 1 {
		t.Fatalf("%d positions, want 1", len(content))
	}
	top := llmPath(t, content[0], "top_logprobs").([]any)
	if len(top) != 5 || llmPath(t, top[0], "token") != "A" || llmPath(t, content[0], "token") != "A" {
		t.Fatalf("top_logprobs: %v", top)
	}
	if got := llmPath(t, top[0], "bytes").([]any); len(got) != 1 || got[0] != 65.0 {
		t.Errorf("bytes of A: %v", got)
	}
	// Every value is logit - logsumexp over the candidates.
	msgs := []LLMMessage{{"system", "Answer with the letter of the best option."}, {"user", llmTestUser}}
	prompt := LLMRenderChat(msgs, false, false)
	toks, logits := LLMAnswerLogits(prompt, llmTestUser, msgs[0].Content+"\n"+llmTestUser)
	lse := 0.0
	for _, l := range logits {
		lse += math.Exp(l)
	}
	lse = math.Log(lse)
	want := map[string]float64{}
	for i, tok := range toks {
		want[tok] = logits[i] - lse
	}
	prev := 0.0
	for i, e := range top {
		tok, lp := llmPath(t, e, "token").(string), llmPath(t, e, "logprob").(float64)
		if math.Abs(lp-want[tok]) > 1e-9 {
			t.Errorf("logprob(%q) = %v, want %v", tok, lp, want[tok])
		}
		if i > 0 && lp > prev {
			t.Errorf("top_logprobs not in rank order at %d", i)
		}
		prev = lp
	}
	usage := llmPath(t, v, "usage").(map[string]any)
	if usage["prompt_tokens"] != float64(len(LLMTokenize(prompt))) || usage["completion_tokens"] != 1.0 {
		t.Errorf("usage %v, want prompt_tokens %d", usage, len(LLMTokenize(prompt)))
	}
	// Same request, same bytes.
	_, _, again := llmDo(t, "POST", b.URL()+"/chat/completions", req)
	if !bytes.Equal(raw, again) {
		t.Error("the same request gave different bytes")
	}
}

func TestLLMVLLMChatCapsAndErrors(t *testing.T) {
	b := NewLLMBackend(t, LLMBackendOptions{MaxModelLen: 200})
	chat := func(extra map[string]any) (int, map[string]any) {
		req := map[string]any{"messages": llmTestMsgs, "max_tokens": 1}
		for k, v := range extra {
			req[k] = v
		}
		st, _, raw := llmDo(t, "POST", b.URL()+"/chat/completions", req)
		return st, llmDecode(t, raw)
	}
	for _, c := range []struct {
		name   string
		extra  map[string]any
		status int
		msg    string
		param  any
	}{
		{"above max-logprobs", map[string]any{"logprobs": true, "top_logprobs": 21}, 400,
			"Requested sample logprobs of 21, which is greater than max allowed: 20 (parameter=logprobs, value=21)", "logprobs"},
		{"whole vocabulary", map[string]any{"logprobs": true, "top_logprobs": -1}, 400,
			"Requested sample logprobs of 151936, which is greater than max allowed: 20 (parameter=logprobs, value=151936)", "logprobs"},
		{"top without logprobs", map[string]any{"top_logprobs": 5}, 400,
			"when using `top_logprobs`, `logprobs` must be set to true.", "top_logprobs"},
		{"unknown model", map[string]any{"model": "llama"}, 404, "The model `llama` does not exist.", "model"},
		{"max_tokens over the context", map[string]any{"max_tokens": 150}, 400, "'max_tokens' or 'max_completion_tokens' is too large: 150.", "max_tokens"},
		{"prompt over the context", map[string]any{"messages": []map[string]any{{"role": "user", "content": strings.Repeat("word ", 200)}}}, 400,
			"This model's maximum context length is 200 tokens. However, your request has 209 input tokens.", "input_tokens"},
	} {
		st, v := chat(c.extra)
		if st != c.status || !strings.Contains(llmPath(t, v, "error", "message").(string), c.msg) ||
			llmPath(t, v, "error", "param") != c.param || llmPath(t, v, "error", "code") != float64(c.status) {
			t.Errorf("%s: %d %v", c.name, st, v)
		}
	}
	// Body validation and engine validation are typed differently.
	if _, v := chat(map[string]any{"top_logprobs": 5}); llmPath(t, v, "error", "type") != "Bad Request" {
		t.Errorf("top_logprobs without logprobs: type %v, want the status phrase", llmPath(t, v, "error", "type"))
	}
	if _, v := chat(map[string]any{"logprobs": true, "top_logprobs": 21}); llmPath(t, v, "error", "type") != "BadRequestError" {
		t.Errorf("above max-logprobs: type %v, want BadRequestError", llmPath(t, v, "error", "type"))
	}
	st, v := chat(map[string]any{"logprobs": true, "top_logprobs": 20})
	if st != 200 || len(llmPath(t, v, "choices", 0, "logprobs", "content", 0, "top_logprobs").([]any)) != 18 {
		t.Errorf("top 20 of 18 candidates: %d %v", st, v)
	}
	st, v = chat(map[string]any{"logprobs": true})
	if st != 200 || len(llmPath(t, v, "choices", 0, "logprobs", "content", 0, "top_logprobs").([]any)) != 0 {
		t.Errorf("logprobs without top_logprobs: %d %v", st, v)
	}
	st, v = chat(map[string]any{"max_tokens": 5})
	if st != 200 || llmPath(t, v, "choices", 0, "finish_reason") != "stop" || llmPath(t, v, "choices", 0, "logprobs") != nil {
		t.Errorf("room for more than the answer: %d %v", st, v)
	}
}

// TestLLMVLLMReasoning: a reasoning model thinks unless enable_thinking is
// the JSON boolean false or reasoning_effort is "none"; the logprobs
// cover the thinking.
func TestLLMVLLMReasoning(t *testing.T) {
	b := NewLLMBackend(t, LLMBackendOptions{Reasoning: true})
	chat := func(extra map[string]any) map[string]any {
		req := map[string]any{"messages": llmTestMsgs, "logprobs": true, "top_logprobs": 3}
		for k, v := range extra {
			req[k] = v
		}
		st, _, raw := llmDo(t, "POST", b.URL()+"/chat/completions", req)
		if st != 200 {
			t.Fatalf("%v: %d %s", extra, st, raw)
		}
		return llmDecode(t, raw)
	}
	on := chat(nil)
	content := llmPath(t, on, "choices", 0, "logprobs", "content").([]any)
	if llmPath(t, content[0], "token") != "<think>" || llmPath(t, content[len(content)-1], "token") != "A" ||
		llmPath(t, on, "choices", 0, "message", "content") != "A" ||
		llmPath(t, on, "choices", 0, "message", "reasoning") != "Okay, the answer is clear." {
		t.Errorf("thinking on: %v", llmPath(t, on, "choices", 0))
	}
	if llmPath(t, on, "usage", "completion_tokens") != float64(len(content)) {
		t.Errorf("completion_tokens %v for %d positions", llmPath(t, on, "usage", "completion_tokens"), len(content))
	}
	cut := chat(map[string]any{"max_tokens": 1})
	if llmPath(t, cut, "choices", 0, "finish_reason") != "length" || llmPath(t, cut, "choices", 0, "message", "content") != nil {
		t.Errorf("cut in the thinking: %v", llmPath(t, cut, "choices", 0))
	}
	for _, off := range []map[string]any{
		{"chat_template_kwargs": map[string]any{"enable_thinking": false}},
		{"reasoning_effort": "none"},
	} {
		v := chat(off)
		c := llmPath(t, v, "choices", 0, "logprobs", "content").([]any)
		if len(c) != 1 || llmPath(t, c[0], "token") != "A" || llmPath(t, v, "choices", 0, "message", "reasoning") != nil {
			t.Errorf("%v: %v", off, llmPath(t, v, "choices", 0))
		}
		// The template's empty think block counts in the prompt.
		if llmPath(t, v, "usage", "prompt_tokens").(float64) != llmPath(t, on, "usage", "prompt_tokens").(float64)+4 {
			t.Errorf("%v: prompt_tokens %v vs %v with thinking", off, llmPath(t, v, "usage", "prompt_tokens"), llmPath(t, on, "usage", "prompt_tokens"))
		}
	}
	str := chat(map[string]any{"chat_template_kwargs": map[string]any{"enable_thinking": "false"}})
	if llmPath(t, str, "choices", 0, "logprobs", "content", 0, "token") != "<think>" {
		t.Error(`enable_thinking "false" (a string) must leave thinking on in vLLM`)
	}
}

// TestLLMVLLMGuidedChoice: structured_outputs.choice renormalises the
// answer position over the choices' first tokens; the rest are -9999.
func TestLLMVLLMGuidedChoice(t *testing.T) {
	b := NewLLMBackend(t, LLMBackendOptions{})
	req := map[string]any{"messages": llmTestMsgs, "logprobs": true, "top_logprobs": 5, "max_tokens": 3,
		"structured_outputs": map[string]any{"choice": []string{"B", "C"}}}
	st, _, raw := llmDo(t, "POST", b.URL()+"/chat/completions", req)
	if st != 200 {
		t.Fatalf("%d %s", st, raw)
	}
	v := llmDecode(t, raw)
	top := llmPath(t, v, "choices", 0, "logprobs", "content", 0, "top_logprobs").([]any)
	pB := math.Exp(llmPath(t, top[0], "logprob").(float64))
	pC := math.Exp(llmPath(t, top[1], "logprob").(float64))
	if math.Abs(pB+pC-1) > 1e-9 || llmPath(t, top[2], "logprob") != -9999.0 {
		t.Errorf("renormalised over B, C: %v", top)
	}
	if c := llmPath(t, v, "choices", 0, "message", "content"); c != "B" && c != "C" {
		t.Errorf("content %v is not a choice", c)
	}
}

// TestLLMVLLMCompletionsEcho scores continuations the way the engine's
// many-option path does: a list of prompts, echo, max_tokens 0, logprobs 0.
func TestLLMVLLMCompletionsEcho(t *testing.T) {
	b := NewLLMBackend(t, LLMBackendOptions{})
	prompts := []string{"The refund was charged. Answer: refund", "The refund was charged. Answer: shipping"}
	st, _, raw := llmDo(t, "POST", b.URL()+"/completions", map[string]any{"model": "qwen3-8b", "prompt": prompts,
		"echo": true, "max_tokens": 0, "logprobs": 1})
	if st != 200 {
		t.Fatalf("%d %s", st, raw)
	}
	v := llmDecode(t, raw)
	sums := make([]float64, 2)
	total := 0
	for i, p := range prompts {
		c := llmPath(t, v, "choices", i)
		if llmPath(t, c, "index") != float64(i) || llmPath(t, c, "text") != p || llmPath(t, c, "finish_reason") != "length" {
			t.Errorf("choice %d: %v", i, c)
		}
		toks := llmPath(t, c, "logprobs", "tokens").([]any)
		lps := llmPath(t, c, "logprobs", "token_logprobs").([]any)
		tops := llmPath(t, c, "logprobs", "top_logprobs").([]any)
		offs := llmPath(t, c, "logprobs", "text_offset").([]any)
		want := LLMTokenize(p)
		total += len(want)
		if len(toks) != len(want) || lps[0] != nil || tops[0] != nil || offs[0] != 0.0 {
			t.Fatalf("choice %d: tokens %v, first logprob %v, first top %v", i, toks, lps[0], tops[0])
		}
		if pl := llmPath(t, c, "prompt_logprobs").([]any); len(pl) != len(want) || pl[0] != nil {
			t.Errorf("choice %d: prompt_logprobs %v", i, pl)
		}
		last := toks[len(toks)-1].(string)
		lp := lps[len(lps)-1].(float64)
		top := tops[len(tops)-1].(map[string]any)
		if len(top) != 2 || top[last] != lp {
			t.Errorf("choice %d: top_logprobs of the last token %v (want 2 entries, the token first)", i, top)
		}
		if int(offs[len(offs)-1].(float64)) != len([]rune(p))-len([]rune(last)) {
			t.Errorf("choice %d: text_offset %v", i, offs)
		}
		sums[i] = lp
	}
	// " refund" occurs earlier in its prompt, " shipping" does not.
	if !(sums[0] > -0.56 && sums[0] < -0.44 && sums[1] < -1.94 && sums[1] > -2.06) {
		t.Errorf("continuation logprobs %v, want about -0.5 and -2", sums)
	}
	if llmPath(t, v, "usage", "prompt_tokens") != float64(total) || llmPath(t, v, "usage", "completion_tokens") != 0.0 {
		t.Errorf("usage %v, want prompt_tokens %d summed", llmPath(t, v, "usage"), total)
	}
	st, _, raw = llmDo(t, "POST", b.URL()+"/completions", map[string]any{"prompt": "x", "logprobs": 21})
	if st != 400 || !strings.Contains(string(raw), "Requested sample logprobs of 21, which is greater than max allowed: 20") {
		t.Errorf("logprobs 21: %d %s", st, raw)
	}
	st, _, raw = llmDo(t, "POST", b.URL()+"/completions", map[string]any{"prompt": "Pick one.\nA) left\nB) right\nAnswer:", "max_tokens": 1, "logprobs": 2})
	v = llmDecode(t, raw)
	if st != 200 || llmPath(t, v, "choices", 0, "text") != "A" || len(llmPath(t, v, "choices", 0, "logprobs", "tokens").([]any)) != 1 {
		t.Errorf("generated completion: %d %s", st, raw)
	}
}

// TestLLMVLLMMaxLogprobsOption: --max-logprobs is the option's; -1 lifts
// the cap, and top_logprobs -1 then returns every candidate.
func TestLLMVLLMMaxLogprobsOption(t *testing.T) {
	for _, c := range []struct {
		max, top, status, n int
	}{{5, 5, 200, 5}, {5, 6, 400, 0}, {-1, -1, 200, 18}, {-1, 100, 200, 18}} {
		b := NewLLMBackend(t, LLMBackendOptions{MaxLogprobs: c.max})
		st, _, raw := llmDo(t, "POST", b.URL()+"/chat/completions", map[string]any{"messages": llmTestMsgs, "max_tokens": 1,
			"logprobs": true, "top_logprobs": c.top})
		if st != c.status {
			t.Errorf("max %d top %d: %d %s", c.max, c.top, st, raw)
			continue
		}
		if st == 200 {
			if n := len(llmPath(t, llmDecode(t, raw), "choices", 0, "logprobs", "content", 0, "top_logprobs").([]any)); n != c.n {
				t.Errorf("max %d top %d: %d alternatives, want %d", c.max, c.top, n, c.n)
			}
		}
	}
}
