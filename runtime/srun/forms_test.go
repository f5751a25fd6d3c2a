package srun_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/generated/corpus"
	"github.com/vllm-sr/systemone/generated/fieldtable"
	"github.com/vllm-sr/systemone/runtime/srun"
	"github.com/vllm-sr/systemone/runtime/table"
	"github.com/vllm-sr/systemone/runtime/testkit"
)

// legacyCase is one generated 4.0 form request.
type legacyCase struct {
	c    table.CorpusCase
	body string
}

func legacyCases(t *testing.T) []legacyCase {
	t.Helper()
	var out []legacyCase
	for _, c := range corpus.Cases {
		if c.Kind != table.CorpusLegacyForm {
			continue
		}
		b, err := corpus.FS.ReadFile(c.Path)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, legacyCase{c: c, body: string(b)})
	}
	if len(out) == 0 {
		t.Fatal("the corpus has no legacy form cases")
	}
	return out
}

// modelOf is the model a corpus body names.
func modelOf(t *testing.T, body string) string {
	t.Helper()
	const key = `"model":"`
	i := strings.Index(body, key)
	if i < 0 {
		t.Fatalf("the case names no model: %s", body)
	}
	rest := body[i+len(key):]
	return rest[:strings.IndexByte(rest, '"')]
}

// servers starts one server per model a test needs, on schema. They
// belong to the parent test, which outlives the subtests using them.
type servers struct {
	t      *testing.T
	schema table.SchemaID
	by     map[string]*testServer
	failed map[string]error
}

func newServers(t *testing.T, schema table.SchemaID) *servers {
	return &servers{t: t, schema: schema, by: map[string]*testServer{}, failed: map[string]error{}}
}

// of returns the server of model. Every catalogue model passes its own
// start-up self-test (TestEveryCatalogModelBecomesReady), so a model that
// cannot be served fails the subtest t, naming why.
func (ss *servers) of(t *testing.T, model string) *testServer {
	t.Helper()
	if err := ss.failed[model]; err != nil {
		t.Fatalf("%s cannot be served: %v", model, err)
	}
	if s := ss.by[model]; s != nil {
		return s
	}
	s, err := tryStart(ss.t, srun.Config{Model: model, Schema: ss.schema})
	if err != nil {
		ss.failed[model] = err
		t.Fatalf("%s cannot be served: %v", model, err)
	}
	ss.by[model] = s
	return s
}

// A vllm-sr/5.0 server answers each removed 4.0 form with 400 naming its
// replacement, from the generated removed-forms table. The form is
// refused as the body is read, whichever model it names.
func TestRemovedFormsRefusedOn50(t *testing.T) {
	s := start(t, srun.Config{})
	removed := map[string]string{}
	for _, f := range fieldtable.RemovedForms {
		removed[f.Form] = f.ReplacedBy
	}
	for _, lc := range legacyCases(t) {
		replacement, isRemoved := removed[lc.c.Form]
		if !isRemoved || lc.c.Form == "implicit roles" {
			continue // criteria is 5.0's own form; implicit roles is an overlap, read as no roles
		}
		t.Run(lc.c.Name, func(t *testing.T) {
			r := s.post("/v1/systemone", lc.body).wantError(t, http.StatusBadRequest, "invalid_request")
			if !strings.Contains(r.str("detail"), replacement) || r.str("reason") != "removed_form" {
				t.Errorf("the 400 does not name the replacement %q: %s", replacement, r.body)
			}
		})
	}
}

