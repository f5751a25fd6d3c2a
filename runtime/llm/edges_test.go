package llm_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/vllm-sr/systemone/runtime/llm"
	"github.com/vllm-sr/systemone/runtime/testkit"
)

const oneNoul = `{"state": "My card was charged twice.", "questions": {"q": {"type": "noul", "instructions": "Was the card charged twice?"}}}`

// TestBackendFaultsAnswerAsTheStandardSays: each way the backend fails
// answers with the standard's status, code and a fixed reason; the
// backend's own words never reach the client.
func TestBackendFaultsAnswerAsTheStandardSays(t *testing.T) {
	cases := []struct {
		flavor     testkit.LLMFlavor
		fault      testkit.LLMFault
		retryAfter string
		status     int
		code       string
		reason     string
		wantAfter  string
	}{
		{testkit.LLMVLLM, testkit.LLMOverloaded, "7", 529, "overloaded", "backend_overloaded", "7"},
		{testkit.LLMVLLM, testkit.LLMBusy, "", 529, "overloaded", "backend_overloaded", "1"},
		{testkit.LLMOllama, testkit.LLMBusy, "", 529, "overloaded", "backend_overloaded", "1"},
		{testkit.LLMLlamaCpp, testkit.LLMLoading, "", 503, "unavailable", "backend_unreachable", "1"},
		{testkit.LLMVLLM, testkit.LLMNoLogprobs, "", 500, "question_failed", "no_logprobs", ""},
		{testkit.LLMVLLM, testkit.LLMMalformed, "", 500, "question_failed", "backend_reply_invalid", ""},
		{testkit.LLMVLLM, testkit.LLMCut, "", 500, "question_failed", "backend_reply_invalid", ""},
		{testkit.LLMVLLM, testkit.LLMOversized, "", 500, "question_failed", "backend_reply_invalid", ""},
		{testkit.LLMVLLM, testkit.LLMServerError, "", 500, "question_failed", "backend_failed", ""},
	}
	for _, c := range cases {
		t.Run(string(c.flavor)+"/"+string(c.fault), func(t *testing.T) {
			s := serve(t, testkit.LLMBackendOptions{Flavor: c.flavor, RetryAfter: c.retryAfter})
			s.backend.SetFault(c.fault)
			r := s.post("/v1/systemone", oneNoul).want(t, c.status)
			if r.path("code") != c.code || r.path("reason") != c.reason {
				t.Errorf("code %v reason %v, want %s %s: %s", r.path("code"), r.path("reason"), c.code, c.reason, r.raw)
			}
			if got := r.header.Get("Retry-After"); got != c.wantAfter {
				t.Errorf("Retry-After %q, want %q", got, c.wantAfter)
			}
			if len(r.raw) > 2048 {
				t.Errorf("an error answer of %d bytes", len(r.raw))
			}
			for _, word := range []string{"Loading model", "server busy", "Traceback", "maximum pending", "padding"} {
				if strings.Contains(string(r.raw), word) {
					t.Errorf("the backend's words %q reached the client: %s", word, r.raw)
				}
			}
		})
	}
}

// TestBackendGoneIsUnavailable: a backend that stops answering after
// start-up answers 503 unavailable with Retry-After.
func TestBackendGoneIsUnavailable(t *testing.T) {
	s := serve(t, testkit.LLMBackendOptions{}, func(c *llm.Config) { c.CallTimeout = 300 * time.Millisecond })
	s.backend.SetFault(testkit.LLMHang)
	r := s.post("/v1/systemone", oneNoul).want(t, 503)
	if r.path("code") != "unavailable" || r.path("reason") != "backend_unreachable" || r.header.Get("Retry-After") == "" {
		t.Errorf("a hung backend: %s %v", r.raw, r.header)
	}
}

// TestContextTooLong: an input past the card's limit is refused before
// any call, naming the limit, which the backend's context set; the
// long-context header raises it to the backend's context.
func TestContextTooLong(t *testing.T) {
	s := serve(t, testkit.LLMBackendOptions{MaxModelLen: 4096}, func(c *llm.Config) { c.MaxInputTokens = 1000 })
	long := strings.Repeat("refund ", 2000)
	body := fmt.Sprintf(`{"state": %q, "questions": {"q": {"type": "noul", "instructions": "Refund?"}}}`, long)
	r := s.post("/v1/systemone", body).want(t, 400)
	if r.path("reason") != "input_too_long" || num(t, r.path("limit")) != 1000 {
		t.Errorf("past the validated length: %s", r.raw)
	}
	r = s.post("/v1/systemone", body, "TypeSafe-Danger-Zone-Long-Context", "true").want(t, 200)
	if r.path("answers", "q", "noul") == nil {
		t.Errorf("with the long-context header: %s", r.raw)
	}
	// Past the backend's context (4096 less the prompt's reserve) even
	// with the header.
	longer := fmt.Sprintf(`{"state": %q, "questions": {"q": {"type": "noul", "instructions": "Refund?"}}}`, strings.Repeat("refund ", 5000))
	r = s.post("/v1/systemone", longer, "TypeSafe-Danger-Zone-Long-Context", "true").want(t, 400)
	if r.path("reason") != "input_too_long" || num(t, r.path("limit")) != 4096-256 {
		t.Errorf("past the backend's context: %s", r.raw)
	}
}

// TestBackendContextRefusal: a prompt the backend itself refuses as too
// long (its tokenizer counts more) answers 400 max_length_exceeded with
// the backend's context as the limit.
func TestBackendContextRefusal(t *testing.T) {
	s := serve(t, testkit.LLMBackendOptions{MaxModelLen: 900}, func(c *llm.Config) { c.MaxInputTokens = 640 })
	state := strings.Repeat("12345 ", 200) // 200 tokens for the card's count, 1000 digit pieces for the backend's
	body := fmt.Sprintf(`{"state": %q, "questions": {"q": {"type": "noul", "instructions": "Refund?"}}}`, state)
	r := s.post("/v1/systemone", body).want(t, 400)
	if r.path("code") != "question_failed" || r.path("reason") != "backend_context_exceeded" || num(t, r.path("limit")) != 900 {
		t.Errorf("the backend's context refusal: %s", r.raw)
	}
}

// TestUnsupportedTypesAre422: span, box and track are not answered:
// 422 invalid_question naming the type's reason; on /v1/decisions the
// failure stands beside the answered question.
func TestUnsupportedTypesAre422(t *testing.T) {
	s := serve(t, testkit.LLMBackendOptions{})
	r := s.post("/v1/systemone", `{"state": "x", "questions": {"s": {"type": "span", "instructions": "Names?", "criteria": {"PERSON": null}}}}`).want(t, 422)
	if r.path("reason") != "question_type_not_answered" {
		t.Errorf("span: %s", r.raw)
	}
	r = s.post("/v1/decisions", `{"state": "My card was charged twice.", "questions": {"ok": {"type": "noul", "instructions": "Charged twice?"}, "b": {"type": "box", "instructions": "Where?"}}}`).want(t, 200)
	if r.path("answers", "ok", "noul") == nil || r.path("answers", "b", "error") != "invalid_question" {
		t.Errorf("decisions: %s", r.raw)
	}
}
