package llm_test

import (
	"context"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/llm"
	"github.com/vllm-sr/systemone/runtime/shapes"
	"github.com/vllm-sr/systemone/runtime/testkit"
)

// TestFitRecoversAKnownTemperature: labels drawn from softmax(logits/T0)
// of a model whose raw log-probabilities are the logits: the fit finds T0
// and lowers the expected calibration error of the raw probabilities.
func TestFitRecoversAKnownTemperature(t *testing.T) {
	for _, t0 := range []float64{0.5, 2.5} {
		rng := rand.New(rand.NewPCG(1, uint64(t0*10)))
		var samples []llm.Sample
		for range 6000 {
			lp := []float64{rng.NormFloat64() * 2, rng.NormFloat64() * 2, rng.NormFloat64() * 2}
			p := make([]float64, 3)
			sum := 0.0
			for i := range lp {
				p[i] = math.Exp(lp[i] / t0)
				sum += p[i]
			}
			u, y := rng.Float64()*sum, 0
			for u > p[y] && y < 2 {
				u -= p[y]
				y++
			}
			samples = append(samples, llm.Sample{Group: "choice", LogProbs: lp, Expected: y})
		}
		r := llm.Fit(samples, 5)["choice"]
		if math.Abs(r.Temperature-t0)/t0 > 0.1 {
			t.Errorf("T0 %v: fitted %v", t0, r.Temperature)
		}
		if r.After.ECE >= r.Before.ECE || r.After.LogLoss >= r.Before.LogLoss {
			t.Errorf("T0 %v: ECE %v -> %v, log loss %v -> %v", t0, r.Before.ECE, r.After.ECE, r.Before.LogLoss, r.After.LogLoss)
		}
		if r.Test != 1200 || r.Train != 4800 {
			t.Errorf("split %d/%d", r.Train, r.Test)
		}
	}
}

// TestCalibrationAppliesAndLoads: a calibration file round-trips, a bad
// one is refused naming the member, and a served temperature changes the
// answer as p ∝ exp(lp/T) says.
func TestCalibrationAppliesAndLoads(t *testing.T) {
	dir := t.TempDir()
	c := &llm.Calibration{Format: llm.CalibrationFormat, Model: "qwen3-8b", Prompts: llm.PromptsVersion, Temperatures: map[string]float64{"noul": 4}}
	path := filepath.Join(dir, "cal.json")
	if err := c.Save(path); err != nil {
		t.Fatal(err)
	}
	loaded, err := llm.LoadCalibration(path)
	if err != nil || loaded.Temperature("noul", "") != 4 || loaded.Temperature("choice", "") != 1 || loaded.Temperature("noul", "jailbreak") != 4 {
		t.Fatalf("loaded %+v, %v", loaded, err)
	}
	bad := &llm.Calibration{Format: llm.CalibrationFormat, Temperatures: map[string]float64{"noul": -1}}
	_ = bad.Save(path)
	if _, err := llm.LoadCalibration(path); err == nil || !strings.Contains(err.Error(), "temperatures.noul") {
		t.Errorf("a negative temperature: %v", err)
	}
	plain := serve(t, testkit.LLMBackendOptions{})
	hot := serve(t, testkit.LLMBackendOptions{}, func(cfg *llm.Config) { cfg.Calibration = loaded })
	p1 := num(t, plain.post("/v1/systemone", oneNoul).want(t, 200).path("answers", "q", "noul"))
	p4 := num(t, hot.post("/v1/systemone", oneNoul).want(t, 200).path("answers", "q", "noul"))
	// P(yes) = σ(Δ) at T=1 and σ(Δ/4) at T=4, Δ the log-odds.
	delta := math.Log(p1 / (1 - p1))
	if want := 1 / (1 + math.Exp(-delta/4)); math.Abs(p4-want) > 0.0002 {
		t.Errorf("T=4: %v, want %v (T=1: %v)", p4, want, p1)
	}
}

// TestSamplesOverHTTP: the calibration's samples are the raw label
// log-probabilities of each labelled question, a set's per label.
func TestSamplesOverHTTP(t *testing.T) {
	s := serve(t, testkit.LLMBackendOptions{})
	req, _, err := shapes.DecodeRequest([]byte(tryIt))
	if err != nil {
		t.Fatal(err)
	}
	expected, _ := jsonvalue.Decode([]byte(`{"team": "billing", "urgent": true, "urgency": 2, "intents": ["refund"]}`), jsonvalue.Options{})
	model, err := s.engine.Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.engine.Samples(context.Background(), model, req, expected)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		group    string
		labels   int
		expected int
	}{{"choice", 3, 0}, {"noul", 2, 0}, {"score", 3, 2}, {"set", 2, 0}, {"set", 2, 1}}
	if len(got) != len(want) {
		t.Fatalf("%d samples, want %d", len(got), len(want))
	}
	for i, w := range want {
		if got[i].Group != w.group || len(got[i].LogProbs) != w.labels || got[i].Expected != w.expected {
			t.Errorf("sample %d: %+v, want %+v", i, got[i], w)
		}
	}
	bad, _ := jsonvalue.Decode([]byte(`{"team": "nobody"}`), jsonvalue.Options{})
	if _, err := s.engine.Samples(context.Background(), model, req, bad); err == nil || !strings.Contains(err.Error(), `"team"`) {
		t.Errorf("an expectation naming no option: %v", err)
	}
}

// TestListingHealthMetrics: the listing carries the card with limits
// from the backend's context, /health the 5.0.0 contract, /metrics the
// backend series.
func TestListingHealthMetrics(t *testing.T) {
	s := serve(t, testkit.LLMBackendOptions{MaxModelLen: 16384}, func(c *llm.Config) { c.Name = "local-qwen" })
	m := s.get("/v1/models").want(t, 200)
	data, _ := m.body["models"].([]any)
	if len(data) != 1 {
		t.Fatalf("listing: %s", m.raw)
	}
	entry := data[0].(map[string]any)
	card, _ := entry["card"].(map[string]any)
	limits, _ := card["limits"].(map[string]any)
	if entry["name"] != "local-qwen" {
		t.Errorf("listed as %v", entry)
	}
	if limits["max_input_tokens"] != 8192.0 || limits["long_context_max_input_tokens"] != float64(16384-256) {
		t.Errorf("limits %v", limits)
	}
	h := s.get("/health").want(t, 200)
	if h.body["api_version"] != "5.0.0" || h.body["model"] != "local-qwen" {
		t.Errorf("health %s", h.raw)
	}
	s.post("/v1/systemone", strings.Replace(oneNoul, `{"state"`, `{"model": "local-qwen", "state"`, 1)).want(t, 200)
	metrics := string(s.get("/metrics").want(t, 200).raw)
	for _, series := range []string{`vsr_llm_backend_calls_total{endpoint="/chat/completions",outcome="ok"}`, `vsr_llm_backend_call_duration_seconds_bucket{endpoint="/chat/completions"`, "vsr_llm_backend_calls_in_flight 0"} {
		if !strings.Contains(metrics, series) {
			t.Errorf("/metrics has no %s", series)
		}
	}
}
