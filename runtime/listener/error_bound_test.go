package listener_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/table"
)

// TestErrorAnswerIsBounded: whatever an error body holds (names and
// messages of a MiB, characters JSON escapes in six bytes, a thousand
// detail items located 100 members deep), both listener schemas write it
// in at most ir.MaxErrorBytes of valid JSON, quoting names cut to
// table.MaxNameBytes.
func TestErrorAnswerIsBounded(t *testing.T) {
	huge := strings.Repeat("n", 1<<20)
	escaped := strings.Repeat("\x01", 1<<20)
	for _, name := range []string{huge, escaped, strings.Repeat("é", 1<<19)} {
		loc := ir.Path{{Name: "body"}}
		for range 100 {
			loc = append(loc, ir.PathElem{Name: name})
		}
		detail := make([]ir.DetailItem, 1000)
		for i := range detail {
			detail[i] = ir.DetailItem{Loc: loc, Msg: name, Type: "invalid_question"}
		}
		bodies := map[string]ir.ErrorBody{
			"400":               {Status: 400, Code: ir.ErrorInvalidRequest, Message: name, Question: name, State: name, Reason: "unknown_member"},
			"422":               {Status: 422, Code: ir.ErrorQuestionFailed, Message: name, Question: name, State: name, Reason: "invalid_question", Detail: detail},
			"422 without items": {Status: 422, Code: ir.ErrorQuestionFailed, Message: name, Question: name},
		}
		for what, e := range bodies {
			for _, codec := range []listener.Codec{listener.V50, listener.V40} {
				status, out := codec.AnswerError(nil, &e)
				var v map[string]any
				switch {
				case status != e.Status:
					t.Fatalf("%s, %s: status %d", what, codec.Schema(), status)
				case len(out) > ir.MaxErrorBytes:
					t.Fatalf("%s, %s: %d bytes, over %d", what, codec.Schema(), len(out), ir.MaxErrorBytes)
				case json.Unmarshal(out, &v) != nil:
					t.Fatalf("%s, %s: not JSON", what, codec.Schema())
				}
				if q, _ := v["question"].(string); len(q) > table.MaxNameBytes+len(table.ClipMark) || !strings.HasSuffix(q, table.ClipMark) {
					t.Fatalf("%s, %s: question of %d bytes, want it cut to %d", what, codec.Schema(), len(q), table.MaxNameBytes)
				}
			}
		}
	}
}

// TestRefusalsCutNames: a refusal of a body with a MiB-long unknown member
// names the member cut to table.MaxNameBytes, and lists at most 10
// problems, saying how many more there are.
func TestRefusalsCutNames(t *testing.T) {
	name := strings.Repeat("x", 1<<20)
	problems := make([]table.Problem, 30)
	for i := range problems {
		problems[i] = table.Problem{Path: "/questions/" + name + "/" + name, Reason: table.ReasonUnknownMember, Member: name}
	}
	r := listener.RefuseProblems(table.SchemaVllmSR50, problems)
	if n := len(r.Body.Message); n > 4<<10 {
		t.Fatalf("the message is %d bytes", n)
	}
	cut := `"` + strings.Repeat("x", table.MaxNameBytes) + table.ClipMark + `"`
	if !strings.Contains(r.Body.Message, cut) || !strings.HasSuffix(r.Body.Message, "; and 20 more problems") {
		t.Fatalf("message %.300q…", r.Body.Message)
	}
}
