package router_test

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vllm-sr/systemone/generated/catalog"
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/front"
)

// The Router's listings over HTTP: one feature vocabulary (the extension
// spec's features, generated/vocab) spelt alike by vllm-srun and the
// Router; a version on every entry and a real release date or none; GET
// /v1/systemone/models with the cards of the built-in models.

// listed is one entry of a listing body, by name.
func listed(t *testing.T, body []byte) map[string]map[string]any {
	t.Helper()
	out := map[string]map[string]any{}
	models, _ := decodeJSON(t, body)["models"].([]any)
	for _, m := range models {
		entry := m.(map[string]any)
		out[entry["name"].(string)] = entry
	}
	return out
}

func strs(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}

func testListingVocabulary(t *testing.T, e *env) {
	status, own := get(t, e.vela+"/v1/models")
	if status != 200 {
		t.Fatalf("vllm-srun: %d %s", status, own)
	}
	runtimeFeatures := strs(listed(t, own)["vllm-sr/vela3-fast"]["features"])
	_, body := get(t, e.url("public5", "/v1/models"))
	entries := listed(t, body)
	// vela3-fast's features, as the runtime lists them, in the
	// vocabulary's order and spelling.
	if got := strs(entries["local-vela"]["features"]); !slices.Equal(got, runtimeFeatures) {
		t.Errorf("the Router lists local-vela's features %v, vllm-srun lists %v", got, runtimeFeatures)
	}
	want := []string{vocab.FeatureNoul, vocab.FeatureChoice, vocab.FeatureScore, vocab.FeatureSet, vocab.FeatureSpan,
		vocab.FeatureRoles, vocab.FeaturePreset, vocab.FeatureOver, vocab.FeatureHead, vocab.FeatureAbstainProbability,
		vocab.FeatureOverflow, vocab.FeatureRequireFullInput, vocab.FeatureLongContext}
	if !slices.Equal(runtimeFeatures, want) {
		t.Errorf("vllm-srun lists vela3-fast's features %v, want %v", runtimeFeatures, want)
	}
	for name, m := range entries {
		if m["version"] != "5.0" {
			t.Errorf("%s: version %v, want 5.0", name, m["version"])
		}
		got := strs(m["features"])
		if !slices.IsSortedFunc(got, func(a, b string) int { return slices.Index(vocab.Features, a) - slices.Index(vocab.Features, b) }) ||
			slices.ContainsFunc(got, func(f string) bool { return !slices.Contains(vocab.Features, f) }) {
			t.Errorf("%s: features %v are not words of the vocabulary in its order", name, got)
		}
		if d, has := m["release_date"]; has && (d == "" || len(d.(string)) < len("2006-01-02")) {
			t.Errorf("%s: release_date %q is not a date", name, d)
		}
	}
	// The pool's release date (the standard's listing requires one) is its
	// newest member's; its features are its members'.
	pool := entries["vllm-sr/auto"]
	members := strings.Split(strings.TrimPrefix(pool["description"].(string), "pool routed by capability over "), ", ")
	newest := ""
	for _, m := range members {
		if d, has := entries[m]["release_date"].(string); has {
			newest = max(newest, d)
		}
	}
	if newest == "" || pool["release_date"] != newest {
		t.Errorf("the pool over %v lists release_date %v, want its newest member's %q", members, pool["release_date"], newest)
	}
	if got := strs(pool["features"]); !slices.Contains(got, vocab.FeatureSpan) || !slices.Contains(got, vocab.FeaturePreset) {
		t.Errorf("the pool's features %v lack its members' span and preset", got)
	}
	// A built-in model's release date is the catalogue's; a systemone/0.2
	// deployment's is its upstream listing's, its features its schema's.
	d1, _ := catalog.Model("vllm-sr/decision1")
	if entries["vllm-sr/decision1"]["release_date"] != d1.ReleaseDate {
		t.Errorf("vllm-sr/decision1's release_date %v, want %s", entries["vllm-sr/decision1"]["release_date"], d1.ReleaseDate)
	}
	gw := entries["gateway-d3"]
	if gw["release_date"] != "2025-06-01" || !slices.Equal(strs(gw["features"]), []string{"noul", "choice", "score", "box", "image", "long_context"}) {
		t.Errorf("gateway-d3: %v", gw)
	}
}

