package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/vllm-sr/systemone/runtime/conformance"
	"github.com/vllm-sr/systemone/runtime/srun"
	"github.com/vllm-sr/systemone/runtime/table"
	"github.com/vllm-sr/systemone/runtime/testkit"
)

// runConformance runs the conformance command in process, as main does,
// and returns its standard output, its standard error and its error.
func runConformance(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	root := newRoot()
	root.SetArgs(append([]string{"conformance"}, args...))
	root.SetOut(&out)
	root.SetErr(&errOut)
	err := root.ExecuteContext(context.Background())
	return out.String(), errOut.String(), err
}

var summary = regexp.MustCompile(`(?m)^(\d+) cases: (\d+) ok, 0 FAIL \(vllm-sr/5.0 at http://127\.0\.0\.1:\d+, model vllm-sr/vela3-fast\)\n\z`)

// The command against vllm-srun: a line per case, every one ok, a summary,
// and no error (exit 0).
func TestConformanceCommandPassesVllmSrun(t *testing.T) {
	url := startRuntime(t)
	out, _, err := runConformance(t, "--url", url, "--timeout", "10s")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	m := summary.FindStringSubmatch(out)
	if m == nil || m[1] != m[2] {
		t.Fatalf("no passing summary line:\n%s", out)
	}
	for _, want := range []string{"ok    GET   /v1/models", "ok    POST  /v1/systemone/batch", "removed-form/choices"} {
		if !strings.Contains(out, want) {
			t.Errorf("the report has no %q:\n%s", want, out)
		}
	}
}

// The command against vllm-srun serving vllm-sr/4.0, in that profile.
func TestConformanceCommandPassesVllmSrun40(t *testing.T) {
	url := startRuntimeWith(t, srun.Config{Model: "vllm-sr/vela3-fast", Schema: table.SchemaVllmSR40})
	out, _, err := runConformance(t, "--url", url, "--schema", "vllm-sr/4.0", "--timeout", "10s")
	if err != nil || !regexp.MustCompile(`(?m)^(\d+) cases: (\d+) ok, 0 FAIL \(vllm-sr/4\.0 at `).MatchString(out) {
		t.Fatalf("%v\n%s", err, out)
	}
}

// The command against a Router 5.0 listener whose configuration has a
// vllm-sr/5.0 deployment (vllm-srun), a systemone/0.2 deployment (the
// kit's standard server) and a pool over both: every case passes, the
// listing's among them (every entry's version and features, and a
// release date, the pool's its newest member's), under the vllm-sr/5.0
// profile and the standard's, and the standard's schema violations are
// 422.
func TestConformanceCommandPassesRouterWithStandardAndPool(t *testing.T) {
	std := testkit.NewConformanceServer(t, testkit.ConformanceFaults{})
	template, err := os.ReadFile("../../runtime/conformance/testdata/router-mixed.yaml")
	if err != nil {
		t.Fatal(err)
	}
	config := strings.NewReplacer("UPSTREAM", startRuntime(t), "STANDARD", std.URL).Replace(string(template))
	run, _ := startRouterFrom(t, config)
	out, _, err := runConformance(t, "--url", run.URL("public5"), "--model", "vela", "--timeout", "10s")
	m := regexp.MustCompile(`(?m)^(\d+) cases: (\d+) ok, 0 FAIL \(vllm-sr/5\.0 at `).FindStringSubmatch(out)
	if err != nil || m == nil || m[1] != m[2] {
		t.Fatalf("%v\n%s", err, out)
	}
	// The standard's profile too: its listing requires every entry's
	// release_date, a pool's included (its newest member's). A vllm-sr/5.0
	// listener refuses an unknown member with 400 where the profile wants
	// 422, as vllm-srun's 5.0 does: those cases are the only failures.
	std02, _, _ := runConformance(t, "--url", run.URL("public5"), "--model", "vela", "--schema", "systemone/0.2", "--timeout", "10s")
	if !regexp.MustCompile(`(?m)^ok +GET +/v1/models +listing`).MatchString(std02) {
		t.Errorf("--schema systemone/0.2: the listing fails:\n%s", std02)
	}
	for _, line := range regexp.MustCompile(`(?m)^FAIL .*$`).FindAllString(std02, -1) {
		if !strings.Contains(line, "unknown-member/") {
			t.Errorf("--schema systemone/0.2: %s", line)
		}
	}
	for _, want := range []string{"ok    GET   /v1/models", "invalid/missing-questions", "invalid/state-number"} {
		if !strings.Contains(out, want) {
			t.Errorf("the report has no %q:\n%s", want, out)
		}
	}
}

