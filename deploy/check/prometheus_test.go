package check

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"sigs.k8s.io/yaml"
)

const (
	dashboardFile = "../grafana/vllm-sr.json"
	rulesDir      = "../prometheus"
	rulesFile     = "vllm-sr-rules.yaml"
	rulesTestFile = "vllm-sr-rules.test.yaml"
	// rateInterval stands for Grafana's $__rate_interval: four scrape
	// intervals of the test's Prometheus, and more.
	rateInterval = "30s"
)

// TestPrometheusRulesCheck: promtool checks the rules and runs their unit
// tests (Debian's prometheus package).
func TestPrometheusRulesCheck(t *testing.T) {
	promtool := needTool(t, "promtool", "prometheus")
	run(t, time.Minute, rulesDir, promtool, "check", "rules", rulesFile)
	run(t, time.Minute, rulesDir, promtool, "test", "rules", rulesTestFile)
}

// panelQuery is one query of a dashboard panel.
type panelQuery struct {
	panel, expr string
}

// dashboardQueries reads every panel target's expression.
func dashboardQueries(t *testing.T) []panelQuery {
	t.Helper()
	data, err := os.ReadFile(dashboardFile)
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Panels []struct {
			Title   string `json:"title"`
			Type    string `json:"type"`
			Targets []struct {
				Expr string `json:"expr"`
			} `json:"targets"`
		} `json:"panels"`
	}
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatalf("%s: %v", dashboardFile, err)
	}
	var qs []panelQuery
	for _, p := range d.Panels {
		if p.Type == "row" {
			continue
		}
		if len(p.Targets) == 0 {
			t.Errorf("panel %q has no query", p.Title)
		}
		for _, tg := range p.Targets {
			qs = append(qs, panelQuery{p.Title, tg.Expr})
		}
	}
	return qs
}

// ruleExprs reads every rule's expression, by its record or alert name.
func ruleExprs(t *testing.T) map[string]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(rulesDir, rulesFile))
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Groups []struct {
			Rules []struct {
				Record string `json:"record"`
				Alert  string `json:"alert"`
				Expr   string `json:"expr"`
			} `json:"rules"`
		} `json:"groups"`
	}
	if err := yaml.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	exprs := map[string]string{}
	for _, g := range f.Groups {
		for _, r := range g.Rules {
			exprs[r.Record+r.Alert] = r.Expr
		}
	}
	return exprs
}

// vsrNames are the metric names an expression uses.
var vsrNames = regexp.MustCompile(`\b(?:vsr|process|go)_[a-z_]+\b`)