// A vllm-sr/4.0 server accepts every 4.0 form on the same endpoint, and
// its requests and answers follow the frozen 4.0 contract.
func TestLegacyFormsAcceptedOn40(t *testing.T) {
	ss := newServers(t, table.SchemaVllmSR40)
	for _, lc := range legacyCases(t) {
		t.Run(lc.c.Name, func(t *testing.T) {
			s := ss.of(t, modelOf(t, lc.body))
			r := s.post("/v1/systemone", lc.body).want(t, http.StatusOK)
			// Not every case is in the frozen contract: criteria carries
			// roles (a 5.0 form a 4.0 listener also reads), and the images
			// and videos cases spell each asset's type, which the internal
			// form allows and the frozen Asset schema does not, and the
			// states case sends options.deadline_ms, a 5.0 option.
			frozen := !slices.Contains([]string{"criteria", "images", "videos", "states"}, lc.c.Form)
			check40(t, http.MethodPost, "/v1/systemone", []byte(lc.body), frozen, r)
			if lc.c.Form == "states" {
				if r.at("states", "doc_1") == nil || r.at("states", "doc_2") == nil {
					t.Errorf("a states request is answered per state: %s", r.body)
				}
				return
			}
			if r.at("answers") == nil {
				t.Errorf("no answers: %s", r.body)
			}
		})
	}
}

// The error and listing forms: a 4.0 server's error bodies carry both the
// standard detail and 4.0's error object, and its listing is the OpenAI
// data list; a 5.0 server's carry neither.
func TestErrorAndListingForms(t *testing.T) {
	s40 := start(t, srun.Config{Schema: table.SchemaVllmSR40})
	s50 := start(t, srun.Config{})
	bad := `{"model": "vllm-sr/vela3-fast", "state": "hi", "questions": {"q": {"type": "noul", "stream": true}}}`

	r := s40.post("/v1/systemone", bad).wantError(t, http.StatusBadRequest, "invalid_request")
	if r.str("error", "code") != "invalid_request" || r.str("error", "message") == "" {
		t.Errorf("a 4.0 error body carries error: %s", r.body)
	}
	check40(t, http.MethodPost, "/v1/systemone", []byte(bad), false, r)
	if r := s50.post("/v1/systemone", bad).wantError(t, http.StatusBadRequest, "invalid_request"); r.at("error") != nil {
		t.Errorf("a 5.0 error body has no error object: %s", r.body)
	}

	l := s40.get("/v1/models").want(t, http.StatusOK)
	if l.str("object") != "list" || l.str("data", 0, "id") != fast {
		t.Errorf("4.0 listing: %s", l.body)
	}
	check40(t, http.MethodGet, "/v1/models", nil, false, l)
	h := s40.get("/health").want(t, http.StatusOK)
	check40(t, http.MethodGet, "/health", nil, false, h)
	nf := s40.post("/v1/systemone", strings.Replace(urgent, fast, "no-such-model", 1)).wantError(t, http.StatusNotFound, "model_not_found")
	check40(t, http.MethodPost, "/v1/systemone", []byte(strings.Replace(urgent, fast, "no-such-model", 1)), false, nf)
	// A 4.0 request through the native endpoint, checked both ways.
	// Its bad question names a preset the card lacks: its error is in its
	// answer of the 200.
	d := s40.post("/v1/decisions", legacyChoices).want(t, http.StatusOK)
	check40(t, http.MethodPost, "/v1/decisions", []byte(legacyChoices), true, d)
	if d.str("answers", "bad", "error") != "invalid_question" || d.str("answers", "team", "type") != "choice" {
		t.Errorf("4.0 decisions: %s", d.body)
	}
}

const legacyChoices = `{"model":"vllm-sr/vela3-fast","state":"I want to move my subscription to the yearly plan.","questions":{"team":{"type":"choice","instructions":"Which team should handle this request?","choices":{"billing":"Payments, invoices and refunds","support":"How-to questions and account help"}},"bad":{"type":"noul","instructions":"Is it?","preset":"toxicity"}}}`