func testSystemOneModels(t *testing.T, e *env) {
	status, body := get(t, e.url("public5", vocab.PathSystemoneModels))
	if status != 200 {
		t.Fatalf("%d %s", status, body)
	}
	got := decodeJSON(t, body)
	if _, has := got["data"]; has {
		t.Errorf("a 5.0 listener's System One listing has the OpenAI data list: %s", body)
	}
	_, all := get(t, e.url("public5", vocab.PathModels))
	if a, b := listed(t, body), listed(t, all); len(a) != len(b) || len(a) != 5 {
		t.Errorf("GET %s lists %d models, GET %s %d System One models", vocab.PathSystemoneModels, len(a), vocab.PathModels, len(b))
	}
	// Each built-in decision model with its card's question types and
	// modalities.
	for name, model := range map[string]string{"local-vela": "vllm-sr/vela3-fast", "vllm-sr/decision1": "vllm-sr/decision1"} {
		m, _ := catalog.Model(model)
		card, _ := listed(t, body)[name]["card"].(map[string]any)
		if card == nil {
			t.Errorf("%s lists no card: %s", name, body)
			continue
		}
		var types, modalities []string
		for _, q := range m.Card.QuestionTypes {
			types = append(types, string(q))
		}
		for _, x := range m.Card.Modalities {
			modalities = append(modalities, string(x))
		}
		if !slices.Equal(strs(card["question_types"]), types) || !slices.Equal(strs(card["modalities"]), modalities) {
			t.Errorf("%s: card question_types %v, modalities %v; want %v, %v", name, card["question_types"], card["modalities"], types, modalities)
		}
	}
	// The 4.0 listener answers in 4.0's shape; a listener without
	// systemone does not serve the path; the path takes GET only.
	status, body = get(t, e.url("legacy4", vocab.PathSystemoneModels))
	if got := decodeJSON(t, body); status != 200 || got["object"] != "list" || len(got["data"].([]any)) != 1 || len(got["models"].([]any)) != 1 {
		t.Errorf("legacy4: %d %s", status, body)
	}
	status, body = get(t, e.url("llm", vocab.PathSystemoneModels))
	if got := decodeJSON(t, body); status != 404 || got[vocab.ErrorReason] != vocab.ReasonAPINotServed {
		t.Errorf("llm: %d %s", status, body)
	}
	resp, err := http.Post(e.url("public5", vocab.PathSystemoneModels), "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != http.MethodGet {
		t.Errorf("POST: %d, Allow %q", resp.StatusCode, resp.Header.Get("Allow"))
	}
}

// A vllm-sr/5.0 deployment with no card in the catalogue is described by
// its upstream listing's features: the Router relists them as they are
// and routes a pool by the same words.
func TestListedFeaturesRoute(t *testing.T) {
	features := `["noul","choice","score","roles","preset","over","head","abstain_probability"]`
	var posts atomic.Int32
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && r.URL.Path == vocab.PathModels {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"models":[{"name":"partner-vela","description":"A partner's Vela","release_date":"2026-02-01","version":"5.0","features":` + features + `}]}`))
			return
		}
		if r.Method == http.MethodGet && r.URL.Path == vocab.PathHealth { // the contract check
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"status":"ok","api_version":"` + front.RuntimeContract + `","version":"5.0"}`))
			return
		}
		posts.Add(1)
		http.Error(w, "no", http.StatusTeapot)
	}))
	t.Cleanup(upstream.Close)
	path := writeConfig(t, `listeners:
  - name: public5
    address: 127.0.0.1:{{P5}}
    apis:
      systemone: {schema: vllm-sr/5.0}
deployments:
  partner:
    provider: systemone
    endpoint: {{UP}}/v1/systemone
    model: partner-vela
    schema: vllm-sr/5.0
pools:
  auto: [partner]
`, map[string]string{"P5": freePort(t), "UP": upstream.URL})
	run := startRouter(t, path)
	deadline := time.Now().Add(5 * time.Second)
	var entries map[string]map[string]any
	for {
		_, body := get(t, run.URL("public5")+vocab.PathModels)
		entries = listed(t, body)
		if entries["partner"]["release_date"] != nil || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if got := strs(entries["partner"]["features"]); strings.Join(got, ",") != "noul,choice,score,roles,preset,over,head,abstain_probability" {
		t.Errorf("the Router relists partner's features as %v, its listing says %s", got, features)
	}
	if entries["partner"]["release_date"] != "2026-02-01" || entries["partner"]["version"] != "5.0" {
		t.Errorf("partner: %v", entries["partner"])
	}
	if got := strs(entries["auto"]["features"]); strings.Join(got, ",") != "noul,choice,score,roles,preset,over,head,abstain_probability" {
		t.Errorf("the pool lists %v", got)
	}
	// The pool routes by the same words: a span question, which the
	// listing does not name, is refused before any call.
	status, out := post(t, run.URL("public5")+vocab.PathSystemone, `{"model":"auto","state":"x","questions":{"pii":{"type":"span","instructions":"Which words are personal?","criteria":{"EMAIL":"An email"}}}}`)
	if got := decodeJSON(t, out); status != 400 || got[vocab.ErrorCode] != vocab.CodeUnsupportedCapability ||
		!strings.Contains(got[vocab.ErrorDetail].(string), "span question") {
		t.Errorf("span to the pool: %d %s", status, out)
	}
	if n := posts.Load(); n != 0 {
		t.Errorf("the upstream got %d calls", n)
	}
}
