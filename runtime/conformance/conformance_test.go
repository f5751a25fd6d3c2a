package conformance_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vllm-sr/systemone/runtime/conformance"
	"github.com/vllm-sr/systemone/runtime/router"
	"github.com/vllm-sr/systemone/runtime/srun"
	"github.com/vllm-sr/systemone/runtime/table"
	"github.com/vllm-sr/systemone/runtime/testkit"
)

// The conformance kit run against every server it is made for: vllm-srun
// serving 5.0 and 4.0, the Router's 5.0 listener in front of vllm-srun, a
// server that speaks only systemone/0.2, each of which must pass; and a
// standard server broken on purpose, which must fail exactly the cases its
// faults break.

func TestConformanceVllmSrun50(t *testing.T) {
	url := startSrun(t, "vllm-sr/vela3-fast", "vllm-sr/5.0")
	wantPass(t, runKit(t, url, "", table.SchemaVllmSR50))
}

func TestConformanceVllmSrun40(t *testing.T) {
	url := startSrun(t, "vllm-sr/vela3-fast", "vllm-sr/4.0")
	wantPass(t, runKit(t, url, "", table.SchemaVllmSR40))
}

func TestConformanceRouter50(t *testing.T) {
	upstream := startSrun(t, "vllm-sr/vela3-fast", "vllm-sr/5.0")
	url := startRouter(t, upstream)
	wantPass(t, runKit(t, url, "vela", table.SchemaVllmSR50))
}

func TestConformanceStandardServer(t *testing.T) {
	srv := testkit.NewConformanceServer(t, testkit.ConformanceFaults{})
	wantPass(t, runKit(t, srv.URL, "", table.SchemaStandard02))
}

// brokenFailures are the cases the broken server must fail: every answer
// with a noul or a choice, and every unknown member.
var brokenFailures = []string{
	"question/noul", "question/choice", "question/every-type", "state/object", "state/array",
	"sdk/typesafe-js-0.6.0", "unknown-member/request", "unknown-member/question", "unknown-member/noul-criteria",
}

func TestConformanceBrokenServer(t *testing.T) {
	srv := testkit.NewConformanceServer(t, testkit.ConformanceFaults{NoulOutOfRange: true, DropProbability: true, AcceptUnknown: true})
	report := runKit(t, srv.URL, "", table.SchemaStandard02)
	var failed []string
	for _, f := range report.Results {
		if f.OK {
			continue
		}
		failed = append(failed, f.Name)
		if !strings.Contains(f.Reason, "1.7, outside 0..1") && !strings.Contains(f.Reason, "want exactly") && !strings.Contains(f.Reason, "status 200, want 422") {
			t.Errorf("%s: the reason %q names none of the faults", f.Name, f.Reason)
		}
	}
	if !slices.Equal(failed, brokenFailures) {
		t.Errorf("failed %v, want %v", failed, brokenFailures)
	}
	if report.Passed == 0 {
		t.Error("no case passed: the faults broke more than they should")
	}
	var text bytes.Buffer
	if err := report.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	testkit.GoldenCheck(t, "testdata/broken-standard.txt", []byte(strings.ReplaceAll(text.String(), srv.URL, "URL")))
}

// A URL where no server listens stops the run at its first call, with
// one line that says so: no report of one "connection refused" per case.
func TestConformanceNoServer(t *testing.T) {
	calls := 0
	report, err := conformance.Run(context.Background(), conformance.Options{URL: "http://127.0.0.1:1", Schema: table.SchemaVllmSR50,
		Timeout: 10 * time.Second, Observe: func(conformance.Exchange) { calls++ }})
	if !errors.Is(err, conformance.ErrNoServer) || report != nil || calls != 1 ||
		!strings.Contains(err.Error(), "no server answers at http://127.0.0.1:1: ") ||
		!strings.Contains(err.Error(), "connection refused") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("report %v after %d calls, error %v; want ErrNoServer on one line after the first call", report, calls, err)
	}
}

func TestConformanceRefusesBadOptions(t *testing.T) {
	for _, opts := range []conformance.Options{
		{URL: "http://127.0.0.1:1", Schema: "vllm-sr/6.0"},
		{URL: "127.0.0.1:8100", Schema: table.SchemaVllmSR50},
		{URL: "ftp://host", Schema: table.SchemaVllmSR50},
	} {
		if _, err := conformance.Run(context.Background(), opts); err == nil {
			t.Errorf("%+v: no error", opts)
		}
	}
}

