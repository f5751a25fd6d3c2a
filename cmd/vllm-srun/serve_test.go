package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func runServe(t *testing.T, args ...string) error {
	t.Helper()
	var out bytes.Buffer
	root := newRoot()
	root.SetArgs(append([]string{"serve"}, args...))
	root.SetOut(&out)
	root.SetErr(&out)
	return root.Execute()
}

// A model, schema or device the server does not support is one line
// listing the supported ones.
func TestServeRefusesUnknownSettings(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"vllm-sr/nope"}, `unknown model "vllm-sr/nope"; supported: vllm-sr/decision1, `},
		{[]string{"vllm-sr/vela3-fast", "--systemone-schema", "vllm-sr/3.0"}, `unknown schema "vllm-sr/3.0"; supported: vllm-sr/4.0, vllm-sr/5.0`},
		{[]string{"vllm-sr/vela3-fast", "--device", "cuda"}, `unknown device "cuda"; supported: cpu`},
		{[]string{"vllm-sr/vela3-fast", "--max-in-flight", "0"}, "--max-in-flight must be at least 1"},
		{[]string{"vllm-sr/vela3-fast", "--port", "70000"}, "--port must be 0 to 65535"},
		{[]string{"vllm-sr/vela3-fast", "--log-level", "loud"}, `unknown --log-level "loud"; supported: debug, info, warn, error`},
		{[]string{"vllm-sr/vela3-fast", "--log-format", "yaml"}, `unknown --log-format "yaml"; supported: json, text`},
		{[]string{"vllm-sr/vela3-fast", "--read-timeout", "0s"}, "--read-timeout must be positive"},
		{[]string{}, "serve needs MODEL, the model to serve (one of vllm-sr/decision1, "},
		{[]string{"vllm-sr/vela3-fast", "vllm-sr/vela3"}, "serve takes one MODEL, got 2 arguments: vllm-sr/vela3-fast vllm-sr/vela3"},
	}
	for _, c := range cases {
		err := runServe(t, c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: got %v, want one line containing %q", c.args, err, c.want)
		}
	}
}

// The real binary prints its version, serves the model: it becomes ready,
// answers the seed's "Try it" request, and stops cleanly on SIGTERM.
func TestServeBinary(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool on PATH to build the binary with")
	}
	bin := filepath.Join(t.TempDir(), "vllm-srun")
	if out, err := exec.Command(goTool, "build", "-buildvcs=auto", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	// --version names the module version and, in a git tree, the revision.
	version, err := exec.Command(bin, "--version").Output()
	if err != nil || !strings.HasPrefix(string(version), "vllm-srun ") {
		t.Fatalf("--version: %v %q", err, version)
	}
	if exec.Command("git", "rev-parse", "--is-inside-work-tree").Run() == nil && strings.Contains(string(version), "revision unknown") {
		t.Errorf("a build in a git tree names no revision: %q", version)
	}
	cmd := exec.Command(bin, "serve", "vllm-sr/vela3-fast", "--device", "cpu", "--port", "0")
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	logs := &bytes.Buffer{}
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			logs.WriteString(sc.Text() + "\n")
			var line struct{ Msg, Addr string }
			if json.Unmarshal(sc.Bytes(), &line) == nil && line.Msg == "listening" {
				addr <- line.Addr
			}
		}
		exited <- cmd.Wait()
	}()
	defer func() { _ = cmd.Process.Kill() }()
	var base string
	select {
	case a := <-addr:
		base = "http://" + a
	case <-time.After(30 * time.Second):
		t.Fatalf("the binary did not log its address:\n%s", logs)
	}
	waitHealthy(t, base)
	checkHelpEndpoints(t, bin, base)

	resp, err := http.Post(base+"/v1/systemone", "application/json", strings.NewReader(`{
"state": "Our export button fails with a 500 since this morning. Open a ticket.",
"questions": {"urgent": {"type": "noul",
"instructions": "Does the user report a problem that blocks their work?"}}
}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var got struct {
		Answers map[string]struct {
			Type string   `json:"type"`
			Noul *float64 `json:"noul"`
		} `json:"answers"`
	}
	if resp.StatusCode != http.StatusOK || json.Unmarshal(body, &got) != nil ||
		got.Answers["urgent"].Type != "noul" || got.Answers["urgent"].Noul == nil {
		t.Fatalf("Try it: %d %s", resp.StatusCode, body)
	}

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("the binary exited with %v after SIGTERM:\n%s", err, logs)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("the binary did not stop on SIGTERM")
	}
	if !strings.Contains(logs.String(), `"msg":"stopped"`) {
		t.Errorf("no stop logged:\n%s", logs)
	}
}

// waitHealthy polls GET /health until 200, at most 10 s.
func waitHealthy(t *testing.T, base string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		resp, err := http.Get(base + "/health")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
	}
	t.Fatal("the binary was not healthy within 10s")
}

// checkHelpEndpoints: serve --help names every endpoint, /ready among
// them, and each one it names answers its method on the running binary
// (neither 404 nor 405); a path it does not name is 404, so the probe can
// fail.
func checkHelpEndpoints(t *testing.T, bin, base string) {
	t.Helper()
	help, err := exec.Command(bin, "serve", "--help").Output()
	if err != nil {
		t.Fatalf("serve --help: %v", err)
	}
	text, _, _ := strings.Cut(string(help), "with MODEL")
	endpoints := map[string]string{} // path to method
	method := ""
	for _, word := range strings.Fields(strings.NewReplacer(",", " ", " and ", " ").Replace(text)) {
		switch {
		case word == http.MethodPost || word == http.MethodGet:
			method = word
		case strings.HasPrefix(word, "/"):
			endpoints[word] = method
		}
	}
	for _, want := range []string{"/ready", "/health", "/metrics", "/v1/models", "/v1/systemone", "/v1/decisions"} {
		if endpoints[want] == "" {
			t.Errorf("serve --help does not name %s: %s", want, text)
		}
	}
	probe := func(method, path string) int {
		req, _ := http.NewRequest(method, base+path, strings.NewReader("{}"))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	for path, method := range endpoints {
		if status := probe(method, path); status == http.StatusNotFound || status == http.StatusMethodNotAllowed {
			t.Errorf("serve --help names %s %s, which answers %d", method, path, status)
		}
	}
	if status := probe(http.MethodGet, "/v1/not-an-endpoint"); status != http.StatusNotFound {
		t.Errorf("an unnamed path answers %d, want 404", status)
	}
}
