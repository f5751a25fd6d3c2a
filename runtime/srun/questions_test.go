package srun_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/generated/catalog"
	"github.com/vllm-sr/systemone/generated/fieldtable"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/srun"
)

// words is a state of n distinct-enough words: n tokens.
func words(n int) string {
	return strings.TrimSpace(strings.Repeat("lorem ", n))
}

// questionServers are the servers the error table is provoked on: the
// reference scorer behind the doubles that fail the questions called
// "broken" (invalid_model_output) and "down" (unavailable).
func questionServers(t *testing.T) (vela, dec *testServer) {
	ref := srun.ReferenceEngine()
	engine := failing{
		inner: failing{inner: ref, name: "broken", code: ir.QuestionErrorInvalidModelOutput, reason: "no_valid_output"},
		name:  "down", code: ir.QuestionErrorUnavailable, reason: "model_not_loaded",
	}
	return start(t, srun.Config{Engine: engine}), start(t, srun.Config{Model: decision})
}

// Every row of the question error table, each provoked for real, answers
// POST /v1/systemone with its status from the generated table, code
// question_failed and the flat question and reason; the same request on
// POST /v1/decisions is a 200 carrying the error in the question's answer.
func TestQuestionErrorTable(t *testing.T) {
	vela, dec := questionServers(t)
	d1, _ := catalog.Model(decision)
	rows := []struct {
		kind   string
		server *testServer
		body   string
		header []string
		reason string
		limit  int64
	}{
		{"invalid_question", dec, `{"model": "vllm-sr/decision1", "state": {"request": "hi"}, "roles": {"request": "user"},
			"questions": {"q": {"type": "noul", "instructions": "Is it?", "over": "request"}}}`, nil, "over_not_answered", 0},
		{"invalid_question", dec, `{"model": "vllm-sr/decision1", "state": "hi",
			"questions": {"q": {"type": "set", "instructions": "Which?", "criteria": {"a": "A", "b": "B"}}}}`, nil, "question_type_not_answered", 0},
		{"max_length_exceeded", dec, fmt.Sprintf(`{"model": "vllm-sr/decision1", "state": %q,
			"questions": {"q": {"type": "noul", "instructions": "Is it?"}}}`, words(int(d1.Card.Limits.MaxInputTokens)+10)), nil, "input_too_long", d1.Card.Limits.MaxInputTokens},
		{"scan_budget_exceeded", vela, fmt.Sprintf(`{"model": "vllm-sr/vela3-fast", "state": %q, "options": {"max_tokens": 500},
			"questions": {"q": {"type": "noul", "instructions": "Is it?", "overflow": "window"}}}`, words(6000)), nil, "scan_budget", 500},
		{"invalid_input", vela, `{"model": "vllm-sr/vela3-fast", "state": "What is in ⟦img-1⟧?",
			"questions": {"q": {"type": "noul", "instructions": "Is it a cat?"}}}`, nil, "unknown_placeholder", 0},
		{"invalid_model_output", vela, `{"model": "vllm-sr/vela3-fast", "state": "hi",
			"questions": {"broken": {"type": "noul", "instructions": "Is it?"}}}`, nil, "no_valid_output", 0},
		{"unavailable", vela, `{"model": "vllm-sr/vela3-fast", "state": "hi",
			"questions": {"down": {"type": "noul", "instructions": "Is it?"}}}`, nil, "model_not_loaded", 0},
	}
	for _, row := range rows {
		t.Run(row.kind+"/"+row.reason, func(t *testing.T) {
			kind, _ := fieldtable.QuestionError(row.kind)
			name := "q"
			if row.kind == "invalid_model_output" {
				name = "broken"
			} else if row.kind == "unavailable" {
				name = "down"
			}
			r := row.server.post("/v1/systemone", row.body, row.header...).wantError(t, kind.Status, "question_failed")
			if r.str("question") != name || r.str("reason") != row.reason {
				t.Errorf("question %q reason %q, want %q %q", r.str("question"), r.str("reason"), name, row.reason)
			}
			if row.limit != 0 && r.num("limit") != float64(row.limit) {
				t.Errorf("limit %v, want %d", r.at("limit"), row.limit)
			}
			if kind.Status == http.StatusUnprocessableEntity {
				loc, _ := r.at("detail", 0, "loc").([]any)
				if fmt.Sprint(loc) != "[body questions "+name+"]" || r.str("detail", 0, "type") != row.kind {
					t.Errorf("422 detail %v", r.at("detail"))
				}
			} else if r.str("detail") == "" {
				t.Errorf("detail %v is not the standard's message", r.at("detail"))
			}
			d := row.server.post("/v1/decisions", row.body, row.header...)
			if row.kind == "invalid_question" || row.kind == "max_length_exceeded" || row.kind == "scan_budget_exceeded" || row.kind == "invalid_input" {
				// The only question is not valid: a 400 listing its error.
				d.wantError(t, http.StatusBadRequest, "invalid_request")
				if r := d.str("reason"); r != "no_valid_question" {
					t.Errorf("decisions reason %q", r)
				}
				return
			}
			d.want(t, http.StatusOK)
			if d.str("answers", name, "error") != row.kind || d.str("answers", name, "reason") != row.reason || d.str("answers", name, "message") == "" {
				t.Errorf("decisions answer %v", d.at("answers", name))
			}
		})
	}
}