func runKit(t *testing.T, url, model string, schema table.SchemaID) *conformance.Report {
	t.Helper()
	report, err := conformance.Run(context.Background(), conformance.Options{
		URL: url, Model: model, Schema: schema, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return report
}

func wantPass(t *testing.T, report *conformance.Report) {
	t.Helper()
	for _, f := range report.Results {
		if !f.OK {
			t.Errorf("FAIL %s %s %s: %s", f.Method, f.Path, f.Name, f.Reason)
		}
	}
	if len(report.Results) < 15 {
		t.Errorf("only %d cases ran", len(report.Results))
	}
	t.Log(report.Summary())
}

// startSrun starts vllm-srun in-process on a free loopback port, as
// `vllm-srun serve` does, and waits (bounded) for its self-test.
func startSrun(t *testing.T, model string, schema table.SchemaID) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	run, err := srun.Start(ctx, srun.Config{Model: model, Schema: schema, Addr: "127.0.0.1:0", Logger: quiet()})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); _ = run.Wait() })
	if err := run.WaitReady(10 * time.Second); err != nil {
		t.Fatalf("%s: %v", model, err)
	}
	return run.URL()
}

// routerConfig is a Router whose vllm-sr/5.0 listener serves the
// deployment vela, a vllm-srun runtime.
const routerConfig = `listeners:
  - name: public5
    address: 127.0.0.1:0
    apis:
      systemone: {schema: vllm-sr/5.0}
deployments:
  vela:
    provider: systemone
    endpoint: UPSTREAM/v1/systemone
    model: vllm-sr/vela3-fast
    schema: vllm-sr/5.0
`

// startRouter starts a Router whose 5.0 listener serves upstream, a
// vllm-srun runtime, as the deployment vela; it returns the listener's URL.
func startRouter(t *testing.T, upstream string) string {
	t.Helper()
	return startRouterWith(t, routerConfig, map[string]string{"UPSTREAM": upstream})
}

// startRouterAt starts the Router of the configuration at path through
// the functions `vllm-sr serve` calls, and returns its 5.0 listener's URL.
func startRouterAt(t *testing.T, path string) string {
	t.Helper()
	cfg, err := router.LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	run, err := router.Start(ctx, cfg, router.Options{Logger: quiet()})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); _ = run.Wait() })
	return run.URL("public5")
}

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// A Router 5.0 listener whose configuration also has a systemone/0.2
// deployment and a pool passes the 5.0 profile: every entry of its
// listing carries version and features.
func TestConformanceRouter50MixedListing(t *testing.T) {
	upstream := startSrun(t, "vllm-sr/vela3-fast", "vllm-sr/5.0")
	std := testkit.NewConformanceServer(t, testkit.ConformanceFaults{})
	template, err := os.ReadFile("testdata/router-mixed.yaml")
	if err != nil {
		t.Fatal(err)
	}
	url := startRouterWith(t, string(template), map[string]string{"UPSTREAM": upstream, "STANDARD": std.URL})
	wantPass(t, runKit(t, url, "vela", table.SchemaVllmSR50))
}

// vllm-srun and the Router's 5.0 listener share the listener codec, so
// they answer the standard's schema violations byte for byte alike: 422
// validation_failed with the standard's detail list; and an unknown
// member alike, 400 naming it.
func TestSchemaViolationsAnsweredAlike(t *testing.T) {
	runtime := startSrun(t, "vllm-sr/vela3-fast", "vllm-sr/5.0")
	routerURL := startRouter(t, runtime)
	for _, c := range []struct {
		body   string
		status int
	}{
		{`{"state":7,"questions":{"q":{"type":"noul","instructions":"Is it?"}}}`, 422},
		{`{"state":"hi"}`, 422},
		{`{"state":"hi","questions":{}}`, 422},
		{`[]`, 422},
		{`{"state":"hi","questions":{"q":{"type":"noul","instructions":"Is it?"}},"options":{"deadline_ms":0}}`, 422},
		{`{"state":7,"questions":{},"colour":"red"}`, 400},
	} {
		var answers [2][]byte
		for i, url := range []string{runtime, routerURL} {
			resp, err := http.Post(url+"/v1/systemone", "application/json", strings.NewReader(c.body))
			if err != nil {
				t.Fatal(err)
			}
			answers[i], _ = io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != c.status {
				t.Errorf("%s: %s answered %d %s, want %d", c.body, url, resp.StatusCode, answers[i], c.status)
			}
		}
		if !bytes.Equal(answers[0], answers[1]) {
			t.Errorf("%s: vllm-srun answered %s, the Router %s", c.body, answers[0], answers[1])
		}
	}
}
