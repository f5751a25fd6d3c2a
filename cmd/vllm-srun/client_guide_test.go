package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vllm-sr/systemone/runtime/testkit"
)

// clientGuide is the guide whose every example this file runs.
const clientGuide = "docs/writing-a-client.md"

// sdkDir holds the official JavaScript SDK and TypeScript, pinned by its
// package-lock.json (runtime/srun's SDK test drives the same SDK).
const sdkDir = "../../runtime/srun/testdata/sdkjs"

// Every example of Writing a client, run against vllm-srun serving
// vllm-sr/vela3-fast as make run does: each curl prints exactly the line
// the guide shows; the Python script prints, request by request, the
// same status and answer; the TypeScript file compiles with tsc --strict
// and prints what its comment says.
func TestWritingAClientExamples(t *testing.T) {
	base := startGuideRuntime(t, "vllm-sr/vela3-fast")
	curls := guideExamples(t, clientGuide, "curl")
	if len(curls) < 8 {
		t.Fatalf("only %d curl examples found", len(curls))
	}
	var want []string // each curl's status and answer, as the Python example prints them
	for _, ex := range curls {
		status, answer := testkit.GuideCurl(t, base, guideHost, ex.Args[1:])
		if shown := strings.Join(ex.Output, "\n"); answer != shown {
			t.Errorf("%s:\n got %s\nwant %s (the guide)", ex.Command, answer, shown)
		}
		want = append(want, statusLine(status, answer))
	}
	t.Run("python", func(t *testing.T) {
		python, err := exec.LookPath("python3")
		if err != nil {
			t.Skip("python3 is not installed; the Python example needs it")
		}
		block := codeBlock(t, clientGuide, "python")
		script := filepath.Join(t.TempDir(), "client.py")
		if err := os.WriteFile(script, []byte(sendTo(t, block.Text, `"http://127.0.0.1:8100"`, `"`+base+`"`)), 0o600); err != nil {
			t.Fatal(err)
		}
		out := run(t, time.Minute, "", python, "-I", script)
		if got := strings.Split(strings.TrimSuffix(out, "\n"), "\n"); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("the Python example printed\n%s\nwant, as curl got them,\n%s", out, strings.Join(want, "\n"))
		}
	})
	t.Run("typescript", func(t *testing.T) { checkTypeScriptExample(t, base) })
}

// checkTypeScriptExample compiles the guide's TypeScript file with the
// pinned tsc --strict beside a copy that passes the extension fields as an
// object literal in the call (which tsc must refuse: the guide says why
// it uses a typed variable), then runs the compiled file and compares
// what it prints with the comment on its last line.
func checkTypeScriptExample(t *testing.T, base string) {
	node, errNode := exec.LookPath("node")
	npm, errNpm := exec.LookPath("npm")
	if errNode != nil || errNpm != nil {
		t.Skip("node and npm are not installed; .ci/run installs them, and this test needs them")
	}
	if _, err := os.Stat(filepath.Join(sdkDir, "node_modules", "typescript", "bin", "tsc")); err != nil {
		run(t, 3*time.Minute, sdkDir, npm, "ci", "--no-audit", "--no-fund")
	}
	modules, err := filepath.Abs(filepath.Join(sdkDir, "node_modules"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Symlink(modules, filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	src := sendTo(t, codeBlock(t, clientGuide, "ts").Text, `"http://127.0.0.1:8100"`, `"`+base+`"`)
	const call = "await client.systemOne(request)"
	if !strings.Contains(src, call) {
		t.Fatalf("the example has no %q", call)
	}
	literal := strings.Replace(src, call, `await client.systemOne({ state: "hi", questions, roles: { request: "user" } })`, 1)
	for name, text := range map[string]string{"client.mts": src, "literal.mts": literal} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	tsc := exec.Command(node, filepath.Join(modules, "typescript", "bin", "tsc"), "--strict", "--module", "nodenext",
		"--target", "es2022", "--outDir", "out", "client.mts", "literal.mts")
	tsc.Dir = dir
	diagnostics, _ := tsc.CombinedOutput() // it fails: literal.mts must not compile
	for _, line := range strings.Split(strings.TrimSpace(string(diagnostics)), "\n") {
		if !strings.HasPrefix(line, "literal.mts(") {
			t.Errorf("tsc --strict: %s", line)
		}
	}
	if !bytes.Contains(diagnostics, []byte("'roles' does not exist in type")) {
		t.Errorf("tsc --strict accepted the extension fields as a literal in the call; the guide says it refuses them:\n%s", diagnostics)
	}
	printed := run(t, time.Minute, dir, node, filepath.Join("out", "client.mjs"))
	lines := strings.Split(strings.TrimSpace(src), "\n")
	_, comment, ok := strings.Cut(lines[len(lines)-1], "// ")
	if !ok || strings.TrimSpace(printed) != comment {
		t.Errorf("the TypeScript example printed %q; its comment says %q", strings.TrimSpace(printed), comment)
	}
}

// run runs a program in dir, bounded by limit, and returns its standard
// output; a failure fails the test with both outputs.
func run(t *testing.T, limit time.Duration, dir, prog string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, prog, args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\nstdout: %s\nstderr: %s", prog, strings.Join(args, " "), err, stdout.String(), stderr.String())
	}
	return stdout.String()
}
