package srun_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/generated/catalog"
	"github.com/vllm-sr/systemone/runtime/srun"
	"github.com/vllm-sr/systemone/runtime/testkit"
)

// The seed's "Try it": the body names no model, so the served model
// answers, and urgent is P(yes).
func TestTryIt(t *testing.T) {
	s := start(t, srun.Config{})
	r := s.post("/v1/systemone", tryIt).want(t, http.StatusOK)
	if r.str("answers", "urgent", "type") != "noul" {
		t.Fatalf("got %s", r.body)
	}
	if p, ok := r.at("answers", "urgent", "noul").(float64); !ok || p < 0 || p > 1 {
		t.Errorf("noul %v is not a probability", r.at("answers", "urgent", "noul"))
	}
	if r.str("model") != fast {
		t.Errorf("model %q, want the served %s", r.str("model"), fast)
	}
	if _, ok := r.at("usage", "input_tokens").(float64); !ok {
		t.Errorf("no usage in %s", r.body)
	}
}

// The same request gets the same answer (the reference scorer is
// deterministic), and every answer has its own request id.
func TestAnswersAreDeterministicAndIDsUnique(t *testing.T) {
	s := start(t, srun.Config{})
	a := s.post("/v1/systemone", urgent).want(t, http.StatusOK)
	b := s.post("/v1/systemone", urgent).want(t, http.StatusOK)
	if string(a.body) != string(b.body) {
		t.Errorf("two answers differ:\n%s\n%s", a.body, b.body)
	}
	if a.header.Get("X-Typesafe-Request-Id") == b.header.Get("X-Typesafe-Request-Id") {
		t.Error("two answers share a request id")
	}
}

// A model the server does not answer with is 404 model_not_found, from
// the generated request error table.
func TestUnknownModel(t *testing.T) {
	s := start(t, srun.Config{})
	body := strings.Replace(urgent, fast, "no-such-model", 1)
	r := s.post("/v1/systemone", body).wantError(t, http.StatusNotFound, "model_not_found")
	if strings.Contains(string(r.body), "no-such-model") {
		t.Errorf("the error copies the request's model: %s", r.body)
	}
}

// Unknown paths are 404 with a detail; a wrong method is 405 with Allow.
func TestPathsAndMethods(t *testing.T) {
	s := start(t, srun.Config{})
	r := s.get("/v1/nothing-here").want(t, http.StatusNotFound)
	if r.str("detail") == "" {
		t.Errorf("no detail in %s", r.body)
	}
	for path, allow := range map[string]string{
		"/v1/systemone": "POST", "/v1/systemone/batch": "POST", "/v1/decisions": "POST", "/v1/bundle": "POST",
		"/v1/models": "GET", "/health": "GET",
	} {
		method := http.MethodGet
		if allow == "GET" {
			method = http.MethodPost
		}
		r := s.do(method, path, nil, nil).want(t, http.StatusMethodNotAllowed)
		if got := r.header.Get("Allow"); got != allow {
			t.Errorf("%s %s: Allow %q, want %q", method, path, got, allow)
		}
		if r.str("detail") == "" || r.str("reason") != "method_not_allowed" {
			t.Errorf("%s %s: %s", method, path, r.body)
		}
	}
}

// GET /v1/models lists the served model with the standard's members and
// the extension's version, features and card.
func TestModelsListing(t *testing.T) {
	s := start(t, srun.Config{})
	r := s.get("/v1/models").want(t, http.StatusOK)
	m, _ := catalog.Model(fast)
	if r.str("models", 0, "name") != fast || r.str("models", 0, "description") != m.Description ||
		r.str("models", 0, "release_date") != m.ReleaseDate || r.str("models", 0, "version") != "5.0" {
		t.Fatalf("got %s", r.body)
	}
	if r.at("data") != nil {
		t.Errorf("a vllm-sr/5.0 listing has no data list: %s", r.body)
	}
	features, _ := r.at("models", 0, "features").([]any)
	for _, want := range []string{"noul", "choice", "score", "set", "span"} {
		if !containsAny(features, want) {
			t.Errorf("features %v lack %s", features, want)
		}
	}
	types, _ := r.at("models", 0, "card", "question_types").([]any)
	if len(types) != len(m.Card.QuestionTypes) {
		t.Errorf("card question_types %v, want %v", types, m.Card.QuestionTypes)
	}
	presets, _ := r.at("models", 0, "card", "presets").([]any)
	if len(presets) != len(m.Card.Presets) || r.str("models", 0, "card", "presets", 0, "name") != m.Card.Presets[0].Name {
		t.Errorf("card presets %v", presets)
	}
	if r.str("models", 0, "card", "modalities", 0) != "text" ||
		r.num("models", 0, "card", "limits", "max_input_tokens") != float64(m.Card.Limits.MaxInputTokens) ||
		r.num("models", 0, "card", "limits", "choices", "max") != float64(m.Card.Limits.Choices.Max) {
		t.Errorf("card %v", r.at("models", 0, "card"))
	}
}