// On /v1/systemone the first failed question in request order answers
// the request; on /v1/decisions every question answers, failed or not.
func TestFirstFailedQuestionInRequestOrder(t *testing.T) {
	vela, _ := questionServers(t)
	questions := map[string]string{
		"fine":   `"fine": {"type": "noul", "instructions": "Is it?"}`,
		"down":   `"down": {"type": "noul", "instructions": "Is it?"}`,
		"broken": `"broken": {"type": "noul", "instructions": "Is it?"}`,
		"bad":    `"bad": {"type": "noul", "instructions": "Is it?", "over": "request"}`,
	}
	body := func(order ...string) string {
		qs := make([]string, len(order))
		for i, n := range order {
			qs[i] = questions[n]
		}
		return `{"model": "vllm-sr/vela3-fast", "state": {"request": "hi"}, "roles": {"request": "user"}, "questions": {` + strings.Join(qs, ", ") + `}}`
	}
	cases := []struct {
		order  []string
		status int
		first  string
	}{
		{[]string{"fine", "down", "broken", "bad"}, 503, "down"},
		{[]string{"fine", "broken", "down", "bad"}, 500, "broken"},
		{[]string{"bad", "fine", "broken", "down"}, 422, "bad"},
	}
	for _, c := range cases {
		r := vela.post("/v1/systemone", body(c.order...)).wantError(t, c.status, "question_failed")
		if r.str("question") != c.first {
			t.Errorf("%v: question %q, want %q", c.order, r.str("question"), c.first)
		}
	}
	d := vela.post("/v1/decisions", body("bad", "fine", "broken", "down")).want(t, http.StatusOK)
	want := map[string]string{"bad": "invalid_question", "fine": "", "broken": "invalid_model_output", "down": "unavailable"}
	for name, e := range want {
		if got := d.str("answers", name, "error"); got != e {
			t.Errorf("decisions %s: error %q, want %q", name, got, e)
		}
	}
	if d.str("answers", "fine", "type") != "noul" {
		t.Errorf("decisions: fine %v", d.at("answers", "fine"))
	}
	keys := jsonKeys(t, d.body, "answers")
	if strings.Join(keys, ",") != "bad,fine,broken,down" {
		t.Errorf("decisions answers in order %v, want request order", keys)
	}
}

// A /v1/decisions request none of whose questions is valid is 400
// invalid_request with each question's error in the detail: the
// standard's list, one item per question locating it, its type the
// question error kind, its ctx the reason.
func TestDecisionsNoValidQuestion(t *testing.T) {
	_, dec := questionServers(t)
	body := `{"model": "vllm-sr/decision1", "state": {"request": "hi"}, "roles": {"request": "user"}, "questions": {
		"a": {"type": "noul", "instructions": "Is it?", "over": "request"},
		"b": {"type": "set", "instructions": "Which?", "criteria": {"x": "X"}}}}`
	r := dec.post("/v1/decisions", body).wantError(t, http.StatusBadRequest, "invalid_request")
	for i, q := range []string{"a", "b"} {
		item := []any{"detail", i}
		if fmt.Sprint(r.at(append(item, "loc")...)) != "[body questions "+q+"]" || r.str(append(item, "type")...) != "invalid_question" ||
			!strings.Contains(r.str(append(item, "msg")...), `question "`+q+`"`) || r.str(append(item, "ctx", "reason")...) == "" {
			t.Errorf("the 400 does not list question %s: %s", q, r.body)
		}
	}
}

// A /v1/decisions question of a type the model does not answer fails
// alone inside the 200, the others answered, as the Router answers one
// its deployment does not take (runtime/router, testDecisionsUncarried).
func TestDecisionsUnansweredTypeFailsAlone(t *testing.T) {
	_, dec := questionServers(t)
	body := `{"model": "vllm-sr/decision1", "state": {"request": "hi"}, "questions": {
		"where": {"type": "box", "instructions": "Where is the logo?"},
		"urgent": {"type": "noul", "instructions": "Is it?"}}}`
	d := dec.post("/v1/decisions", body).want(t, http.StatusOK)
	if d.str("answers", "where", "error") != "invalid_question" || d.str("answers", "where", "reason") != "question_type_not_answered" {
		t.Errorf("the box question: %v", d.at("answers", "where"))
	}
	if d.at("answers", "urgent", "noul") == nil {
		t.Errorf("the noul question: %v", d.at("answers", "urgent"))
	}
	r := dec.post("/v1/systemone", body).wantError(t, http.StatusUnprocessableEntity, "question_failed")
	if r.str("question") != "where" || r.str("reason") != "question_type_not_answered" {
		t.Errorf("/v1/systemone: question %q reason %q", r.str("question"), r.str("reason"))
	}
}