// TestDashboardAndRulesAgainstPrometheus: Debian's Prometheus scrapes a
// running Router (vllm-sr serve: System One to a running vllm-srun, a
// deployment that is down, a pool failing over, a rule on chat traffic to
// an LLM upstream) and the runtime every second, with the rules loaded,
// while traffic flows and the Router reloads. Then every dashboard
// panel's query is valid and returns data, every rule's expression is
// valid and every rule evaluates without error (the recording rules with
// data), and every metric name they use is one the servers expose.
func TestDashboardAndRulesAgainstPrometheus(t *testing.T) {
	prom := needTool(t, "prometheus", "prometheus")
	bins := binaries(t)
	panels := dashboardQueries(t)
	rules := ruleExprs(t)

	// An LLM upstream for the chat traffic the rule runs on.
	llm := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"id":"c1","object":"chat.completion","created":1,"model":"gpt-4o","choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}]}`)
	}))
	defer llm.Close()

	srunPort, listenPort, adminPort, promPort, deadPort := freePort(t), freePort(t), freePort(t), freePort(t), freePort(t)
	srun := start(t, filepath.Join(bins, "vllm-srun"), "serve", "vllm-sr/vela3-fast", "--host", "127.0.0.1", "--port", itoa(srunPort))
	srunURL := "http://127.0.0.1:" + itoa(srunPort)
	waitOK(t, srun, srunURL+"/ready", 30*time.Second)

	// A deployment that passes its readiness checks (proxied to the
	// runtime) but answers every decision 503: its calls are retried, the
	// pool fails over from it, its circuit opens.
	target, _ := url.Parse(srunURL)
	proxy := httputil.NewSingleHostReverseProxy(target)
	flaky := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			_, _ = io.Copy(io.Discard, r.Body)
			http.Error(w, `{"code":"unavailable","reason":"overloaded"}`, http.StatusServiceUnavailable)
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	defer flaky.Close()

	dir := t.TempDir()
	routerYAML := fmt.Sprintf(`admin_address: 127.0.0.1:%d
listeners:
  - name: public
    address: 127.0.0.1:%d
    rules: [urgent]
    apis:
      systemone: {}
      chat_completions: {models: [gpt-4o]}
upstreams:
  llm:
    api_format: chat_completions
    endpoint: %s/v1
    models: [gpt-4o]
deployments:
  vllm-sr/vela3-fast:
    provider: systemone
    endpoint: %s/v1/systemone
    model: vllm-sr/vela3-fast
    schema: vllm-sr/5.0
    required: true
  down:
    provider: systemone
    endpoint: http://127.0.0.1:%d/v1/systemone
    model: vllm-sr/vela3-fast
    schema: vllm-sr/5.0
  flaky:
    provider: systemone
    endpoint: %s/v1/systemone
    model: vllm-sr/vela3-fast
    schema: vllm-sr/5.0
    retries: 1
    circuit: {failures: 3, cool_down_ms: 1000}
pools:
  vllm-sr/auto: [flaky, vllm-sr/vela3-fast]
rules:
  urgent:
    deployment: vllm-sr/vela3-fast
    input: [request]
    timeout_ms: 2000
    questions:
      urgent: {type: noul, instructions: "Does the user report a problem that blocks their work?"}
`, adminPort, listenPort, llm.URL, srunURL, deadPort, flaky.URL)
	config := filepath.Join(dir, "router.yaml")
	if err := os.WriteFile(config, []byte(routerYAML), 0o600); err != nil {
		t.Fatal(err)
	}
	router := start(t, filepath.Join(bins, "vllm-sr"), "serve", "--config", config, "--check-interval", "1s")
	adminURL, routerURL := "http://127.0.0.1:"+itoa(adminPort), "http://127.0.0.1:"+itoa(listenPort)
	waitOK(t, router, adminURL+"/ready", 30*time.Second)

	promYAML := fmt.Sprintf(`global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files:
  - %s
scrape_configs:
  - job_name: vllm-sr
    static_configs: [{targets: ["127.0.0.1:%d"]}]
  - job_name: vllm-srun
    static_configs: [{targets: ["127.0.0.1:%d"]}]
`, abs(t, filepath.Join(rulesDir, rulesFile)), adminPort, srunPort)
	if err := os.WriteFile(filepath.Join(dir, "prometheus.yml"), []byte(promYAML), 0o600); err != nil {
		t.Fatal(err)
	}
	p := start(t, prom, "--config.file="+filepath.Join(dir, "prometheus.yml"), "--storage.tsdb.path="+filepath.Join(dir, "tsdb"),
		"--web.listen-address=127.0.0.1:"+itoa(promPort), "--log.level=warn")
	promURL := "http://127.0.0.1:" + itoa(promPort)
	waitOK(t, p, promURL+"/-/ready", 60*time.Second)
	waitFor(t, 30*time.Second, "both targets scraped up", func() bool {
		r := query(t, promURL, `sum(up{job=~"vllm-sr|vllm-srun"})`)
		return len(r) == 1 && r[0].Value[1] == "2"
	})

	// Traffic for 8 s, both ways and failing ways, and a reload midway.
	client := &http.Client{Timeout: 10 * time.Second}
	post := func(u, body string) {
		resp, err := client.Post(u, "application/json", strings.NewReader(body))
		if err != nil {
			t.Errorf("POST %s: %v", u, err)
			return
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	withModel := func(model string) string {
		return strings.Replace(tryItBody, "{\n", `{"model":"`+model+`",`, 1)
	}
	var wg sync.WaitGroup
	end := time.Now().Add(8 * time.Second)
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(end) {
				post(routerURL+"/v1/systemone", withModel("vllm-sr/vela3-fast"))
				post(routerURL+"/v1/systemone", withModel("vllm-sr/auto")) // fails over from flaky
				post(routerURL+"/v1/systemone", withModel("down"))         // 5xx: the deployment is down
				post(routerURL+"/v1/systemone", `{"state":`)               // 400 invalid_json
				post(routerURL+"/v1/chat/completions", `{"model":"gpt-4o","messages":[{"role":"user","content":"The export button fails with a 500."}]}`)
				post(srunURL+"/v1/systemone", tryItBody)
				time.Sleep(50 * time.Millisecond)
			}
		}()
	}
	time.Sleep(4 * time.Second)
	if err := router.cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	waitFor(t, 30*time.Second, "the reload scraped", func() bool {
		return len(query(t, promURL, `vsr_config_reloads_total{result="applied"} > 0`)) > 0
	})
	time.Sleep(3 * time.Second) // a few more scrapes and rule evaluations

	exposed := map[string]bool{}
	for _, n := range labelValues(t, promURL, "__name__") {
		exposed[n] = true
	}
	for _, q := range panels {
		for _, name := range vsrNames.FindAllString(q.expr, -1) {
			if !exposed[name] {
				t.Errorf("panel %q: metric %s is exposed by neither server", q.panel, name)
			}
		}
		expr := strings.ReplaceAll(q.expr, "$__rate_interval", rateInterval)
		if strings.Contains(expr, "$") {
			t.Errorf("panel %q: a variable the check does not know in %s", q.panel, q.expr)
			continue
		}
		if r := query(t, promURL, expr); len(r) == 0 {
			t.Errorf("panel %q returns no data: %s", q.panel, expr)
		}
	}
	for name, expr := range rules {
		for _, m := range vsrNames.FindAllString(expr, -1) {
			if !exposed[m] {
				t.Errorf("rule %s: metric %s is exposed by neither server", name, m)
			}
		}
		r := query(t, promURL, expr) // valid, or query fails the test
		if strings.HasPrefix(name, "vsr:") && len(r) == 0 {
			t.Errorf("recording rule %s returns no data: %s", name, expr)
		}
	}
	checkRuleHealth(t, promURL, rules)
}

