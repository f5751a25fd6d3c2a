package srun_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/generated/catalog"
	"github.com/vllm-sr/systemone/generated/corpus"
	"github.com/vllm-sr/systemone/runtime/srun"
	"github.com/vllm-sr/systemone/runtime/table"
	"github.com/vllm-sr/systemone/runtime/testkit"
)

// return_meta adds the model's identity, revision, precision, numerics,
// engine, device and timings.
func TestReturnMeta(t *testing.T) {
	s := start(t, srun.Config{})
	body := strings.Replace(urgent, `"state"`, `"options": {"return_meta": true}, "state"`, 1)
	r := s.post("/v1/systemone", body).want(t, http.StatusOK)
	m, _ := catalog.Model(fast)
	want := map[string]string{"model": fast, "revision": m.Revision, "precision": m.Card.Precision,
		"numerics": m.Card.Numerics, "device": "cpu", "engine": "reference-scorer"}
	for k, v := range want {
		if got := r.str("meta", k); got != v {
			t.Errorf("meta.%s %q, want %q", k, got, v)
		}
	}
	if _, ok := r.at("meta", "timings").(map[string]any); !ok {
		t.Errorf("meta has no timings: %s", r.body)
	}
	if plain := s.post("/v1/systemone", urgent).want(t, http.StatusOK); plain.at("meta") != nil {
		t.Errorf("meta without return_meta: %s", plain.body)
	}
}

// A part longer than one input: overflow window reads it whole within the
// scan budget (max_tokens), truncate reads its first tokens;
// require_full_input fails a truncated read and marks a complete one with
// input_coverage; the long-context header raises the validated length.
func TestLongInputs(t *testing.T) {
	s := start(t, srun.Config{})
	m, _ := catalog.Model(fast)
	long := words(int(m.Card.Limits.MaxInputTokens) + 1000)
	ask := func(question, options string, header ...string) *reply {
		body := fmt.Sprintf(`{"model": "vllm-sr/vela3-fast", "state": %q, %s "questions": {"q": %s}}`, long, options, question)
		return s.post("/v1/systemone", body, header...)
	}
	const full = `"require_full_input": true`
	r := ask(`{"type": "noul", "instructions": "Is it?", "overflow": "window", `+full+`}`, "").want(t, http.StatusOK)
	if r.str("answers", "q", "input_coverage") != "complete" {
		t.Errorf("window: %s", r.body)
	}
	ask(`{"type": "noul", "instructions": "Is it?", "overflow": "window"}`, `"options": {"max_tokens": 20000},`).want(t, http.StatusOK)
	ask(`{"type": "noul", "instructions": "Is it?", "overflow": "window"}`, `"options": {"max_tokens": 100},`).
		wantError(t, http.StatusBadRequest, "question_failed")

	r = ask(`{"type": "noul", "instructions": "Is it?", "overflow": "truncate"}`, "").want(t, http.StatusOK)
	if r.at("answers", "q", "input_coverage") != nil {
		t.Errorf("a truncated read claims coverage: %s", r.body)
	}
	f := ask(`{"type": "noul", "instructions": "Is it?", "overflow": "truncate", `+full+`}`, "").
		wantError(t, http.StatusBadRequest, "question_failed")
	if f.str("reason") != "input_truncated" {
		t.Errorf("truncate with require_full_input: %s", f.body)
	}
	r = ask(`{"type": "noul", "instructions": "Is it?", "overflow": "truncate", `+full+`}`, "",
		"TypeSafe-Danger-Zone-Long-Context", "true").want(t, http.StatusOK)
	if r.str("answers", "q", "input_coverage") != "complete" {
		t.Errorf("long context: %s", r.body)
	}
}

