package router_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/vllm-sr/systemone/runtime/router"
	"github.com/vllm-sr/systemone/runtime/rules"
	"github.com/vllm-sr/systemone/runtime/testkit"
)

// TestRouterEndToEnd runs one Router, started as `vllm-sr serve` starts
// it, in front of real upstreams on loopback; the subtests share it and
// run in order, each measuring what it caused.
func TestRouterEndToEnd(t *testing.T) {
	e := newEnv(t)
	t.Run("batch split under max_concurrency", func(t *testing.T) { testBatchSplit(t, e) })
	t.Run("deadline leaves only the slow call unknown", func(t *testing.T) { testDeadline(t, e) })
	t.Run("4.0 client on a 4.0 listener", func(t *testing.T) { testLegacy(t, e) })
	t.Run("unsupported capability before any call", func(t *testing.T) { testUnsupported(t, e) })
	t.Run("auto routing by capability", func(t *testing.T) { testAuto(t, e) })
	t.Run("pass-through bytes", func(t *testing.T) { testPassThrough(t, e) })
	t.Run("state_text on the wire", func(t *testing.T) { testStateText(t, e) })
	t.Run("404 names the listener", func(t *testing.T) { testNotServed(t, e) })
	t.Run("LLM requests forwarded unchanged", func(t *testing.T) { testLLM(t, e) })
	t.Run("models per listener", func(t *testing.T) { testModels(t, e) })
	t.Run("one listing, one feature vocabulary", func(t *testing.T) { testListingVocabulary(t, e) })
	t.Run("GET /v1/systemone/models", func(t *testing.T) { testSystemOneModels(t, e) })
	t.Run("decide stage", func(t *testing.T) { testDecide(t, e) })
	t.Run("metrics", func(t *testing.T) { testMetrics(t, e) })
	t.Run("a failed question fails a fail-fast request", func(t *testing.T) { testQuestionFailed(t, e) })
	t.Run("Retry-After passed on", func(t *testing.T) { testRetryAfter(t, e) })
	t.Run("max_deadline_ms caps the deadline sent upstream", func(t *testing.T) { testMaxDeadline(t, e) })
	t.Run("unknown model lists the served keys", func(t *testing.T) { testUnknownModel(t, e) })
	t.Run("413 above 32 MiB without reading past it", func(t *testing.T) { testBodyLimit(t, e) })
	t.Run("gzip System One body", func(t *testing.T) { testGzipBody(t, e) })
	t.Run("a batch names the client's model in every item", func(t *testing.T) { testBatchNaming(t, e) })
	t.Run("model optional while the listener serves one", func(t *testing.T) { testModelOptional(t, e) })
	// after metrics, which counts the /v1/decisions requests before it
	t.Run("decisions fail what the deployment cannot take per question", func(t *testing.T) { testDecisionsUncarried(t, e) })
	t.Run("decisions with no valid question answer as the runtime", func(t *testing.T) { testDecisionsNoValidQuestion(t, e) })
}

