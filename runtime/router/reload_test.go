package router_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/vllm-sr/systemone/runtime/router"
	"github.com/vllm-sr/systemone/runtime/testkit"
)

// readyConfiguration is GET /ready's configuration member.
type readyConfiguration struct {
	Status      string
	SHA256      string
	LoadedAt    string `json:"loaded_at"`
	LastRefused *struct {
		At           string
		ProblemCount int `json:"problem_count"`
		Problems     []string
	} `json:"last_refused"`
}

func readyConfig(t *testing.T, url string) (int, readyConfiguration) {
	t.Helper()
	status, body := get(t, url)
	var r struct{ Configuration readyConfiguration }
	if err := json.Unmarshal(body, &r); err != nil {
		t.Fatalf("/ready: %v: %s", err, body)
	}
	return status, r.Configuration
}

func fileSHA256(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// A reload is visible: vsr_config_reloads_total counts it by result,
// vsr_config_info and /ready carry the SHA-256 of the configuration file
// in force, and a refused reload's problems (each as logged) stay in
// /ready, with when it was refused, until a reload is applied; /ready's
// status code does not change for a refused reload.
func TestReloadVisible(t *testing.T) {
	p := newProd(t, router.Options{})
	waitReady(t, p.url("/ready"))
	sha := fileSHA256(t, p.config)
	status, c := readyConfig(t, p.url("/ready"))
	loadedAt, err := time.Parse(time.RFC3339, c.LoadedAt)
	if status != 200 || c.Status != "loaded" || c.SHA256 != sha || c.LastRefused != nil || err != nil || time.Since(loadedAt) > time.Minute {
		t.Fatalf("at start: %d %+v (%v)", status, c, err)
	}
	m := testkit.ScrapeMetrics(t, p.url("/metrics"))
	if v, ok := m.Value("vsr_config_info", "sha256", sha); v != 1 || !ok || len(m["vsr_config_info"].GetMetric()) != 1 {
		t.Errorf("vsr_config_info at start: %v %v", v, ok)
	}
	for _, result := range []string{"applied", "refused"} {
		if v, ok := m.Value("vsr_config_reloads_total", "result", result); v != 0 || !ok {
			t.Errorf("reloads %s at start: %v %v, want a 0 series", result, v, ok)
		}
	}

	bad := writeConfig(t, prodConfig, with(p.values, "EXTRA", brokenDeployment))
	reloadErr := p.run.Reload(bad)
	if reloadErr == nil {
		t.Fatal("the broken configuration was applied")
	}
	status, c = readyConfig(t, p.url("/ready"))
	problems := strings.Split(reloadErr.Error(), "\n")
	if status != 200 || c.Status != "reload_refused" || c.SHA256 != sha || c.LastRefused == nil ||
		c.LastRefused.ProblemCount != len(problems) || strings.Join(c.LastRefused.Problems, "\n") != reloadErr.Error() {
		t.Fatalf("after a refused reload: %d %+v, want the problems\n%v", status, c, reloadErr)
	}
	if _, err := time.Parse(time.RFC3339, c.LastRefused.At); err != nil {
		t.Errorf("refused at %q: %v", c.LastRefused.At, err)
	}
	m = testkit.ScrapeMetrics(t, p.url("/metrics"))
	if v, _ := m.Value("vsr_config_reloads_total", "result", "refused"); v != 1 {
		t.Errorf("refused reloads: %v, want 1", v)
	}
	if v, _ := m.Value("vsr_config_info", "sha256", sha); v != 1 {
		t.Errorf("a refused reload changed vsr_config_info")
	}

	good := writeConfig(t, prodConfig, with(p.values, "EXTRA", extraDeployment))
	if err := p.run.Reload(good); err != nil {
		t.Fatal(err)
	}
	newSHA := fileSHA256(t, good)
	status, c = readyConfig(t, p.url("/ready"))
	if c.Status != "loaded" || c.SHA256 != newSHA || newSHA == sha || c.LastRefused != nil {
		t.Fatalf("after a good reload: %d %+v, want sha256 %s and no refusal", status, c, newSHA)
	}
	m = testkit.ScrapeMetrics(t, p.url("/metrics"))
	if v, _ := m.Value("vsr_config_reloads_total", "result", "applied"); v != 1 {
		t.Errorf("applied reloads: %v, want 1", v)
	}
	if v, _ := m.Value("vsr_config_info", "sha256", newSHA); v != 1 || len(m["vsr_config_info"].GetMetric()) != 1 {
		t.Errorf("vsr_config_info after the reload: %v, series %d; want the new configuration's only", v, len(m["vsr_config_info"].GetMetric()))
	}
	if !strings.Contains(p.logs.String(), `"msg":"configuration reloaded","config":`+quoteJSON(good)+`,"sha256":"`+newSHA+`"`) {
		t.Errorf("the reload's line does not name the configuration's sha256:\n%s", p.logs)
	}
}

// A refused reload's problems in /ready are bounded: at most 20, each at
// most 512 bytes, with the count of them all.
func TestReloadRefusedProblemsBounded(t *testing.T) {
	p := newProd(t, router.Options{})
	var many strings.Builder
	for i := range 30 {
		many.WriteString("  bad-" + strings.Repeat("x", 600) + string(rune('a'+i%26)) + string(rune('a'+i/26)) + ": {colour: blue}\n")
	}
	bad := writeConfig(t, prodConfig, with(p.values, "EXTRA", many.String()))
	reloadErr := p.run.Reload(bad)
	if reloadErr == nil {
		t.Fatal("the broken configuration was applied")
	}
	if first := strings.Split(reloadErr.Error(), "\n")[0]; len(first) <= 512 {
		t.Fatalf("the first problem is short, %d bytes: nothing to cut", len(first))
	}
	_, c := readyConfig(t, p.url("/ready"))
	if c.LastRefused == nil || c.LastRefused.ProblemCount != len(strings.Split(reloadErr.Error(), "\n")) || c.LastRefused.ProblemCount <= 20 ||
		len(c.LastRefused.Problems) != 20 {
		t.Fatalf("the problems: %+v", c.LastRefused)
	}
	for _, problem := range c.LastRefused.Problems {
		if len(problem) > 512 || !strings.HasPrefix(problem, bad+":") {
			t.Errorf("a problem of %d bytes: %.80s...", len(problem), problem)
		}
	}
}