// checkRuleHealth: Prometheus evaluated every rule of the file, each with
// health ok and no error, and the recording rules' series exist.
func checkRuleHealth(t *testing.T, promURL string, want map[string]string) {
	t.Helper()
	var body struct {
		Data struct {
			Groups []struct {
				Rules []struct {
					Name      string `json:"name"`
					Health    string `json:"health"`
					LastError string `json:"lastError"`
				} `json:"rules"`
			} `json:"groups"`
		} `json:"data"`
	}
	getJSON(t, promURL+"/api/v1/rules", &body)
	var seen []string
	for _, g := range body.Data.Groups {
		for _, r := range g.Rules {
			seen = append(seen, r.Name)
			if r.Health != "ok" || r.LastError != "" {
				t.Errorf("rule %s: health %q, error %q", r.Name, r.Health, r.LastError)
			}
		}
	}
	for name := range want {
		if !slices.Contains(seen, name) {
			t.Errorf("rule %s was not loaded (loaded: %v)", name, seen)
		}
	}
}

// sample is one element of an instant vector.
type sample struct {
	Metric map[string]string `json:"metric"`
	Value  [2]any            `json:"value"`
}

// query runs an instant query and returns its vector, failing the test
// when Prometheus refuses the expression.
func query(t *testing.T, promURL, expr string) []sample {
	t.Helper()
	var body struct {
		Status    string `json:"status"`
		ErrorType string `json:"errorType"`
		Error     string `json:"error"`
		Data      struct {
			ResultType string          `json:"resultType"`
			Result     json.RawMessage `json:"result"`
		} `json:"data"`
	}
	getJSON(t, promURL+"/api/v1/query?query="+url.QueryEscape(expr), &body)
	if body.Status != "success" {
		t.Fatalf("query %s: %s %s", expr, body.ErrorType, body.Error)
	}
	if body.Data.ResultType != "vector" {
		t.Fatalf("query %s: a %s, not an instant vector", expr, body.Data.ResultType)
	}
	var v []sample
	if err := json.Unmarshal(body.Data.Result, &v); err != nil {
		t.Fatalf("query %s: %v", expr, err)
	}
	return v
}

func labelValues(t *testing.T, promURL, label string) []string {
	t.Helper()
	var body struct {
		Data []string `json:"data"`
	}
	getJSON(t, promURL+"/api/v1/label/"+label+"/values", &body)
	return body.Data
}

// getJSON GETs u and decodes its JSON body (Prometheus answers 400 with
// a JSON body for a bad query, which the caller reads).
func getJSON(t *testing.T, u string, v any) {
	t.Helper()
	resp, err := (&http.Client{Timeout: 10 * time.Second}).Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("GET %s: %s %v: %s", u, resp.Status, err, data)
	}
}

// waitFor polls cond until it holds, for at most d.
func waitFor(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s", what, d)
		}
		time.Sleep(250 * time.Millisecond)
	}
}
