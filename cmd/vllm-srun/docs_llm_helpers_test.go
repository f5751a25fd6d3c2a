package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/vllm-sr/systemone/gen/docsite"
	"github.com/vllm-sr/systemone/runtime/testkit"
)

// The helpers of docs_llm_test.go: reading docs/serving-an-llm.md, and
// running its commands in process against fake backends.

// llmGuide is the guide as the docs checks read it.
type llmGuide struct {
	doc  docsite.Doc
	text string
	cmds []docsite.Command
}

func readLLMGuide(t *testing.T) *llmGuide {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(guidesRoot, llmGuidePath))
	if err != nil {
		t.Fatal(err)
	}
	doc := docsite.Scan(data)
	cmds, errs := docsite.Commands(llmGuidePath, doc)
	for _, err := range errs {
		t.Error(err)
	}
	return &llmGuide{doc: doc, text: string(data), cmds: cmds}
}

// runs are the guide's commands of prog whose arguments start with
// words, each as the program's arguments.
func (g *llmGuide) runs(prog string, words ...string) []docsite.Command {
	var out []docsite.Command
	for _, c := range g.cmds {
		p, args, _ := docsite.Program(c.Args)
		if p == prog && len(args) >= len(words) && slices.Equal(args[:len(words)], words) {
			out = append(out, docsite.Command{File: c.File, Line: c.Line, Args: args})
		}
	}
	return out
}

// blocks are the guide's fenced blocks of lang whose text starts with
// prefix.
func (g *llmGuide) blocks(lang, prefix string) []docsite.Block {
	var out []docsite.Block
	for _, b := range g.doc.Blocks {
		if b.Lang == lang && strings.HasPrefix(b.Text, prefix) {
			out = append(out, b)
		}
	}
	return out
}

// flagValue is the value of --name in args ("" when absent).
func flagValue(args []string, name string) string {
	for i, a := range args {
		if a == name && i+1 < len(args) {
			return args[i+1]
		}
		if v, ok := strings.CutPrefix(a, name+"="); ok {
			return v
		}
	}
	return ""
}

// withFlag is args with --name's value replaced, or --name value added.
func withFlag(args []string, name, value string) []string {
	out := slices.Clone(args)
	for i, a := range out {
		if a == name && i+1 < len(out) {
			out[i+1] = value
			return out
		}
		if strings.HasPrefix(a, name+"=") {
			out[i] = name + "=" + value
			return out
		}
	}
	return append(out, name, value)
}

// lockedBuffer is a buffer a command's goroutine writes while the test
// reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// startGuideServe runs a guide's serve command (args, the program's
// arguments) in process on a free port, waits until it is ready (at most
// 15 s), and returns its base URL; the test's cleanup stops it and checks
// that it stopped cleanly.
func startGuideServe(t *testing.T, args []string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	args = append(withFlag(args, "--port", strconv.Itoa(port)), "--log-level", "warn")
	logs := &lockedBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		root := newRoot()
		root.SetArgs(args)
		root.SetOut(io.Discard)
		root.SetErr(logs)
		done <- root.ExecuteContext(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("vllm-srun %s ended with %v", strings.Join(args, " "), err)
			}
		case <-time.After(15 * time.Second):
			t.Errorf("vllm-srun %s did not stop", strings.Join(args, " "))
		}
	})
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	client := &http.Client{Timeout: time.Second}
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		select {
		case err := <-done:
			t.Fatalf("vllm-srun %s ended before it was ready: %v\n%s", strings.Join(args, " "), err, logs)
		default:
		}
		resp, err := client.Get(base + "/ready")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return base
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("vllm-srun %s was not ready within 15s: %v\n%s", strings.Join(args, " "), err, logs)
		}
	}
}

// postJSON posts body and returns the status and the decoded answer.
func postJSON(t *testing.T, u, body string) (int, map[string]any, []byte) {
	t.Helper()
	c := &http.Client{Timeout: 20 * time.Second}
	resp, err := c.Post(u, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("%s answered %d, not JSON: %s", u, resp.StatusCode, raw)
	}
	return resp.StatusCode, m, raw
}

// answerAt walks a decoded answer by keys.
func answerAt(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

// inRange reports whether v is a number within [lo, hi].
func inRange(v any, lo, hi float64) bool {
	f, ok := v.(float64)
	return ok && f >= lo && f <= hi
}

// guideBackend starts the fake backend the command's --llm-url stands
// for, serving its --llm-model, with the key its --llm-api-key-env names,
// and returns the command's arguments pointed at it.
func guideBackend(t *testing.T, c docsite.Command) ([]string, *testkit.LLMBackend) {
	t.Helper()
	flavor, ok := llmGuideBackends[flagValue(c.Args, "--llm-url")]
	if !ok {
		t.Fatalf("%s: the test knows no server at %q: add its flavor to llmGuideBackends", c, flagValue(c.Args, "--llm-url"))
	}
	o := testkit.LLMBackendOptions{Flavor: flavor, Model: flagValue(c.Args, "--llm-model")}
	if env := flagValue(c.Args, "--llm-api-key-env"); env != "" {
		o.APIKey = "sk-guide-test"
		t.Setenv(env, o.APIKey)
	}
	b := testkit.NewLLMBackend(t, o)
	return withFlag(c.Args, "--llm-url", b.URL()), b
}

// runGuideCalibrate runs the guide's calibrate command against b, on the
// guide's labelled example lines, writing to a file of dir; it returns the
// file and what the command printed.
func runGuideCalibrate(t *testing.T, g *llmGuide, c docsite.Command, b *testkit.LLMBackend, dir string) (string, string) {
	t.Helper()
	blocks := g.blocks("json", `{"request"`)
	if len(blocks) != 1 {
		t.Fatalf("the guide has %d blocks of labelled lines, want 1", len(blocks))
	}
	data := filepath.Join(dir, filepath.Base(flagValue(c.Args, "--data")))
	if err := os.WriteFile(data, []byte(blocks[0].Text), 0o600); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, filepath.Base(flagValue(c.Args, "--out")))
	args := withFlag(withFlag(withFlag(c.Args, "--llm-url", b.URL()), "--data", data), "--out", out)
	var stdout bytes.Buffer
	root := newRoot()
	root.SetArgs(args)
	root.SetOut(&stdout)
	root.SetErr(io.Discard)
	if err := root.Execute(); err != nil {
		t.Fatalf("%s: %v", c, err)
	}
	return out, stdout.String()
}

func orElse(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// decideArgs reads a vllm-sr decide command's --rule and --input values.
func decideArgs(t *testing.T, args []string) ([]string, map[string]string) {
	t.Helper()
	fs := (&cobra.Command{}).Flags()
	rules := fs.StringArray("rule", nil, "")
	inputs := fs.StringArray("input", nil, "")
	fs.String("config", "", "")
	if err := fs.Parse(args[1:]); err != nil {
		t.Fatal(err)
	}
	input := map[string]string{}
	for _, in := range *inputs {
		part, text, ok := strings.Cut(in, "=")
		if !ok {
			t.Fatalf("--input %q is not PART=TEXT", in)
		}
		input[part] = text
	}
	if len(*rules) == 0 {
		t.Fatal("the decide command names no rule")
	}
	return *rules, input
}
