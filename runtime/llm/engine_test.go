package llm_test

import (
	"testing"

	"github.com/vllm-sr/systemone/runtime/testkit"
)

const tryIt = `{"state": {"request": "My card was charged twice for the same order, please refund the second charge."},
"roles": {"request": "user"},
"questions": {
 "team": {"type": "choice", "instructions": "Which team should handle this request?",
  "criteria": {"billing": "A charge, refund or invoice for the card", "engineering": "Outages, errors and bugs", "other": "Anything else"}},
 "urgent": {"type": "noul", "instructions": "Does the user report a problem that blocks their work?"},
 "urgency": {"type": "score", "instructions": "How urgent is it?", "criteria": ["It can wait", "It should be handled today", "It blocks the user's work"]},
 "intents": {"type": "set", "instructions": "What does the user want done?", "criteria": {"refund": "Refund the second charge", "cancel": "End a subscription or plan"}}
},
"options": {"return_meta": true}}`

func TestEveryTypeOverHTTP(t *testing.T) {
	s := serve(t, testkit.LLMBackendOptions{})
	r := s.post("/v1/systemone", tryIt).want(t, 200)
	if got := r.path("answers", "team", "choice"); got != "billing" {
		t.Errorf("team = %v, want billing (the option the state's words favour): %s", got, r.raw)
	}
	t.Logf("%s", r.raw)
}
