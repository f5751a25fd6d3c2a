package listener_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/generated/fieldtable"
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/table"
	"github.com/vllm-sr/systemone/runtime/testkit"
)

// TestV50ReadGolden reads every shared request case and compares the plan,
// diagnostics, failures, media and IR dump (or the refusal body) with
// testdata/v50/read/<case>.golden.
func TestV50ReadGolden(t *testing.T) {
	for _, c := range requestCases(t) {
		t.Run(c.Name, func(t *testing.T) {
			cr, err := listener.V50.Read(c.Path, c.Body, c.Header)
			testkit.GoldenCheck(t, "testdata/v50/read/"+c.Name+".golden", []byte(renderRead(listener.V50, cr, err)))
		})
	}
}

// TestV50RemovedFormsNameTheirReplacement: each removed 4.0 form is a 400
// invalid_request whose message names the member's path and the generated
// replacement.
func TestV50RemovedFormsNameTheirReplacement(t *testing.T) {
	cases := map[string]struct{ path, form string }{
		"removed-choices":      {"/questions/team/choices", "choices"},
		"removed-choices-noul": {"/questions/jailbreak/choices", "choices"},
		"removed-levels":       {"/questions/effort/levels", "levels"},
		"removed-labels":       {"/questions/pii/labels", "labels"},
		"removed-images":       {"/images", "images"},
		"removed-videos":       {"/videos", "videos"},
		"removed-states":       {"/states", "states"},
		"removed-long-context": {"/options/long_context", "long_context"},
	}
	for name, want := range cases {
		body := refusal(t, listener.V50, name)
		if body.Status != 400 || body.Code != ir.ErrorInvalidRequest || body.Reason != string(table.ReasonRemovedForm) {
			t.Errorf("%s: got %d %s %s, want 400 invalid_request removed_form", name, body.Status, body.Code, body.Reason)
		}
		level := table.LevelQuestion
		switch want.form {
		case "images", "videos", "states":
			level = table.LevelRequest
		case "long_context":
			level = table.LevelOptions
		}
		rf, _ := fieldtable.Replacement(level, want.form)
		if !strings.Contains(body.Message, want.path) || !strings.Contains(body.Message, rf.ReplacedBy) {
			t.Errorf("%s: message %q does not name %s and its replacement %q", name, body.Message, want.path, rf.ReplacedBy)
		}
	}
}

// TestV50UnknownMembersAtEveryLevel: an unknown member anywhere is a 400
// naming its JSON path, even inside a question or a batch item.
func TestV50UnknownMembersAtEveryLevel(t *testing.T) {
	cases := map[string]string{
		"unknown-request":       "/colour",
		"unknown-question":      "/questions/q/colour",
		"unknown-noul-criteria": "/questions/q/criteria/maybe",
		"unknown-asset":         "/assets/img/colour",
		"unknown-options":       "/options/colour",
		"unknown-escaped-name":  "/questions/a~1b~0c/x",
		"unknown-batch-item":    "/requests/r/questions/q/criteria/colour",
	}
	for name, path := range cases {
		body := refusal(t, listener.V50, name)
		if body.Status != 400 || body.Reason != string(table.ReasonUnknownMember) || !strings.Contains(body.Message, path+":") {
			t.Errorf("%s: got %d %s %q, want 400 unknown_member naming %s", name, body.Status, body.Reason, body.Message, path)
		}
	}
}

// TestV50StandardClientsAccepted: the standard's tolerance cases read, with
// no roles, a translate plan and every question in order.
func TestV50StandardClientsAccepted(t *testing.T) {
	want := map[string][]string{
		"std-js-sdk":               {"a", "b", "s", "n"},
		"std-noul-criteria-forms":  {"a", "b", "c", "d"},
		"std-choice-descriptions":  {"q"},
		"std-single-option-choice": {"q"},
		"std-bare-noul":            {"q"},
		"object-state-no-roles":    {"q"},
	}
	for name, questions := range want {
		cr := accept(t, listener.V50, name)
		if cr.Plan != listener.PlanTranslate || cr.Request.Roles.Mode != ir.RoleModeNone {
			t.Errorf("%s: plan %s roles %s, want translate and none", name, cr.Plan, cr.Request.Roles.Mode)
		}
		var got []string
		for _, q := range cr.Request.Questions {
			got = append(got, q.Name)
		}
		if strings.Join(got, ",") != strings.Join(questions, ",") {
			t.Errorf("%s: questions %v, want %v", name, got, questions)
		}
	}
}

// TestV50QuestionFailuresOnSystemOne: the first failing question in request
// order answers the request with 422 question_failed and a detail list
// locating it.
func TestV50QuestionFailuresOnSystemOne(t *testing.T) {
	cases := map[string]struct {
		question, reason string
		limit            int64
	}{
		"question-256-options":       {"big", "too_many", 255},
		"question-one-level":         {"s", "too_few", 2},
		"question-missing-criteria":  {"c", "missing_member", -1},
		"question-wrong-type-inside": {"q", "wrong_type", -1},
		"question-unknown-type":      {"q", "not_in_enum", -1},
	}
	for name, want := range cases {
		body := refusal(t, listener.V50, name)
		if body.Status != 422 || body.Code != ir.ErrorQuestionFailed || body.Question != want.question || body.Reason != want.reason {
			t.Errorf("%s: got %d %s %q %s", name, body.Status, body.Code, body.Question, body.Reason)
		}
		if (want.limit < 0) != (body.Limit == nil) || body.Limit != nil && *body.Limit != want.limit {
			t.Errorf("%s: limit %v, want %d", name, body.Limit, want.limit)
		}
		if len(body.Detail) == 0 || body.Detail[0].Loc.String() != "body.questions."+want.question && !strings.HasPrefix(body.Detail[0].Loc.String(), "body.questions."+want.question+".") {
			t.Errorf("%s: detail %+v does not locate the question", name, body.Detail)
		}
	}
}