func testBatchSplit(t *testing.T, e *env) {
	before := len(e.rec.Calls())
	e.rec.ResetPeak()
	var reqs []string
	for i := range 20 {
		reqs = append(reqs, fmt.Sprintf(`"r%02d":{"state":"ticket %d: my screen is black","questions":{"urgent":{"type":"noul","instructions":"Is it urgent?"}}}`, i, i))
	}
	body := `{"model":"gateway-d3","requests":{` + strings.Join(reqs, ",") + `}}`
	status, out := post(t, e.url("public5", "/v1/systemone/batch"), body)
	if status != 200 {
		t.Fatalf("status %d: %s", status, out)
	}
	calls := e.rec.Calls()[before:]
	if len(calls) != 20 {
		t.Fatalf("the standard target got %d calls, want 20", len(calls))
	}
	if peak := e.rec.Peak(); peak > 4 || peak < 2 {
		t.Fatalf("calls in flight peaked at %d, want 2..4 (max_concurrency 4)", peak)
	}
	if refused := e.rec.Refused(); len(refused) > 0 {
		t.Fatalf("the standard upstream refused: %v", refused)
	}
	var got struct {
		Responses map[string]struct {
			Answers map[string]struct{ Noul *float64 }
			Usage   struct {
				InputTokens int64 `json:"input_tokens"`
			}
		}
		Usage struct {
			InputTokens int64 `json:"input_tokens"`
		}
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	var sum int64
	for i := range 20 {
		r, ok := got.Responses[fmt.Sprintf("r%02d", i)]
		if !ok || r.Answers["urgent"].Noul == nil {
			t.Fatalf("r%02d not answered: %s", i, out)
		}
		sum += r.Usage.InputTokens
	}
	if sum == 0 || got.Usage.InputTokens != sum {
		t.Fatalf("usage %d, want the sum %d", got.Usage.InputTokens, sum)
	}
	if order := responseOrder(t, out); !sortedNames(order) || len(order) != 20 {
		t.Fatalf("responses out of order: %v", order)
	}
}

// responseOrder lists the names of a batch answer's responses as written.
func responseOrder(t *testing.T, body []byte) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(body))
	var names []string
	depth := 0
	inResponses := false
	for {
		tok, err := dec.Token()
		if err != nil {
			return names
		}
		switch v := tok.(type) {
		case json.Delim:
			if v == '{' || v == '[' {
				depth++
			} else {
				depth--
				if depth == 1 {
					inResponses = false
				}
			}
		case string:
			if depth == 1 && v == "responses" {
				inResponses = true
			} else if depth == 2 && inResponses {
				names = append(names, v)
			}
		}
	}
}

func sortedNames(names []string) bool {
	for i := 1; i < len(names); i++ {
		if names[i-1] >= names[i] {
			return false
		}
	}
	return true
}