// roles name the state's parts for a role-aware family, and over picks
// the parts a question reads where the card answers it (a span on Vela
// 3.0), while a plain noul with over is invalid_question.
func TestRolesAndOver(t *testing.T) {
	s := start(t, srun.Config{})
	state := `{"request": "Email jo.muller@example.com the contract.", "candidate": "Our offices close on public holidays."}`
	noul := `{"relevance": {"type": "noul", "instructions": "Does the candidate help?"}}`
	with := s.post("/v1/systemone", `{"model": "vllm-sr/vela3-fast", "state": `+state+`, "roles": {"request": "user", "candidate": "context"}, "questions": `+noul+`}`).want(t, http.StatusOK)
	without := s.post("/v1/systemone", `{"model": "vllm-sr/vela3-fast", "state": `+state+`, "questions": `+noul+`}`).want(t, http.StatusOK)
	if with.num("answers", "relevance", "noul") == without.num("answers", "relevance", "noul") {
		t.Errorf("roles changed nothing the model read: %v and %v", with.at("answers"), without.at("answers"))
	}
	span := `{"pii": {"type": "span", "instructions": "Which words are personal data?", "criteria": {"EMAIL": "An email address"}, "over": ["request"]}}`
	r := s.post("/v1/systemone", `{"model": "vllm-sr/vela3-fast", "state": `+state+`, "roles": {"request": "user", "candidate": "context"}, "questions": `+span+`}`).want(t, http.StatusOK)
	if r.at("answers", "pii", "noul") == nil || r.at("spans", "pii") == nil || r.at("thresholds", "pii") == nil {
		t.Errorf("span over request: %s", r.body)
	}
	bad := `{"relevance": {"type": "noul", "instructions": "Does the candidate help?", "over": ["candidate"]}}`
	f := s.post("/v1/systemone", `{"model": "vllm-sr/vela3-fast", "state": `+state+`, "questions": `+bad+`}`).
		wantError(t, http.StatusUnprocessableEntity, "question_failed")
	if f.str("reason") != "over_not_answered" {
		t.Errorf("noul with over: %s", f.body)
	}
}

// corpusImage is the PNG of the corpus's images case, as base64.
func corpusImage(t *testing.T) string {
	t.Helper()
	raw, err := corpus.FS.ReadFile("legacy_form/images.json")
	if err != nil {
		t.Fatal(err)
	}
	var body struct {
		Images map[string]struct {
			Data string `json:"data_base64"`
		} `json:"images"`
	}
	if err := json.Unmarshal(raw, &body); err != nil || len(body.Images) != 1 {
		t.Fatalf("the images case: %v", err)
	}
	for _, a := range body.Images {
		return a.Data
	}
	return ""
}

// The media rule: assets by placeholder, placed where the placeholder
// is; a vllm-sr/5.0 server reads a state of placeholders in front of one
// item as the item with the media in front, and a 4.0 server keeps the
// array and counts the overlap. An asset nothing places, and a model that
// does not read the medium, are invalid_input.
func TestMediaAndAssets(t *testing.T) {
	png := corpusImage(t)
	media := `{"model": "vllm-sr/decision3", "state": ["⟦img-1⟧", "What is in the picture?"],
		"assets": {"⟦img-1⟧": {"type": "image", "format": "png", "data_base64": "` + png + `"}},
		"questions": {"kind": {"type": "choice", "instructions": "What is it?", "criteria": {"cat": null, "dog": null}}}}`
	s50 := start(t, srun.Config{Model: "vllm-sr/decision3"})
	s40 := start(t, srun.Config{Model: "vllm-sr/decision3", Schema: table.SchemaVllmSR40})
	r := s50.post("/v1/systemone", media).want(t, http.StatusOK)
	if c := r.str("answers", "kind", "choice"); c != "cat" && c != "dog" {
		t.Errorf("5.0: %s", r.body)
	}
	s40.post("/v1/systemone", media).want(t, http.StatusOK)
	if n, _ := testkit.ScrapeMetrics(t, s40.url+"/metrics").Value("vsr_systemone_listener_diagnostics_total", "kind", "legacy_form", "form", "media_in_front"); n != 1 {
		t.Errorf("the 4.0 listener counted the overlap %v times, want 1", n)
	}

	unplaced := strings.Replace(media, `["⟦img-1⟧", "What is in the picture?"]`, `"What is in the picture?"`, 1)
	f := s50.post("/v1/systemone", unplaced).wantError(t, http.StatusBadRequest, "question_failed")
	if f.str("reason") != "unplaced_asset" {
		t.Errorf("unplaced asset: %s", f.body)
	}
	vela := start(t, srun.Config{})
	textOnly := strings.Replace(media, "vllm-sr/decision3", fast, 1)
	if f := vela.post("/v1/systemone", textOnly).wantError(t, http.StatusBadRequest, "question_failed"); f.str("reason") != "image_not_read" {
		t.Errorf("image on a text model: %s", f.body)
	}
}
