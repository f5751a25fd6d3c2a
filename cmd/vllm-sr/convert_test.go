package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/generated/corpus"
)

const corpusFile = "../../runtime/shapes/testdata/requests/escapes-and-literals.json"

// runConvert runs the convert command in process, as main does.
func runConvert(t *testing.T, stdin string, args ...string) (stdout string, err error) {
	t.Helper()
	var out bytes.Buffer
	root := newRoot()
	root.SetArgs(append([]string{"convert"}, args...))
	root.SetIn(strings.NewReader(stdin))
	root.SetOut(&out)
	root.SetErr(&out)
	err = root.Execute()
	return out.String(), err
}

func TestConvertCommandFromFileAndStdin(t *testing.T) {
	body, err := os.ReadFile(corpusFile)
	if err != nil {
		t.Fatal(err)
	}
	fromFile, err := runConvert(t, "", "--from", "internal", "--to", "internal", corpusFile)
	if err != nil {
		t.Fatal(err)
	}
	if fromFile != string(bytes.TrimSpace(body))+"\n" {
		t.Fatalf("got %s\nwant %s", fromFile, body)
	}
	fromStdin, err := runConvert(t, string(body), "--from", "internal", "--to", "internal", "-")
	if err != nil || fromStdin != fromFile {
		t.Fatalf("stdin gave %q, %v", fromStdin, err)
	}
}

func TestConvertCommandErrors(t *testing.T) {
	cases := []struct {
		name, stdin string
		args        []string
		want        string
	}{
		{"missing --to", "{}", []string{"--from", "internal"}, `required flag(s) "to" not set`},
		{"unknown schema", "{}", []string{"--from", "internal", "--to", "vllm-sr/4.0"}, `unknown schema "vllm-sr/4.0" for --to; supported: internal, systemone/0.2, vllm-sr/5.0`},
		{"unknown deviation", "{}", []string{"--from", "internal", "--to", "systemone/0.2", "--deviation", "ascii_only"}, `unknown deviation "ascii_only"; supported: state_text`},
		{"refused body", `{"state":"s","questions":{"q":{"type":"noul","stream":1}}}`, []string{"--from", "internal", "--to", "internal"},
			`questions.q.stream: member "stream" is not defined by the schema (unknown_member)`},
		{"missing file", "", []string{"--from", "internal", "--to", "internal", "no-such-file.json"}, "no such file"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := runConvert(t, c.stdin, c.args...)
			if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("got %v, want one line containing %q", err, c.want)
			}
		})
	}
}

// TestConvertRefusalNamesTheBodysPaths: what the target schema cannot
// carry is named by the paths the user wrote, and no deployment (convert
// sends nothing anywhere).
func TestConvertRefusalNamesTheBodysPaths(t *testing.T) {
	body := `{"model":"m","state":"hi ⟦vid-1⟧","questions":{"p":{"type":"span","instructions":"Where?","criteria":{"e":"An e-mail address"}}},` +
		`"assets":{"⟦vid-1⟧":{"type":"video","format":"mp4","data_base64":"AAAA"}}}`
	_, err := runConvert(t, body, "--from", "vllm-sr/5.0", "--to", "systemone/0.2")
	want := `the systemone/0.2 schema cannot carry the request: span question at questions.p.type; video asset at assets["⟦vid-1⟧"]`
	if err == nil || err.Error() != want {
		t.Fatalf("got %v\nwant %s", err, want)
	}
}

// TestConvertBinary builds vllm-sr and runs it on every generated corpus
// file and a hand-written one full of escapes and odd literals: the output
// is the body, and a refused body exits non-zero with one line.
func TestConvertBinary(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool on PATH to build the binary with")
	}
	bin := filepath.Join(t.TempDir(), "vllm-sr")
	if out, err := exec.Command(goTool, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	files := []string{corpusFile}
	for _, c := range corpus.Cases {
		files = append(files, filepath.Join("..", "..", "generated", "corpus", filepath.FromSlash(c.Path)))
	}
	for _, file := range files {
		body, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(bin, "convert", "--from", "internal", "--to", "internal", file).Output()
		if err != nil {
			t.Fatalf("convert %s: %v", file, err)
		}
		if string(out) != string(bytes.TrimSpace(body))+"\n" {
			t.Fatalf("%s: got %s\nwant %s", file, out, body)
		}
	}

	cmd := exec.Command(bin, "convert", "--from", "internal", "--to", "internal")
	cmd.Stdin = strings.NewReader(`{"state":"s"}`)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	if exit, ok := err.(*exec.ExitError); !ok || exit.ExitCode() == 0 {
		t.Fatalf("a refused body must exit non-zero, got %v", err)
	}
	if stdout.Len() != 0 {
		t.Errorf("wrote %q to stdout on failure", stdout.String())
	}
	want := "vllm-sr: the internal schema refuses the body: questions: required member \"questions\" is missing (missing_member)\n"
	if stderr.String() != want {
		t.Errorf("stderr %q, want %q", stderr.String(), want)
	}
}