// A member the schema does not define is refused with 400 naming it, at
// every level of a request and a batch.
func TestUnknownMemberAtEveryLevel(t *testing.T) {
	s := start(t, srun.Config{})
	cases := map[string]struct{ path, body, member string }{
		"request":       {"/v1/systemone", `{"model": "vllm-sr/vela3-fast", "state": "hi", "stream": true, "questions": {"q": {"type": "noul", "instructions": "Is it?"}}}`, "stream"},
		"options":       {"/v1/systemone", `{"model": "vllm-sr/vela3-fast", "state": "hi", "options": {"temperature": 1}, "questions": {"q": {"type": "noul", "instructions": "Is it?"}}}`, "temperature"},
		"question":      {"/v1/systemone", `{"model": "vllm-sr/vela3-fast", "state": "hi", "questions": {"q": {"type": "noul", "instructions": "Is it?", "weight": 2}}}`, "weight"},
		"criteria":      {"/v1/systemone", `{"model": "vllm-sr/vela3-fast", "state": "hi", "questions": {"q": {"type": "noul", "instructions": "Is it?", "criteria": {"true": "yes", "false": "no", "maybe": "?"}}}}`, "maybe"},
		"asset":         {"/v1/systemone", `{"model": "vllm-sr/vela3-fast", "state": "⟦a⟧", "assets": {"⟦a⟧": {"type": "image", "format": "png", "data_base64": "AA==", "url": "x"}}, "questions": {"q": {"type": "noul", "instructions": "Is it?"}}}`, "url"},
		"batch":         {"/v1/systemone/batch", `{"model": "vllm-sr/vela3-fast", "parallel": true, "requests": {"a": {"state": "hi", "questions": {"q": {"type": "noul", "instructions": "Is it?"}}}}}`, "parallel"},
		"item":          {"/v1/systemone/batch", `{"model": "vllm-sr/vela3-fast", "requests": {"a": {"state": "hi", "priority": 1, "questions": {"q": {"type": "noul", "instructions": "Is it?"}}}}}`, "priority"},
		"item question": {"/v1/systemone/batch", `{"model": "vllm-sr/vela3-fast", "requests": {"a": {"state": "hi", "questions": {"q": {"type": "noul", "instructions": "Is it?", "weight": 2}}}}}`, "weight"},
	}
	for level, c := range cases {
		t.Run(level, func(t *testing.T) {
			r := s.post(c.path, c.body).wantError(t, http.StatusBadRequest, "invalid_request")
			if !strings.Contains(r.str("detail"), `"`+c.member+`"`) {
				t.Errorf("the 400 does not name %q: %s", c.member, r.body)
			}
		})
	}
}

// A 4.0 server counts, per listener and form, the 4.0-only forms its
// clients use, overlaps included; GET /metrics exposes the counter. A
// valid 5.0 request keeps its 4.0 reading there and is counted.
func TestLegacyFormCounter(t *testing.T) {
	s40 := start(t, srun.Config{Schema: table.SchemaVllmSR40})
	s50 := start(t, srun.Config{})
	choices := legacyChoices[:strings.Index(legacyChoices, `,"bad"`)] + "}}"
	implicit := `{"model": "vllm-sr/vela3-fast", "state": {"request": "How long is the refund window?", "candidate": "Within 30 days."}, "questions": {"relevance": {"type": "noul", "instructions": "Does the candidate help?"}}}`
	for range 2 {
		s40.post("/v1/systemone", choices).want(t, http.StatusOK)
	}
	s40.post("/v1/systemone", implicit).want(t, http.StatusOK)
	s50.post("/v1/systemone", implicit).want(t, http.StatusOK)

	m40 := testkit.ScrapeMetrics(t, s40.url+"/metrics")
	for _, want := range []struct {
		kind, form string
		n          float64
	}{{"legacy_form", "choices", 2}, {"legacy_form", "implicit_roles", 1}, {"pass_through", "systemone", 3}} {
		if got, _ := m40.Value("vsr_systemone_listener_diagnostics_total", "listener", "runtime", "kind", want.kind, "form", want.form); got != want.n {
			t.Errorf("4.0 diagnostics kind %s form %s: %v, want %v", want.kind, want.form, got, want.n)
		}
	}
	if _, counted := testkit.ScrapeMetrics(t, s50.url+"/metrics").Value("vsr_systemone_listener_diagnostics_total", "kind", "legacy_form"); counted {
		t.Error("a 5.0 server counted a legacy form")
	}
}
