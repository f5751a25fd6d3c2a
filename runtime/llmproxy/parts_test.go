package llmproxy

import (
	"testing"

	"github.com/vllm-sr/systemone/runtime/routerconfig"
)

// TestLLMParts pins how each LLM API's request becomes a rule's state
// parts, around the last user turn.
func TestLLMParts(t *testing.T) {
	for _, c := range []struct {
		api, body string
		want      map[string]string
	}{
		{"chat_completions", `{"model":"m","messages":[
			{"role":"developer","content":"Be brief."},
			{"role":"user","content":"hello"},
			{"role":"assistant","content":"Hi!"},
			{"role":"user","content":[{"type":"text","text":"My invoice"},{"type":"image_url","image_url":{"url":"x"}},{"type":"text","text":"is wrong"}]},
			{"role":"assistant","content":null,"tool_calls":[]},
			{"role":"tool","content":"invoice 7: 12 EUR"},
			{"role":"assistant","content":"It says 12 EUR."}]}`,
			map[string]string{"request": "My invoice\nis wrong", "history": "user: hello\nassistant: Hi!", "previous_turns": "hello",
				"previous_answer": "Hi!", "tool_results": "invoice 7: 12 EUR", "answer": "It says 12 EUR.", "context": "Be brief."}},
		{"messages", `{"model":"m","system":[{"type":"text","text":"Be kind."}],"messages":[
			{"role":"user","content":"first"},
			{"role":"assistant","content":[{"type":"text","text":"ok"}]},
			{"role":"user","content":"second"},
			{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":[{"type":"text","text":"42"}]}]}]}`,
			map[string]string{"request": "second", "history": "user: first\nassistant: ok", "previous_turns": "first",
				"previous_answer": "ok", "tool_results": "42", "context": "Be kind."}},
		{"responses", `{"model":"m","instructions":"Answer in French.","input":"Bonjour"}`,
			map[string]string{"request": "Bonjour", "context": "Answer in French."}},
		{"responses", `{"model":"m","input":[{"role":"user","content":[{"type":"input_text","text":"a"}]},{"type":"function_call_output","call_id":"c","output":"b"}]}`,
			map[string]string{"request": "a", "tool_results": "b"}},
		{"images", `{"model":"m","prompt":"a red fox"}`, map[string]string{"request": "a red fox"}},
	} {
		got, ok := Read(c.api, []byte(c.body), true)
		if !ok {
			t.Errorf("%s: not read", c.api)
			continue
		}
		for _, part := range routerconfig.InputParts {
			if got.Parts[part] != c.want[part] {
				t.Errorf("%s: %s = %q, want %q", c.api, part, got.Parts[part], c.want[part])
			}
		}
	}
	for _, body := range []string{"not json", `{"messages":"x"}`, "\x1f\x8b\x08"} {
		if _, ok := Read("chat_completions", []byte(body), true); ok {
			t.Errorf("%q read as a chat completion", body)
		}
	}
}
