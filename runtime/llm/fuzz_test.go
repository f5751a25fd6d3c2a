package llm

import (
	"encoding/json"
	"math"
	"net/http"
	"strings"
	"testing"
)

// FuzzChatReply: whatever a backend answers a chat call with, reading the
// answer position and the labels' log-probabilities never panics, and a
// label distribution it gives is a distribution.
func FuzzChatReply(f *testing.F) {
	f.Add([]byte(`{"choices":[{"logprobs":{"content":[{"token":"A","logprob":-0.1,"top_logprobs":[{"token":"A","logprob":-0.1},{"token":" b","logprob":-2.3},{"token":"B","logprob":-9999}]}]}}]}`))
	f.Add([]byte(`{"choices":[{"logprobs":{"content":[{"token":"<think>","logprob":0},{"token":"x","logprob":-1},{"token":"</think>","logprob":0},{"token":"\n","logprob":0},{"token":"Yes","logprob":-0.2,"top_logprobs":[{"token":"Yes","logprob":-0.2},{"token":"No","logprob":-1.7}]}]}}]}`))
	f.Add([]byte(`{"choices":[{"logprobs":null}]}`))
	f.Add([]byte(`{"choices":[{"logprobs":{"content":[{"token":"A","logprob":-3.4e38,"top_logprobs":[{"token":"a","logprob":-3.4e38},{"token":"B","logprob":-3.4e38}]}]}}]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		var reply chatReply
		if json.Unmarshal(body, &reply) != nil || len(reply.Choices) == 0 || reply.Choices[0].Logprobs == nil {
			return
		}
		pos, reason := answerPosition(reply.Choices[0].Logprobs.Content)
		if pos == nil {
			if reason == "" {
				t.Fatal("no position and no reason")
			}
			return
		}
		lp, ok := labelLogprobs(pos, []string{"A", "B", "Yes"})
		if !ok {
			return
		}
		sum := 0.0
		for _, p := range tempered(lp, 1.3) {
			if p < 0 || p > 1 {
				t.Fatalf("probability %v", p)
			}
			sum += p
		}
		if !math.IsNaN(sum) && math.Abs(sum-1) > 1e-9 {
			t.Fatalf("sum %v", sum)
		}
	})
}

// FuzzErrorReply: any error body and status classifies into one of the
// backend reasons, never panicking.
func FuzzErrorReply(f *testing.F) {
	f.Add(400, []byte(`{"error":{"message":"This model's maximum context length is 4096 tokens. However, your request has 5000 input tokens.","type":"BadRequestError"}}`))
	f.Add(400, []byte(`{"error":{"code":400,"message":"request exceeds","type":"exceed_context_size_error","n_prompt_tokens":9,"n_ctx":8}}`))
	f.Add(503, []byte(`{"error":{"message":"Loading model","type":"unavailable_error","code":503}}`))
	f.Add(429, []byte(`{"error":"x"}`))
	f.Fuzz(func(t *testing.T, status int, body []byte) {
		if status < 100 || status > 999 || status == http.StatusOK {
			return
		}
		e := classify(&http.Response{StatusCode: status, Header: http.Header{"Retry-After": {string(body[:min(len(body), 4)])}}}, body)
		if !strings.HasPrefix(e.reason, "backend_") {
			t.Fatalf("reason %q", e.reason)
		}
		if e.limit < 0 || e.retryAfter < 0 || len(e.detail) > maxDetail+len("…") {
			t.Fatalf("%+v", e)
		}
	})
}

// FuzzCompletionReply: any completions reply's prompt log-probabilities
// sum without panicking.
func FuzzCompletionReply(f *testing.F) {
	f.Add([]byte(`{"choices":[{"index":0,"logprobs":{"tokens":["a"," b"],"token_logprobs":[null,-0.5],"text_offset":[0,1]}}]}`), 1)
	f.Fuzz(func(t *testing.T, body []byte, boundary int) {
		var reply completionReply
		if json.Unmarshal(body, &reply) != nil {
			return
		}
		for _, c := range reply.Choices {
			if c.Logprobs != nil {
				continuationLogprob(c.Logprobs.TokenLogprobs, c.Logprobs.TextOffset, boundary)
			}
		}
	})
}