func TestV50LongContextHeaderSetsOption(t *testing.T) {
	cr := accept(t, listener.V50, "long-context-header")
	if o := cr.Request.Options; o == nil || o.LongContext == nil || !*o.LongContext {
		t.Fatalf("options %+v, want long_context from the header", o)
	}
	cr = accept(t, listener.V50, "std-bare-noul")
	if cr.Request.Options != nil {
		t.Fatalf("options %+v without the header", cr.Request.Options)
	}
}

func TestV50MediaReading(t *testing.T) {
	cr := accept(t, listener.V50, "media-in-front")
	if len(cr.Media) != 1 || strings.Join(cr.Media[0].Media.Placeholders, ",") != "img-1,img-2,vid-1" || cr.Media[0].Media.Item.Str() != "What happens here?" {
		t.Fatalf("media %+v", cr.Media)
	}
	if cr := accept(t, listener.V50, "media-not-in-front"); cr.Media != nil {
		t.Fatalf("a video before an image is not media in front: %+v", cr.Media)
	}
	if cr := accept(t, listener.V50, "batch-media"); len(cr.Media) != 1 || cr.Media[0].Item != "a" {
		t.Fatalf("batch media %+v", cr.Media)
	}
}

// TestV50BatchSemantics: items take the batch's model, options belong to the
// batch, and a failed question answers the batch naming its request.
func TestV50BatchSemantics(t *testing.T) {
	cr := accept(t, listener.V50, "batch-guide")
	if cr.Batch == nil || len(cr.Batch.Items) != 2 || cr.Batch.Options == nil || *cr.Batch.Options.DeadlineMs != 3000 || !*cr.Batch.Options.LongContext {
		t.Fatalf("batch %+v", cr.Batch)
	}
	// The generated validator names it an unknown member; the codec's own
	// check names it too, for a validator that would accept it.
	if b := refusal(t, listener.V50, "batch-item-options"); b.Status != 400 ||
		!strings.Contains(b.Message, "/requests/a/options") && !strings.Contains(b.Message, "requests.a.options") {
		t.Errorf("item options: %+v", b)
	}
	if b := refusal(t, listener.V50, "batch-item-other-model"); b.Status != 400 || !strings.Contains(b.Message, "requests.a.model") {
		t.Errorf("item model: %+v", b)
	}
	b := refusal(t, listener.V50, "batch-question-failure")
	if b.Status != 422 || b.State != "b" || b.Question != "s" {
		t.Errorf("batch question failure: %+v", b)
	}
}

// TestV50DecisionsSemantics: failed questions go on as failures in request
// order, the rest is read by shapes; none valid is a 400.
func TestV50DecisionsSemantics(t *testing.T) {
	cr := accept(t, listener.V50, "decisions-question-failures")
	if cr.Plan != listener.PlanTranslate || len(cr.QuestionFailures) != 2 || len(cr.Request.Questions) != 2 {
		t.Fatalf("plan %s failures %+v questions %d", cr.Plan, cr.QuestionFailures, len(cr.Request.Questions))
	}
	if f := cr.QuestionFailures; f[0].Name != "big" || f[0].Index != 1 || f[1].Name != "lvl" || f[1].Index != 2 {
		t.Errorf("failures %+v", f)
	}
	if cr := accept(t, listener.V50, "decisions-internal-form"); cr.Plan != listener.PlanPassThrough || cr.Request.Roles.Mode != ir.RoleModeNone {
		t.Errorf("internal form: plan %s roles %s", cr.Plan, cr.Request.Roles.Mode)
	}
	if b := refusal(t, listener.V50, "decisions-none-valid"); b.Status != 400 || b.Reason != vocab.ReasonNoValidQuestion ||
		!strings.Contains(b.Message, `"a"`) || !strings.Contains(b.Message, `"b"`) {
		t.Errorf("none valid: %+v", b)
	}
	if b := refusal(t, listener.V50, "decisions-unknown-member"); b.Status != 400 || b.Reason != string(table.ReasonUnknownMember) {
		t.Errorf("unknown member on decisions: %+v", b)
	}
}

// TestV50RefusalsNeverCopyValues puts a marker in values that break the
// schema; no refusal body may hold it.
func TestV50RefusalsNeverCopyValues(t *testing.T) {
	const marker = "SECRET-7f3a"
	bodies := []string{
		`{"model":"m","state":"` + marker + `","questions":{"q":{"type":"` + marker + `"}}}`,
		`{"model":"m","state":5,"questions":{"q":{"type":"noul","instructions":"` + marker + `"}},"roles":{"a":"` + marker + `"}}`,
		`{"model":"m","state":"` + marker + `","questions":{"c":{"type":"choice","criteria":"` + marker + `"}}}`,
		`{"model":"m","state":"` + marker + `",`,
	}
	for _, path := range []listener.Endpoint{listener.EndpointSystemOne, listener.EndpointDecisions} {
		for _, body := range bodies {
			_, err := listener.V50.Read(path, []byte(body), nil)
			var r *listener.Refusal
			if !errors.As(err, &r) {
				t.Fatalf("not refused: %s", body)
			}
			_, out := listener.V50.AnswerError(nil, &r.Body)
			if strings.Contains(string(out), marker) {
				t.Errorf("refusal carries a request value: %s", out)
			}
		}
	}
}
