package llm_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/vllm-sr/systemone/runtime/llm"
	"github.com/vllm-sr/systemone/runtime/testkit"
)

// manyOptions is a choice of n options, the favoured one (whose words the
// state repeats) at index fav.
func manyOptions(n, fav int) string {
	var opts []string
	for i := range n {
		desc := "Some other topic of the catalogue"
		if i == fav {
			desc = "My card was charged twice, refund the charge"
		}
		opts = append(opts, fmt.Sprintf("%q: %q", optKey(i), desc))
	}
	return fmt.Sprintf(`{"state": "My card was charged twice, refund the charge.", "questions": {"c": {"type": "choice", "instructions": "Which topic?", "criteria": {%s}}}}`, strings.Join(opts, ", "))
}

// optKey is the i-th option's key: letters only, one token each.
func optKey(i int) string { return fmt.Sprintf("opt%c%c", 'a'+i/26, 'a'+i%26) }

// TestManyOptions: a choice its labels cannot carry (more than the
// backend returns alternatives for) is answered on vLLM by scoring each
// option's continuation in one completions call; on llama.cpp, Ollama and
// OpenAI, which return no prompt log-probabilities, it fails
// label_not_scored: no probability is guessed.
func TestManyOptions(t *testing.T) {
	s := serve(t, testkit.LLMBackendOptions{})
	calls := len(s.backend.Calls())
	r := s.post("/v1/systemone", manyOptions(30, 17)).want(t, 200)
	if got := r.path("answers", "c", "choice"); got != optKey(17) {
		t.Errorf("choice %v, want %s: %s", got, optKey(17), r.raw)
	}
	probs, _ := r.path("answers", "c", "probabilities").(map[string]any)
	sum := 0.0
	for _, p := range probs {
		sum += p.(float64)
	}
	if len(probs) != 30 || sum < 0.99995 || sum > 1.00005 {
		t.Errorf("%d probabilities summing to %v", len(probs), sum)
	}
	var completions int
	for _, c := range s.backend.Calls()[calls:] {
		if c.Path == "/v1/completions" {
			completions++
			if !strings.Contains(string(c.Body), `"echo":true`) || !strings.Contains(string(c.Body), `"max_tokens":0`) {
				t.Errorf("a continuation call without echo and max_tokens 0: %s", c.Body[:min(200, len(c.Body))])
			}
		}
	}
	if completions != 1 {
		t.Errorf("%d completions calls, want one for all options", completions)
	}
	for _, f := range []testkit.LLMFlavor{testkit.LLMLlamaCpp, testkit.LLMOllama, testkit.LLMOpenAI} {
		s := serve(t, testkit.LLMBackendOptions{Flavor: f})
		r := s.post("/v1/systemone", manyOptions(30, 3)).want(t, 500)
		if r.path("code") != "question_failed" || r.path("reason") != "label_not_scored" {
			t.Errorf("%s: %s", f, r.raw)
		}
	}
	// A choice of 20 options fits llama.cpp's 50 alternatives.
	s = serve(t, testkit.LLMBackendOptions{Flavor: testkit.LLMLlamaCpp})
	r = s.post("/v1/systemone", manyOptions(20, 5)).want(t, 200)
	if got := r.path("answers", "c", "choice"); got != optKey(5) {
		t.Errorf("llama.cpp 20 options: %v", got)
	}
}

// TestReasoningModel: a reasoning model's thinking is turned off per
// request on each backend; with a reasoning budget instead, the answer
// position is read after the closed think block, and a budget too small
// to reach it fails answer_not_reached.
func TestReasoningModel(t *testing.T) {
	for _, f := range []testkit.LLMFlavor{testkit.LLMVLLM, testkit.LLMLlamaCpp, testkit.LLMOllama} {
		s := serve(t, testkit.LLMBackendOptions{Flavor: f, Reasoning: true})
		r := s.post("/v1/systemone", oneNoul).want(t, 200)
		if p := num(t, r.path("answers", "q", "noul")); p <= 0.5 {
			t.Errorf("%s: noul %v with thinking off", f, p)
		}
		last := chatBodies(t, s.backend)
		b := last[len(last)-1]
		if f == testkit.LLMOllama && b["reasoning_effort"] != "none" {
			t.Errorf("ollama: thinking not turned off: %v", b)
		}
	}
	s := serve(t, testkit.LLMBackendOptions{Reasoning: true}, func(c *llm.Config) { c.ReasoningTokens = 40 })
	r := s.post("/v1/systemone", oneNoul).want(t, 200)
	if p := num(t, r.path("answers", "q", "noul")); p <= 0.5 {
		t.Errorf("read after thinking: noul %v", p)
	}
	// The self-test cannot pass with a budget too small: checked on a
	// decisions request through a server whose budget is enough, then a
	// direct engine call would need a model; the short budget is covered
	// by the engine's answer position (labels_test.go).
}

// TestConcurrencyAndDeadline: backend calls in flight never pass
// MaxConcurrency, across questions; a question whose call could not
// start by options.deadline_ms is not run and answers deadline_exceeded.
func TestConcurrencyAndDeadline(t *testing.T) {
	s := serve(t, testkit.LLMBackendOptions{Latency: 60 * time.Millisecond}, func(c *llm.Config) { c.MaxConcurrency = 2 })
	var qs []string
	for i := range 6 {
		qs = append(qs, fmt.Sprintf(`"q%d": {"type": "noul", "instructions": "Was the card charged twice? (%d)"}`, i, i))
	}
	body := `{"state": "My card was charged twice.", "questions": {` + strings.Join(qs, ", ") + `}}`
	start := time.Now()
	s.post("/v1/systemone", body).want(t, 200)
	if took := time.Since(start); took < 150*time.Millisecond {
		t.Errorf("6 calls of 60 ms, 2 at a time, took %v", took)
	}
	if got := s.backend.MaxInFlight(); got != 2 {
		t.Errorf("max in flight at the backend %d, want 2", got)
	}
	calls := len(chatBodies(t, s.backend))
	r := s.post("/v1/decisions", strings.Replace(body, `{"state"`, `{"options": {"deadline_ms": 100}, "state"`, 1)).want(t, 200)
	late := 0
	for i := range 6 {
		if r.path("answers", fmt.Sprintf("q%d", i), "error") == "deadline_exceeded" {
			late++
		}
	}
	made := len(chatBodies(t, s.backend)) - calls
	if late == 0 || made+late < 6 || made >= 6 {
		t.Errorf("deadline 100 ms: %d late, %d calls made: %s", late, made, r.raw)
	}
}

// TestBatch: a batch's items are answered as each alone, its usage the
// sum, the backend's prompt tokens counted.
func TestBatch(t *testing.T) {
	s := serve(t, testkit.LLMBackendOptions{})
	r := s.post("/v1/systemone/batch", `{"requests": {"a": {"state": "My card was charged twice.", "questions": {"q": {"type": "noul", "instructions": "Charged twice?"}}},
	 "b": {"state": "The export button fails.", "questions": {"q": {"type": "noul", "instructions": "Charged twice?"}}}}}`).want(t, 200)
	in := num(t, r.path("usage", "input_tokens"))
	a := num(t, r.path("responses", "a", "usage", "input_tokens"))
	b := num(t, r.path("responses", "b", "usage", "input_tokens"))
	if a == 0 || b == 0 || in != a+b {
		t.Errorf("usage %v, items %v + %v", in, a, b)
	}
}
