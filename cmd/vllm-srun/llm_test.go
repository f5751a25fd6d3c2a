package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vllm-sr/systemone/runtime/llm"
	"github.com/vllm-sr/systemone/runtime/testkit"
)

// serve's LLM flags refuse what cannot work, in one line naming the flag.
func TestServeLLMRefusals(t *testing.T) {
	dir := t.TempDir()
	badCal := filepath.Join(dir, "cal.json")
	if err := os.WriteFile(badCal, []byte(`{"format": "other/1"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--llm-url", "http://127.0.0.1:1/v1"}, "--llm-url needs --llm-model"},
		{[]string{"vllm-sr/vela3-fast", "--llm-url", "http://127.0.0.1:1/v1", "--llm-model", "m"}, "serve takes MODEL or --llm-url, not both"},
		{[]string{"--llm-url", "http://127.0.0.1:1/v1", "--llm-model", "m", "--max-concurrency", "0"}, "--max-concurrency must be at least 1"},
		{[]string{"--llm-url", "http://127.0.0.1:1/v1", "--llm-model", "m", "--llm-api-key-env", "VSR_TEST_UNSET_KEY"}, "--llm-api-key-env VSR_TEST_UNSET_KEY: the variable is not set"},
		{[]string{"--llm-url", "http://127.0.0.1:1/v1", "--llm-model", "m", "--calibration", badCal}, `--calibration: ` + badCal + `: format "other/1", want "vllm-srun-calibration/1"`},
		{[]string{"--llm-url", "http://127.0.0.1:1/v1", "--llm-model", "m", "--llm-backend", "tgi"}, `unknown LLM backend "tgi"; supported: auto, vllm, llama.cpp, ollama, openai`},
		{[]string{"--llm-url", "127.0.0.1:1/v1", "--llm-model", "m"}, `is not http:// or https://`},
		{[]string{}, "serve needs MODEL"},
	}
	for _, c := range cases {
		err := runServe(t, c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: got %v, want one line containing %q", c.args, err, c.want)
		}
	}
}

func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// `vllm-srun serve --llm-url ... --llm-model ... --name ...` serves the
// backend's model under the name, answers the Try-it request from the
// backend's log-probabilities, and sends the backend's key.
func TestServeLLMCommand(t *testing.T) {
	b := testkit.NewLLMBackend(t, testkit.LLMBackendOptions{APIKey: "sk-backend"})
	t.Setenv("VSR_TEST_LLM_KEY", "sk-backend")
	port := freePort(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		root := newRoot()
		root.SetArgs([]string{"serve", "--llm-url", b.URL(), "--llm-model", "qwen3-8b", "--name", "local-qwen",
			"--llm-api-key-env", "VSR_TEST_LLM_KEY", "--max-concurrency", "2", "--port", strconv.Itoa(port), "--log-level", "error"})
		root.SetOut(io.Discard)
		root.SetErr(io.Discard)
		done <- root.ExecuteContext(ctx)
	}()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve ended with %v", err)
		}
	}()
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	deadline := time.Now().Add(10 * time.Second)
	for {
		resp, err := http.Get(base + "/ready")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("not ready: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	resp, err := http.Post(base+"/v1/systemone", "application/json", strings.NewReader(`{"model": "local-qwen",
"state": "Our export button fails with a 500 since this morning. Open a ticket.",
"questions": {"urgent": {"type": "noul", "instructions": "Does the user report a problem that blocks their work?"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !bytes.Contains(body, []byte(`"noul":0.`)) || !bytes.Contains(body, []byte(`"model":"local-qwen"`)) {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	calls := b.Calls()
	if got := calls[len(calls)-1].Header.Get("Authorization"); got != "Bearer sk-backend" {
		t.Errorf("the backend got Authorization %q", got)
	}
}

// `vllm-srun calibrate` reads labelled requests, writes a calibration
// file serve loads, and prints the measures before and after.
func TestCalibrateCommand(t *testing.T) {
	b := testkit.NewLLMBackend(t, testkit.LLMBackendOptions{})
	dir := t.TempDir()
	var lines []string
	for i := range 12 {
		state := "My card was charged twice, refund the charge."
		want := "true"
		if i%3 == 0 {
			state, want = "The export button fails since this morning.", "false"
		}
		lines = append(lines, fmt.Sprintf(`{"request": {"state": %q, "questions": {"charged": {"type": "noul", "instructions": "Was the card charged twice? (%d)", "criteria": {"true": "The card was charged twice", "false": "Nothing about a charge"}}}}, "expected": {"charged": %s}}`, state, i, want))
	}
	data := filepath.Join(dir, "data.jsonl")
	if err := os.WriteFile(data, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "cal.json")
	var stdout bytes.Buffer
	root := newRoot()
	root.SetArgs([]string{"calibrate", "--llm-url", b.URL(), "--llm-model", "qwen3-8b", "--data", data, "--out", out})
	root.SetOut(&stdout)
	root.SetErr(io.Discard)
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	c, err := llm.LoadCalibration(out)
	if err != nil {
		t.Fatal(err)
	}
	if c.Prompts != llm.PromptsVersion || c.Model != "qwen3-8b" || c.Temperatures["noul"] <= 0 || len(c.Report) != 1 || c.Report[0].Test != 2 {
		t.Errorf("calibration %+v", c)
	}
	if !strings.Contains(stdout.String(), "12 samples") || !strings.Contains(stdout.String(), "noul") {
		t.Errorf("report:\n%s", stdout.String())
	}
	// A line that is not a labelled request names its line.
	if err := os.WriteFile(data, []byte(lines[0]+"\n{\"request\": 1}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	root = newRoot()
	root.SetArgs([]string{"calibrate", "--llm-url", b.URL(), "--llm-model", "qwen3-8b", "--data", data, "--out", out})
	root.SetOut(io.Discard)
	root.SetErr(io.Discard)
	if err := root.Execute(); err == nil || !strings.Contains(err.Error(), "data.jsonl:2:") {
		t.Errorf("a bad line: %v", err)
	}
}