// Against a broken standard server with --json: the report names the
// failed cases and the command fails (exit 1 in main).
func TestConformanceCommandFailsBrokenServer(t *testing.T) {
	srv := testkit.NewConformanceServer(t, testkit.ConformanceFaults{NoulOutOfRange: true, DropProbability: true, AcceptUnknown: true})
	out, _, err := runConformance(t, "--url", srv.URL, "--schema", "systemone/0.2", "--json")
	var report conformance.Report
	if jerr := json.Unmarshal([]byte(out), &report); jerr != nil {
		t.Fatalf("the output is not the JSON report: %v\n%s", jerr, out)
	}
	if err == nil || err.Error() != "9 of 18 conformance cases failed" {
		t.Errorf("error %v, want 9 of 18 failed", err)
	}
	if report.Failed != 9 || report.Model != testkit.ConformanceModel || report.Schema != "systemone/0.2" {
		t.Errorf("report %+v", report)
	}
	for _, r := range report.Results {
		if r.Name == "question/noul" && (r.OK || r.Reason != "answers.urgent.noul is 1.7, outside 0..1" || r.Status != 200) {
			t.Errorf("question/noul: %+v", r)
		}
	}
}

// --api-key-env sends the key as a bearer token and never prints it; an
// unset variable is an error naming the variable.
func TestConformanceCommandAPIKey(t *testing.T) {
	const key = "sk-conformance-secret"
	std := testkit.NewConformanceServer(t, testkit.ConformanceFaults{})
	guarded := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+key {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = io.WriteString(w, `{"detail":{"error_type":"authentication_error","message":"Cannot authenticate."}}`)
			return
		}
		std.Config.Handler.ServeHTTP(w, r)
	}))
	t.Cleanup(guarded.Close)

	t.Setenv("CONFORMANCE_KEY", key)
	out, errOut, err := runConformance(t, "--url", guarded.URL, "--schema", "systemone/0.2", "--api-key-env", "CONFORMANCE_KEY")
	if err != nil || strings.Contains(out+errOut, key) {
		t.Fatalf("%v\n%s%s", err, out, errOut)
	}
	_, _, err = runConformance(t, "--url", guarded.URL, "--schema", "systemone/0.2")
	if err == nil {
		t.Error("without the key every case should fail on 401")
	}
	t.Setenv("CONFORMANCE_KEY", "")
	_, _, err = runConformance(t, "--url", guarded.URL, "--api-key-env", "CONFORMANCE_KEY")
	if err == nil || !strings.Contains(err.Error(), "CONFORMANCE_KEY") {
		t.Errorf("error %v, want one naming the variable", err)
	}
}

func TestConformanceCommandRefusesBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"--url", "http://127.0.0.1:1", "--schema", "vllm-sr/6.0"},
		{"--url", "localhost:8100"},
	} {
		if _, _, err := runConformance(t, args...); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
}

// startRuntime starts vllm-srun (vela3-fast, vllm-sr/5.0) in-process on a
// free loopback port and waits, bounded, for its self-test.
func startRuntime(t testing.TB) string {
	t.Helper()
	return startRuntimeWith(t, srun.Config{Model: "vllm-sr/vela3-fast"})
}

// startRuntimeWith is startRuntime for cfg, on a free loopback port.
func startRuntimeWith(t testing.TB, cfg srun.Config) string {
	t.Helper()
	cfg.Addr, cfg.Logger = "127.0.0.1:0", slog.New(slog.NewTextHandler(io.Discard, nil))
	ctx, cancel := context.WithCancel(context.Background())
	run, err := srun.Start(ctx, cfg)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); _ = run.Wait() })
	if err := run.WaitReady(10 * time.Second); err != nil {
		t.Fatal(err)
	}
	return run.URL()
}

// The command against a port where nothing listens: one line saying no
// server answers there and no case ran, nothing on standard output (no
// report of one "connection refused" per case), and a non-zero exit.
func TestConformanceCommandStopsWhenNothingListens(t *testing.T) {
	out, _, err := runConformance(t, "--url", "http://127.0.0.1:1", "--timeout", "5s")
	if err == nil || out != "" || strings.Contains(err.Error(), "\n") ||
		!strings.Contains(err.Error(), "no server answers at http://127.0.0.1:1: ") || !strings.Contains(err.Error(), "no case was run") {
		t.Fatalf("stdout %q, error %v; want one line and no report", out, err)
	}
}
