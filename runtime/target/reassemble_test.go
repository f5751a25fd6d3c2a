package target

import (
	"context"
	"net/http"
	"testing"

	"github.com/vllm-sr/systemone/runtime/ir"
)

func TestReassembleMissingAndDuplicateResults(t *testing.T) {
	p := &Plan{Order: []string{"a", "b", "c"}, Items: []PlannedItem{
		{Name: "a", Questions: []QuestionRef{{Name: "q", Type: "noul"}}},
		{Name: "b", Questions: []QuestionRef{{Name: "q", Type: "noul"}, {Name: "r", Type: "choice"}}},
		{Name: "c", Questions: []QuestionRef{{Name: "q", Type: "noul"}}},
	}}
	n := 0.5
	model := "m"
	ok := &ir.Response{Model: &model, Answers: []ir.Answer{{Name: "q", Type: "noul", Noul: &n}}, Usage: &ir.Usage{InputTokens: 3}}
	results := []ItemResult{
		{Name: "c", Response: ok},
		{Name: "a", Response: ok},
		{Name: "a", Error: &ir.ErrorBody{Status: http.StatusBadRequest}}, // a later duplicate never wins
	}
	out := Reassemble(p, results)
	if len(out.Responses) != 3 || out.Responses[1].Name != "b" || out.Usage.InputTokens != 6 || *out.Model != "m" {
		t.Fatalf("%+v", out)
	}
	for _, a := range out.Responses[1].Response.Answers {
		if a.Error != ir.QuestionErrorDeadlineExceeded {
			t.Fatalf("b's questions: %+v", a)
		}
	}
	f := FirstFailure(p, results)
	if f == nil || f.State != "b" || f.Status != http.StatusGatewayTimeout || f.Question != "" && f.Question != "q" {
		t.Fatalf("first failure %+v", f)
	}
}

func TestCallFailedNamesEachItem(t *testing.T) {
	p := &Plan{Items: []PlannedItem{{Name: "x", Questions: []QuestionRef{{Name: "first"}}}, {Name: "y"}}}
	call := &WireCall{Items: []string{"x", "y"}}
	got := CallFailed(p, call, NoReplyError(context.DeadlineExceeded), 0)
	if got[0].Error.State != "x" || got[0].Error.Question != "first" || got[1].Error.State != "y" || got[1].Error.Question != "" {
		t.Fatalf("%+v %+v", got[0].Error, got[1].Error)
	}
}
