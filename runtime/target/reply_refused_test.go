package target_test

import (
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/shapes"
	"github.com/vllm-sr/systemone/runtime/target"
)

// TestRefusedQuestionsRelayed: a model runtime's 400 no_valid_question to
// a /v1/decisions call answers each question as the runtime failed it:
// the kind of its detail item, the reason and limit of its ctx, and the
// runtime's words for them, rebuilt from the generated tables (never the
// item's msg). A reason the specification does not define is not
// relayed (the kind stands in, without the limit); an item with no valid
// request-side kind, a question the call did not carry, and a question
// the list leaves out get the Router's own failure; a body that lists
// nothing is an ordinary upstream 400.
func TestRefusedQuestionsRelayed(t *testing.T) {
	r, _, err := shapes.DecodeRequest([]byte(`{"model":"vllm-sr/vela3","state":"x","questions":{` +
		`"a":{"type":"noul","instructions":"i"},"b":{"type":"noul","instructions":"i"},` +
		`"c":{"type":"noul","instructions":"i"},"d":{"type":"noul","instructions":"i"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	plan, _, err := target.Internal.Plan(batchOf(r), runtimeTarget, target.Policy{})
	if err != nil {
		t.Fatal(err)
	}
	item := func(q, typ, ctx string) string {
		return `{"loc":["body","questions","` + q + `"],"msg":"SECRET upstream words","type":"` + typ + `"` + ctx + `}`
	}
	body := `{"detail":[` +
		item("a", "max_length_exceeded", `,"ctx":{"reason":"input_too_long","limit":32768}`) + `,` +
		item("b", "invalid_input", `,"ctx":{"reason":"SECRET_reason","limit":7}`) + `,` +
		item("c", "SECRET_kind", `,"ctx":{"reason":"input_too_long","limit":9}`) + `,` +
		item("zz", "max_length_exceeded", `,"ctx":{"reason":"input_too_long","limit":1}`) +
		`],"code":"invalid_request","reason":"no_valid_question"}`
	results, err := target.Internal.DecodeReply(plan, plan.Calls[0], target.WireReply{Status: 400, Body: []byte(body)})
	if err != nil || len(results) != 1 || results[0].Response == nil {
		t.Fatalf("%+v %v", results, err)
	}
	want := map[string]ir.Answer{
		"a": {Error: "max_length_exceeded", Reason: "input_too_long", Limit: new(int64(32768)),
			Message: "the input is longer than the model reads (limit 32768 tokens)"},
		"b": {Error: "invalid_input", Reason: "invalid_input", Message: "the question error kind invalid_input, where no finer reason is known"},
		"c": {Error: "invalid_input", Reason: "upstream_invalid_input"},
		"d": {Error: "invalid_input", Reason: "upstream_invalid_input"},
	}
	for _, a := range results[0].Response.Answers {
		w := want[a.Name]
		if a.Error != w.Error || a.Reason != w.Reason || (a.Limit == nil) != (w.Limit == nil) || a.Limit != nil && *a.Limit != *w.Limit ||
			w.Message != "" && a.Message != w.Message {
			t.Errorf("question %s: %+v, want %+v", a.Name, a, w)
		}
		if strings.Contains(a.Message, "SECRET") || strings.Contains(a.Reason, "SECRET") {
			t.Errorf("question %s relays the upstream's words: %+v", a.Name, a)
		}
	}

	plain := `{"detail":"no","code":"invalid_request","reason":"no_valid_question"}`
	results, _ = target.Internal.DecodeReply(plan, plan.Calls[0], target.WireReply{Status: 400, Body: []byte(plain)})
	if len(results) != 1 || results[0].Error == nil || results[0].Error.Status != 400 {
		t.Fatalf("a refusal naming no question: %+v", results)
	}
}

// TestRefusedQuestionOfAFailedCall: a call an upstream refused naming one
// question (400 question_failed, a reason the specification defines with
// a kind of that status, and its limit) answers that question, on
// /v1/decisions, with the kind, reason and limit relayed and the
// runtime's words for them; the call's other questions, which the
// upstream did not judge, get the Router's own failure, with no reason of
// another question's.
func TestRefusedQuestionOfAFailedCall(t *testing.T) {
	r, _, err := shapes.DecodeRequest([]byte(`{"model":"vllm-sr/vela3","state":"x","roles":null,"questions":{` +
		`"a":{"type":"noul","instructions":"i"},"b":{"type":"noul","instructions":"i"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	plan, _, err := target.V50.Plan(batchOf(r), runtimeTarget, target.Policy{})
	if err != nil {
		t.Fatal(err)
	}
	body := `{"detail":"SECRET","code":"question_failed","question":"a","state":"` + plan.Items[0].Name + `","reason":"input_too_long","limit":32768}`
	results, err := target.V50.DecodeReply(plan, plan.Calls[0], target.WireReply{Status: 400, Body: []byte(body)})
	if err != nil {
		t.Fatal(err)
	}
	answers := target.Reassemble(&plan, results).Responses[0].Response.Answers
	a, b := answers[0], answers[1]
	if a.Error != "max_length_exceeded" || a.Reason != "input_too_long" || a.Limit == nil || *a.Limit != 32768 ||
		a.Message != "the input is longer than the model reads (limit 32768 tokens)" {
		t.Errorf("the refused question: %+v", a)
	}
	if b.Error != "invalid_input" || b.Reason != "upstream_invalid_input" || b.Limit != nil || strings.Contains(b.Message, "SECRET") {
		t.Errorf("the other question: %+v", b)
	}
}