func containsAny(list []any, want string) bool {
	for _, x := range list {
		if x == want {
			return true
		}
	}
	return false
}

// GET /metrics is the Prometheus text format, which the Prometheus
// parser reads: every family of the runtime (docs/router.md, "Metrics"),
// with answered and refused requests counted by endpoint, status and code.
func TestMetrics(t *testing.T) {
	s := start(t, srun.Config{})
	s.post("/v1/systemone", urgent).want(t, http.StatusOK)
	s.post("/v1/systemone", `{"state": 1}`).want(t, http.StatusUnprocessableEntity)
	r := s.get("/metrics")
	if r.status != http.StatusOK || !strings.HasPrefix(r.header.Get("Content-Type"), "text/plain; version=0.0.4") {
		t.Fatalf("status %d, content-type %q", r.status, r.header.Get("Content-Type"))
	}
	m := testkit.ScrapeMetrics(t, s.url+"/metrics")
	for _, family := range []string{"vsr_requests_total", "vsr_request_duration_seconds", "vsr_requests_in_flight",
		"vsr_systemone_listener_diagnostics_total", "vsr_ready", "vsr_build_info", "vsr_srun_admitted",
		"go_goroutines", "process_cpu_seconds_total"} {
		if m[family] == nil {
			t.Errorf("no family %s", family)
		}
	}
	for _, c := range []struct {
		name   string
		labels []string
		want   float64
	}{
		{"vsr_requests_total", []string{"listener", "runtime", "api", "systemone", "endpoint", "/v1/systemone", "status", "200", "code", ""}, 1},
		{"vsr_requests_total", []string{"endpoint", "/v1/systemone", "status", "422", "code", "validation_failed"}, 1},
		{"vsr_request_duration_seconds", []string{"endpoint", "/v1/systemone"}, 2},
		{"vsr_systemone_listener_diagnostics_total", []string{"listener", "runtime", "kind", "translate", "form", "systemone"}, 1},
		{"vsr_ready", nil, 1},
		{"vsr_build_info", []string{"server", "vllm-srun"}, 1},
	} {
		if got, _ := m.Value(c.name, c.labels...); got != c.want {
			t.Errorf("%s%v = %v, want %v", c.name, c.labels, got, c.want)
		}
	}
	if _, counted := m.Value("vsr_systemone_listener_diagnostics_total", "kind", "legacy_form"); counted {
		t.Error("a 5.0 request counted a legacy form")
	}
}

// The logs are structured and never carry request data: not the state,
// not a question's name or text, not an unknown path.
func TestLogsCarryNoRequestData(t *testing.T) {
	s := start(t, srun.Config{})
	body := `{"model": "vllm-sr/vela3-fast", "state": "zebra-state", "questions": {"quokka-name": {"type": "noul", "instructions": "axolotl-text?"}}}`
	s.post("/v1/systemone", body).want(t, http.StatusOK)
	s.post("/v1/decisions", body).want(t, http.StatusOK)
	s.get("/narwhal-path")
	logs := s.logs.String()
	for _, secret := range []string{"zebra", "quokka", "axolotl", "narwhal"} {
		if strings.Contains(logs, secret) {
			t.Errorf("the logs carry request data %s:\n%s", secret, logs)
		}
	}
	if !strings.Contains(logs, `"msg":"request"`) || !strings.Contains(logs, `"request_id":"req_`) {
		t.Errorf("no structured request log:\n%s", logs)
	}
	// The access lines name the served model, once (Lines refuses a
	// repeated key).
	for _, v := range s.logs.Lines(t) {
		if msg, _ := v.Get("msg"); msg.Str() == "request" {
			if model, _ := v.Get("model"); model.Str() != "vllm-sr/vela3-fast" {
				t.Errorf("an access line names model %q, want the served model", model.Str())
			}
		}
	}
}
