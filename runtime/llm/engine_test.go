package llm_test

import (
	"bytes"
	"encoding/json"
	"math"
	"net/http"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/runtime/testkit"
)

const tryIt = `{"state": {"request": "My card was charged twice for the same order, please refund the second charge."},
"roles": {"request": "user"},
"questions": {
 "team": {"type": "choice", "instructions": "Which team should handle this request?",
  "criteria": {"billing": "A charge, refund or invoice for the card", "engineering": "Outages, errors and bugs", "other": "Anything else"}},
 "urgent": {"type": "noul", "instructions": "Does the user report a problem with a charge?",
  "criteria": {"true": "The card was charged twice", "false": "Nothing went wrong"}},
 "urgency": {"type": "score", "instructions": "How urgent is it?", "criteria": ["It can wait", "It should be handled today", "The second charge must be refunded now"]},
 "intents": {"type": "set", "instructions": "What does the user want done?", "criteria": {"refund": "Refund the second charge", "cancel": "End a subscription or plan"}}
},
"options": {"return_meta": true}}`

// TestEveryTypeOverHTTP: each question type's answer is the softmax of
// the label log-probabilities the backend returned (replayed to the fake
// and recomputed here, each label's spellings summed), rounded as the
// standard's sums need; the option the state's words favour wins.
func TestEveryTypeOverHTTP(t *testing.T) {
	s := serve(t, testkit.LLMBackendOptions{})
	before := len(chatBodies(t, s.backend)) // the start-up self-test's
	r := s.post("/v1/systemone", tryIt).want(t, 200)
	if got := r.path("answers", "team", "choice"); got != "billing" {
		t.Errorf("team = %v, want billing (the option the state's words favour): %s", got, r.raw)
	}
	if p := num(t, r.path("answers", "urgent", "noul")); p <= 0.5 {
		t.Errorf("urgent = %v, want > 0.5 (the true criterion repeats the state)", p)
	}
	if got := r.path("answers", "urgency", "probabilities"); got == nil {
		t.Fatalf("no score probabilities: %s", r.raw)
	}
	if sel := r.path("sets", "intents", "selected"); !sameJSON(sel, []any{"refund"}) {
		t.Errorf("intents selected %v, want [refund]", sel)
	}
	if r.path("answers", "intents.refund", "noul") == nil {
		t.Errorf("a set answers each label as a noul: %s", r.raw)
	}
	if got := r.path("meta", "prompts", "team"); got != "systemone-llm/1/choice" {
		t.Errorf("meta.prompts.team = %v", got)
	}
	bodies := chatBodies(t, s.backend)[before:]
	if len(bodies) != 5 { // team, urgent, urgency, and one per set label
		t.Fatalf("%d chat calls, want 5", len(bodies))
	}
	for _, b := range bodies {
		if b["temperature"] != 0.0 || b["logprobs"] != true || b["top_logprobs"] != 20.0 {
			t.Errorf("a chat call asks %v %v %v, want temperature 0, logprobs, top_logprobs 20", b["temperature"], b["logprobs"], b["top_logprobs"])
		}
		kw, _ := b["chat_template_kwargs"].(map[string]any)
		if kw["enable_thinking"] != false {
			t.Errorf("vLLM's thinking is not turned off: %v", b["chat_template_kwargs"])
		}
	}
	// Recompute each answer from what the backend returns for the very
	// call the engine made.
	for _, b := range bodies {
		user := b["messages"].([]any)[1].(map[string]any)["content"].(string)
		top := replayTop(t, s, b)
		switch {
		case strings.Contains(user, "Options:"):
			want := labelSoftmax(top, []string{"A", "B", "C"})
			for i, key := range []string{"billing", "engineering", "other"} {
				if got := num(t, r.path("answers", "team", "probabilities", key)); math.Abs(got-want[i]) > 0.00011 {
					t.Errorf("team.%s = %v, softmax of the returned log-probabilities %v", key, got, want[i])
				}
			}
		case strings.Contains(user, "Levels, lowest first"):
			want := labelSoftmax(top, []string{"0", "1", "2"})
			exp := 0.0
			for i, key := range []string{"0", "1", "2"} {
				got := num(t, r.path("answers", "urgency", "probabilities", key))
				if math.Abs(got-want[i]) > 0.00011 {
					t.Errorf("urgency.%s = %v, want %v", key, got, want[i])
				}
				exp += float64(i) * got
			}
			if got := num(t, r.path("answers", "urgency", "score")); math.Abs(got-exp) > 0.00011 {
				t.Errorf("score %v, want the expected level %v", got, exp)
			}
		case strings.Contains(user, "Does the user report"):
			want := labelSoftmax(top, []string{"Yes", "No"})
			if got := num(t, r.path("answers", "urgent", "noul")); math.Abs(got-want[0]) > 0.00011 {
				t.Errorf("noul %v, want P(yes) %v", got, want[0])
			}
		}
	}
}

// replayTop sends the engine's own chat request to the fake again and
// returns the answer position's alternatives.
func replayTop(t *testing.T, s *server, body map[string]any) []map[string]any {
	t.Helper()
	data, _ := json.Marshal(body)
	resp, err := http.Post(s.backend.URL()+"/chat/completions", "application/json", bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var reply struct {
		Choices []struct {
			Logprobs struct {
				Content []struct {
					TopLogprobs []map[string]any `json:"top_logprobs"`
				} `json:"content"`
			} `json:"logprobs"`
		} `json:"choices"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&reply); err != nil {
		t.Fatal(err)
	}
	return reply.Choices[0].Logprobs.Content[0].TopLogprobs
}

// labelSoftmax is the softmax over labels of each label's probability
// summed over its spellings (with or without a leading space, any case).
func labelSoftmax(top []map[string]any, labels []string) []float64 {
	mass := make([]float64, len(labels))
	for _, alt := range top {
		tok := strings.ToLower(strings.TrimSpace(alt["token"].(string)))
		for i, l := range labels {
			if tok == strings.ToLower(l) {
				mass[i] += math.Exp(alt["logprob"].(float64))
			}
		}
	}
	sum := 0.0
	for _, m := range mass {
		sum += m
	}
	for i := range mass {
		mass[i] /= sum
	}
	return mass
}

func sameJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}
