package engine

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/table"
	tc "github.com/vllm-sr/systemone/runtime/target"
)

// TestQuestionFailedStatus: each question error kind answers a fail-fast
// request with the status of the seeds' table (the generated one), code
// question_failed, its reason and limit, and a detail list only on 422.
func TestQuestionFailedStatus(t *testing.T) {
	limit := int64(8192)
	for _, c := range []struct {
		kind   ir.QuestionErrorCode
		status int
	}{
		{"invalid_question", 422}, {"invalid_input", 400}, {"max_length_exceeded", 400}, {"scan_budget_exceeded", 400},
		{"invalid_model_output", 500}, {"unavailable", 503}, {"deadline_exceeded", 504}, {"not_a_kind", 500},
	} {
		a := &ir.Answer{Name: "team", Error: c.kind, Reason: "some_reason", Message: "the question is malformed", Limit: &limit}
		e := questionFailed(a)
		if e.Status != c.status || e.Code != ir.ErrorQuestionFailed || e.Question != "team" || e.Reason != "some_reason" ||
			e.Limit == nil || *e.Limit != limit || e.Message != `question "team" cannot be answered: the question is malformed` {
			t.Errorf("%s: %+v", c.kind, e)
		}
		if (c.status == 422) != (e.Detail != nil) {
			t.Errorf("%s: detail %v", c.kind, e.Detail)
		}
	}
	e := questionFailed(&ir.Answer{Name: "team", Error: "invalid_question"})
	if e.Reason != "invalid_question" || len(e.Detail) != 1 || e.Detail[0].Loc.String() != pathOf("body", "questions", "team").String() ||
		e.Detail[0].Type != "invalid_question" {
		t.Fatalf("%+v", e)
	}
}

// TestFirstFailureOrderAndLocation: the first failure in request order
// answers, wherever it is (an answered item's question, a failed call);
// its 422 detail is located in the body the client sent.
func TestFirstFailureOrderAndLocation(t *testing.T) {
	plan := tc.Plan{Order: []string{"s1", "s2"}, Items: []tc.PlannedItem{
		{Name: "s1", Questions: []tc.QuestionRef{{Name: "a"}, {Name: "b"}}},
		{Name: "s2", Questions: []tc.QuestionRef{{Name: "a"}, {Name: "b"}}},
	}}
	answered := &ir.Response{Answers: []ir.Answer{{Name: "a"}, {Name: "b", Error: "invalid_question", Message: "malformed"}}}
	overloaded := &ir.ErrorBody{Status: 529, Code: "overloaded", Message: "Overloaded"}
	results := []tc.ItemResult{
		{Name: "s1", Response: answered},
		{Name: "s2", Error: overloaded, RetryAfter: 1200 * time.Millisecond},
	}
	for _, c := range []struct {
		x     Exchange
		state string
		loc   ir.Path
	}{
		{Exchange{States: true}, "s1", pathOf("body", "questions", "b")},
		{Exchange{}, "s1", pathOf("body", "requests", "s1", "questions", "b")},
	} {
		c.x.Plan, c.x.Results = plan, results
		e, retry := c.x.firstFailure()
		if e == nil || e.Status != 422 || e.State != c.state || e.Question != "b" || retry != 0 ||
			len(e.Detail) != 1 || e.Detail[0].Loc.String() != c.loc.String() {
			t.Fatalf("states %v: %+v", c.x.States, e)
		}
	}

	// The call failure comes first: it answers, with its delay.
	batch := &Exchange{Plan: plan, Results: results}
	batch.Results[0], batch.Results[1] = tc.ItemResult{Name: "s1", Error: overloaded, RetryAfter: 1200 * time.Millisecond},
		tc.ItemResult{Name: "s2", Response: answered}
	e, retry := batch.firstFailure()
	if e == nil || e.Status != 529 || e.State != "s1" || retry != 1200*time.Millisecond {
		t.Fatalf("%+v %v", e, retry)
	}

	// A collateral failure of a batch call gives way to its cause.
	batch.Results[0] = tc.ItemResult{Name: "s1", Error: &ir.ErrorBody{Status: 502, Reason: vocab.ReasonBatchCallFailed}}
	if e, _ := batch.firstFailure(); e == nil || e.State != "s2" || e.Question != "b" {
		t.Fatalf("collateral: %+v", e)
	}

	// A single request: no state, paths from the body's root, and an item
	// no reply answered names its first question.
	single := &Exchange{Single: true, Plan: tc.Plan{Order: []string{tc.SingleItem}, Items: []tc.PlannedItem{
		{Name: tc.SingleItem, Questions: []tc.QuestionRef{{Name: "first"}, {Name: "second"}}}}}}
	e, _ = single.firstFailure()
	if e == nil || e.Status != http.StatusGatewayTimeout || e.State != "" || e.Question != "first" || e.Code != ir.ErrorQuestionFailed {
		t.Fatalf("no reply: %+v", e)
	}
	single.Results = []tc.ItemResult{{Name: tc.SingleItem, Response: &ir.Response{Answers: []ir.Answer{{Name: "first"}, {Name: "second"}}}}}
	if e, _ := single.firstFailure(); e != nil {
		t.Fatalf("every question answered: %+v", e)
	}
}

func pathOf(names ...string) ir.Path {
	var p ir.Path
	for _, n := range names {
		p = p.Key(n)
	}
	return p
}

// TestHugeNamesCutInErrors: the engine's own error messages quote a
// request's names cut to table.MaxNameBytes, so a question named with
// 1 MiB, failed by its model or unplannable for its target, is answered
// with a small error naming 64 bytes of it.
func TestHugeNamesCutInErrors(t *testing.T) {
	name := strings.Repeat("n", 1<<20)
	tooMuch := strings.Repeat("n", table.MaxNameBytes+1)
	body := `{"model":"m","state":"x","questions":{"` + name + `":{"type":"noul","instructions":"i"}}}`
	x := read(t, table.SchemaVllmSR50, listener.EndpointSystemOne, body)
	_, _, failed := builtin.Run(context.Background(), x, Route{Caller: scripted{fail: map[string]bool{tc.SingleItem: true}}})
	unplannable := planFailed(&ir.ProtocolError{Category: ir.CategoryUnsupported, Reason: ir.ReasonUnsupported,
		Path: pathOf("questions", name, "type")})
	for _, e := range []*ir.ErrorBody{failed, unplannable} {
		if e == nil {
			t.Fatal("no error")
		}
		if strings.Contains(e.Message, tooMuch) || !strings.Contains(e.Message, table.ClipName(name)) || len(e.Message) > 1<<10 {
			t.Errorf("the message quotes %d bytes, not the name cut to %d: %.200s", len(e.Message), table.MaxNameBytes, e.Message)
		}
		status, answer := listener.V50.AnswerError(x.Client, e)
		if len(answer) >= 64<<10 || strings.Contains(string(answer), tooMuch) {
			t.Errorf("status %d: an answer of %d bytes, %d of them the name: %.300s", status, len(answer),
				strings.Count(string(answer), "n"), answer)
		}
	}
}
