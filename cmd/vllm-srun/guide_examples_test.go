package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/vllm-sr/systemone/gen/docsite"
	"github.com/vllm-sr/systemone/runtime/srun"
)

// guideHost is where the guides' examples send: make run's server.
const guideHost = "localhost:8100"

// startGuideRuntime serves model as make run serves vllm-sr/vela3-fast,
// on a free loopback port, and returns its root URL once its self-test
// passed.
func startGuideRuntime(t *testing.T, model string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	run, err := srun.Start(ctx, srun.Config{Model: model, Addr: "127.0.0.1:0",
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
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

// guideExamples are the console examples of a guide (a path from the
// repository root) whose program is prog.
func guideExamples(t *testing.T, file, prog string) []docsite.Example {
	t.Helper()
	data, err := os.ReadFile("../../" + file)
	if err != nil {
		t.Fatal(err)
	}
	all, errs := docsite.ConsoleExamples(file, docsite.Scan(data))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var out []docsite.Example
	for _, e := range all {
		if e.Args[0] == prog {
			out = append(out, e)
		}
	}
	return out
}

// codeBlock is the guide's one block of language lang.
func codeBlock(t *testing.T, file, lang string) docsite.Block {
	t.Helper()
	data, err := os.ReadFile("../../" + file)
	if err != nil {
		t.Fatal(err)
	}
	var found []docsite.Block
	for _, b := range docsite.Scan(data).Blocks {
		if b.Lang == lang {
			found = append(found, b)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%s has %d %s blocks, want 1", file, len(found), lang)
	}
	return found[0]
}

// sendTo is the block's text with the guide's server address replaced by
// base's; the address must be in it.
func sendTo(t *testing.T, text, guideURL, base string) string {
	t.Helper()
	if !strings.Contains(text, guideURL) {
		t.Fatalf("the example does not send to %s", guideURL)
	}
	return strings.ReplaceAll(text, guideURL, base)
}

// statusLine is an answer as the Python example prints it.
func statusLine(status int, answer string) string { return fmt.Sprintf("%d %s", status, answer) }