func testDeadline(t *testing.T, e *env) {
	body := `{"model":"gateway-d3","states":{"calm":"the printer is fine","stuck":"SLOW: nothing works"},` +
		`"questions":{"urgent":{"type":"noul","instructions":"Is it urgent?"}},"options":{"deadline_ms":400}}`
	start := time.Now()
	status, out := post(t, e.url("public5", "/v1/decisions"), body)
	if took := time.Since(start); took > 3*time.Second {
		t.Fatalf("took %v past a 400 ms deadline", took)
	}
	if status != 200 {
		t.Fatalf("status %d: %s", status, out)
	}
	var got struct {
		Responses map[string]struct {
			Answers map[string]struct {
				Noul  *float64
				Error string
			}
		}
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	calm, stuck := got.Responses["calm"].Answers["urgent"], got.Responses["stuck"].Answers["urgent"]
	if calm.Noul == nil || calm.Error != "" {
		t.Fatalf("the fast state is not answered: %s", out)
	}
	if stuck.Noul != nil || stuck.Error != "deadline_exceeded" {
		t.Fatalf("the slow state: %+v in %s", stuck, out)
	}
}

func testLegacy(t *testing.T, e *env) {
	before := len(e.rec.Calls())
	body := `{"model":"gateway-d3","state":{"request":"my laptop is broken","history":"hello"},` +
		`"questions":{"team":{"type":"choice","instructions":"Which team should answer?","choices":{"it":"IT support","hr":"Human resources"}}}}`
	status, out := post(t, e.url("legacy4", "/v1/systemone"), body)
	if status != 200 {
		t.Fatalf("status %d: %s", status, out)
	}
	validate40(t, "/v1/systemone", body, status, out)
	got := decodeJSON(t, out)
	team := got["answers"].(map[string]any)["team"].(map[string]any)
	if c := team["choice"]; c != "it" && c != "hr" {
		t.Fatalf("choice %v", c)
	}
	sent := string(e.rec.Calls()[before])
	if !strings.Contains(sent, `"criteria"`) || strings.Contains(sent, `"choices"`) || strings.Contains(sent, `"roles"`) {
		t.Fatalf("the standard target got a non-standard body: %s", sent)
	}

	states := `{"model":"gateway-d3","states":{"a":"fine","b":"broken"},"questions":{"ok":{"type":"noul","instructions":"Is all well?"}}}`
	status, out = post(t, e.url("legacy4", "/v1/systemone"), states)
	if status != 200 || !strings.Contains(string(out), `"a"`) || !strings.Contains(string(out), `"b"`) {
		t.Fatalf("states: %d %s", status, out)
	}
	validate40(t, "/v1/systemone", states, status, out)

	status, out = post(t, e.url("legacy4", "/v1/systemone"), strings.Replace(body, "gateway-d3", "local-vela", 1))
	got = decodeJSON(t, out)
	if status != 404 || got["detail"] == nil || got["error"] == nil || !strings.Contains(string(out), `listener \"legacy4\"`) {
		t.Fatalf("a model the listener does not serve: %d %s", status, out)
	}
	validate40(t, "/v1/systemone", body, status, out)
}

func testUnsupported(t *testing.T, e *env) {
	before := len(e.rec.Calls())
	body := `{"model":"gateway-d3","state":"mail me at someone@example.com","questions":{"pii":{"type":"span",` +
		`"instructions":"Where is personal data?","criteria":{"email":"An e-mail address"}}}}`
	status, out := post(t, e.url("public5", "/v1/systemone"), body)
	got := decodeJSON(t, out)
	if status != 400 || got["code"] != "unsupported_capability" {
		t.Fatalf("%d %s", status, out)
	}
	if msg := fmt.Sprint(got["detail"]); !strings.Contains(msg, "span question") || !strings.Contains(msg, `"gateway-d3"`) {
		t.Fatalf("the detail does not name what is missing: %s", msg)
	}
	// A video asset, which the standard's schema cannot carry and the
	// deployment does not read, is named once though both refuse it.
	video := `{"model":"gateway-d3","state":["<v>","What happens?"],"assets":{"<v>":{"type":"video","format":"mp4","data_base64":"AAAA"}},` +
		`"questions":{"q":{"type":"noul","instructions":"Is it?"}}}`
	status, out = post(t, e.url("public5", "/v1/systemone"), video)
	got = decodeJSON(t, out)
	if msg := fmt.Sprint(got["detail"]); status != 400 || got["code"] != "unsupported_capability" || strings.Count(msg, "video asset") != 1 {
		t.Errorf("a video asset to a systemone/0.2 deployment: %d %s; want 400 unsupported_capability naming it once", status, out)
	}
	if n := len(e.rec.Calls()) - before; n != 0 {
		t.Fatalf("the upstream got %d calls", n)
	}
}

func testAuto(t *testing.T, e *env) {
	span := `{"model":"vllm-sr/auto","state":"mail me at someone@example.com","questions":{"pii":{"type":"span",` +
		`"instructions":"Where is personal data?","criteria":{"email":"An e-mail address"}}}}`
	status, out := post(t, e.url("public5", "/v1/systemone"), span)
	if status != 200 {
		t.Fatalf("%d %s", status, out)
	}
	body := decodeJSON(t, out)
	answer, _ := body["answers"].(map[string]any)["pii"].(map[string]any)
	spans, _ := body["spans"].(map[string]any)
	if _, isNumber := answer["noul"].(float64); answer["type"] != "noul" || !isNumber || spans["pii"] == nil {
		t.Fatalf("a span answers as a noul with its spans under spans: %s", out)
	}
	routing, _ := body["routing"].(map[string]any)
	if routing["deployment"] != "local-vela" || routing["recipe"] != "vllm-sr/auto" || routing["calls"] != 1.0 ||
		routing["model"] != "vllm-sr/vela3-fast" || routing["stage"] == nil || routing["algorithm"] == nil || routing["decision"] == nil {
		t.Fatalf("routing %v", routing)
	}
	noul := `{"model":"vllm-sr/auto","state":"hello","questions":{"ok":{"type":"noul","instructions":"Is all well?"}}}`
	status, out = post(t, e.url("public5", "/v1/systemone"), noul)
	if routing, _ := decodeJSON(t, out)["routing"].(map[string]any); status != 200 || routing["deployment"] != "vllm-sr/decision1" {
		t.Fatalf("the first capable member answers: %d %s", status, out)
	}
	box := `{"model":"vllm-sr/auto","state":"<logo>","assets":{"<logo>":{"type":"image","format":"png","data_base64":"iVBORw0KGgo="}},` +
		`"questions":{"where":{"type":"box","instructions":"Where is the logo?"}}}`
	status, out = post(t, e.url("public5", "/v1/systemone"), box)
	got := decodeJSON(t, out)
	msg := fmt.Sprint(got["detail"])
	if status != 400 || got["code"] != "unsupported_capability" || !strings.Contains(msg, `"vllm-sr/decision1"`) ||
		!strings.Contains(msg, `"local-vela"`) || !strings.Contains(msg, "box question") || !strings.Contains(msg, "image asset") {
		t.Fatalf("%d %s", status, out)
	}
}

func testPassThrough(t *testing.T, e *env) {
	before := len(e.tap.Got("/v1/decisions"))
	body := `{ "questions": {"urgent": {"type": "noul", "instructions": "Is it urgent?"}},` +
		` "state": {"request": "the server is down", "history": "it was fine"}, "model": "vllm-sr/decision1" }`
	status, out := post(t, e.url("public5", "/v1/decisions"), body)
	if status != 200 {
		t.Fatalf("%d %s", status, out)
	}
	got := e.tap.Got("/v1/decisions")[before:]
	if len(got) != 1 || string(got[0]) != body {
		t.Fatalf("the runtime got %q, want the client's bytes", got)
	}
	if a, _ := decodeJSON(t, out)["answers"].(map[string]any)["urgent"].(map[string]any); a["noul"] == nil {
		t.Fatalf("not answered: %s", out)
	}
}

func testStateText(t *testing.T, e *env) {
	before := len(e.rec.Calls())
	body := `{"model":"gateway-text","state":{"request":"héllo \"x\"","history":[1,2.50,"é",1e3,null]},` +
		`"roles":{"request":"user","history":"context"},"questions":{"ok":{"type":"noul","instructions":"Is all well?"}}}`
	status, out := post(t, e.url("public5", "/v1/systemone"), body)
	if status != 200 {
		t.Fatalf("%d %s", status, out)
	}
	var sent struct{ State any }
	if err := json.Unmarshal(e.rec.Calls()[before], &sent); err != nil {
		t.Fatal(err)
	}
	// Python: json.dumps(state, ensure_ascii=False)
	want := `{"request": "héllo \"x\"", "history": [1, 2.5, "é", 1000.0, null]}`
	if sent.State != want {
		t.Fatalf("state on the wire %#v, want %#v", sent.State, want)
	}
}

func testNotServed(t *testing.T, e *env) {
	status, out := post(t, e.url("legacy4", "/v1/chat/completions"), `{"model":"gpt-4o","messages":[]}`)
	if status != 404 || !strings.Contains(string(out), `listener \"legacy4\"`) || !strings.Contains(string(out), "chat_completions") {
		t.Fatalf("%d %s", status, out)
	}
	status, out = post(t, e.url("llm", "/v1/systemone"), `{}`)
	if status != 404 || !strings.Contains(string(out), `listener \"llm\"`) {
		t.Fatalf("%d %s", status, out)
	}
}

func testLLM(t *testing.T, e *env) {
	body := `{"model":"gpt-4o", "messages":[{"role":"user","content":"hi"}]}`
	status, out := post(t, e.url("public5", "/v1/chat/completions"), body)
	if status != 200 || !strings.Contains(string(out), "chat.completion") {
		t.Fatalf("%d %s", status, out)
	}
	e.llm.mu.Lock()
	defer e.llm.mu.Unlock()
	last := len(e.llm.body) - 1
	if last < 0 || string(e.llm.body[last]) != body || e.llm.paths[last] != "/v1/chat/completions" {
		t.Fatalf("the upstream got %q on %v", e.llm.body, e.llm.paths)
	}
}

func testModels(t *testing.T, e *env) {
	_, out := get(t, e.url("public5", "/v1/models"))
	got := decodeJSON(t, out)
	var names []string
	for _, m := range got["models"].([]any) {
		names = append(names, m.(map[string]any)["name"].(string))
		if m.(map[string]any)["name"] == "local-vela" && m.(map[string]any)["card"] == nil {
			t.Fatalf("local-vela lists no card: %s", out)
		}
	}
	if strings.Join(names, ",") != "gateway-d3,gateway-text,local-vela,vllm-sr/auto,vllm-sr/decision1" {
		t.Fatalf("public5 lists %v", names)
	}
	if data := got["data"].([]any); len(data) != 1 || data[0].(map[string]any)["id"] != "gpt-4o" {
		t.Fatalf("public5's LLM models: %v", got["data"])
	}
	_, out = get(t, e.url("llm", "/v1/models"))
	if got := decodeJSON(t, out); got["models"] != nil || len(got["data"].([]any)) != 1 {
		t.Fatalf("llm lists %s", out)
	}
	_, out = get(t, e.url("legacy4", "/v1/models"))
	testkit.GoldenCheck(t, "testdata/golden/models-legacy4.json", indent(t, out))
}

func testDecide(t *testing.T, e *env) {
	before := len(e.rec.Calls())
	r, err := router.New(e.run.Router().Config(), router.Options{Logger: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	input := map[string]string{"request": "I cannot log in and my demo starts in five minutes", "history": "hello"}
	results, err := r.Decide(context.Background(), []string{"urgent", "stalled", "jailbreak"}, input)
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 3 || results[0].Outcome != rules.OutcomeAnswered || results[2].Outcome != rules.OutcomeAnswered {
		t.Fatalf("%+v", results)
	}
	if results[1].Outcome != rules.OutcomeFail || len(results[1].Unknown) != 1 || results[1].Unknown[0] != "stalled" {
		t.Fatalf("the slow rule: %+v", results[1])
	}
	if n := len(e.rec.Calls()) - before; n != 3 {
		t.Fatalf("the standard target got %d calls, want one per rule", n)
	}
	_, err = r.Decide(context.Background(), []string{"nope"}, input)
	if err == nil || !strings.Contains(err.Error(), "jailbreak, relevant, stalled, urgent") {
		t.Fatalf("unknown rule: %v", err)
	}
	results, err = r.Decide(context.Background(), []string{"relevant"}, map[string]string{"request": "q", "context": "c"})
	if err != nil || results[0].Outcome != rules.OutcomeAnswered {
		t.Fatalf("%v %+v", err, results)
	}
}

func testMetrics(t *testing.T, e *env) {
	m := testkit.ScrapeMetrics(t, e.url("llm", "/metrics"))
	for _, c := range []struct {
		name   string
		labels []string
		want   float64 // 0: at least one
	}{
		{"vsr_systemone_listener_diagnostics_total", []string{"listener", "legacy4", "kind", "legacy_form", "form", "choices"}, 2},
		{"vsr_systemone_listener_diagnostics_total", []string{"listener", "legacy4", "kind", "legacy_form", "form", "implicit_roles"}, 2},
		{"vsr_systemone_listener_diagnostics_total", []string{"listener", "legacy4", "kind", "legacy_form", "form", "states"}, 1},
		// the client's bytes to vllm-sr/decision1; to the systemone/0.2
		// gateway-d3 the deadline request is rewritten: a translation
		{"vsr_systemone_listener_diagnostics_total", []string{"listener", "public5", "kind", "pass_through", "form", "decisions"}, 1},
		{"vsr_systemone_listener_diagnostics_total", []string{"listener", "public5", "kind", "translate", "form", "decisions"}, 1},
		// legacy4's 4.0 requests to gateway-d3 are rewritten for its
		// schema; the one refused before any plan counts as read
		{"vsr_systemone_listener_diagnostics_total", []string{"listener", "legacy4", "kind", "translate", "form", "systemone"}, 2},
		{"vsr_systemone_listener_diagnostics_total", []string{"listener", "legacy4", "kind", "pass_through", "form", "systemone"}, 1},
		{"vsr_systemone_listener_diagnostics_total", []string{"listener", "public5", "kind", "translate", "form", "batch"}, 1},
		{"vsr_upstream_calls_total", []string{"api", "systemone", "upstream", "gateway-d3", "outcome", "200"}, 0},
		{"vsr_systemone_target_diagnostics_total", []string{"deployment", "gateway-d3", "kind", "dropped", "form", "roles"}, 0},
	} {
		got, ok := m.Value(c.name, c.labels...)
		if !ok || c.want > 0 && got != c.want {
			t.Errorf("%s%v = %v (present %v), want %v", c.name, c.labels, got, ok, c.want)
		}
	}
}
