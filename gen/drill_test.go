package gen

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vllm-sr/systemone/gen/docsite"
)

// TestSpecDrill is the maintainer's drill of specs/README.md, run on a copy
// of the repository: add a passive extension field (passive: true,
// stripped) to the request, to its options and to its questions, and one
// (passive: true, never_sent) to the answer and to the response, run
// srgen, refresh the model golden as the procedure says, and change
// nothing else. The whole module then builds and passes its tests (the
// seed test among them, which logs the fields as beyond the seed), the
// reference docs name the fields, the vllm-sr/5.0 writer carries them,
// vllm-sr/5.0 → internal → vllm-sr/5.0 keeps them byte for byte, the
// internal form writes them back byte for byte where a body put them,
// systemone/0.2 strips them, and a vllm-sr/5.0 model runtime accepts them
// and refuses a misspelling naming it. On the answer side, the copy's
// Router in front of a fake vllm-sr/5.0 upstream relays an answer and a
// response with the passive members to its 5.0 client unchanged, never
// relays them from a systemone/0.2 upstream, and refuses a misspelling
// with 502 saying where, never naming it (drill_answer_test.go). Then a
// field with runtime semantics (no passive) is bound: srgen refuses it
// until the IR has its field, naming the functions to write otherwise,
// and once the copy's IR has it, the Reader reads it into that field and
// the Writer writes it from there with no edit to runtime/shapes
// (drill_bound_test.go). It
// builds the whole module once, so -short skips it. The copy's tests run
// with -short, which leaves out only the suites judged by wall-clock
// deadlines or the sampled heap (slow clients, fixed-rate load, concurrent
// gzip bombs): no spec member reaches them, and beside the rest of make
// test their bounds would measure the busy machine.
func TestSpecDrill(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a copy of the module")
	}
	if os.Getenv("SRGEN_DRILL_COPY") != "" {
		t.Skip("inside the drill's own copy")
	}
	root := copyModule(t)
	addDrillFields(t, filepath.Join(root, "specs/systemone/vllm-sr-5.0.extensions.yaml"))
	run(t, root, "go", "run", "./cmd/srgen", "generate")
	run(t, root, "go", "run", "./cmd/srgen", "check")
	runEnv(t, root, []string{"SRGEN_UPDATE_GOLDEN=1"}, "go", "test", "-count=1", "./gen/model/")
	run(t, root, "go", "vet", "./runtime/...", "./cmd/...")
	run(t, root, "go", "test", "-count=1", "-short", "./...")

	golden, err := os.ReadFile(filepath.Join(root, "gen/model/testdata/model.golden.json"))
	if err != nil {
		t.Fatal(err)
	}
	seed := run(t, root, "go", "test", "-count=1", "-v", "-run", "^TestExtensionSpecCarriesTheSeed$", "./gen/model/")
	for _, want := range []string{"beyond the seed: field question.drill_tag", "drill_note", "drill_mark", "answer.drill_answer", "response.drill_trace"} {
		if !strings.Contains(seed, want) {
			t.Errorf("the seed test does not report %q:\n%s", want, seed)
		}
	}
	if !bytes.Contains(golden, []byte(`"drill_tag"`)) {
		t.Error("the refreshed model golden does not hold drill_tag")
	}

	ref, err := os.ReadFile(filepath.Join(root, "docs/reference/extension-reference.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"drill_mark", "drill_note", "drill_tag", "drill_answer", "drill_trace"} {
		if !bytes.Contains(ref, []byte(name)) {
			t.Errorf("the extension reference does not name %s", name)
		}
	}

	bin := t.TempDir()
	run(t, root, "go", "build", "-o", bin, "./cmd/vllm-sr", "./cmd/vllm-srun")
	const body = `{"model":"vllm-sr/vela3-fast","state":"Open a ticket.","questions":{"urgent":{"type":"noul","instructions":"Is it urgent?","drill_tag":"t1"}},"options":{"deadline_ms":5000,"drill_note":"n1"},"drill_mark":"m1"}`
	drilled := []string{`"drill_tag":"t1"`, `"drill_note":"n1"`, `"drill_mark":"m1"`}
	if v50 := convertBody(t, bin, "vllm-sr/5.0", "vllm-sr/5.0", body); v50 != body {
		t.Errorf("the vllm-sr/5.0 writer changed the body:\n got %s\nwant %s", v50, body)
	}
	internal := convertBody(t, bin, "vllm-sr/5.0", "internal", body)
	for _, member := range drilled {
		if !strings.Contains(internal, member) {
			t.Errorf("vllm-sr/5.0 → internal lost %s: %s", member, internal)
		}
	}
	if back := convertBody(t, bin, "internal", "vllm-sr/5.0", internal); back != body {
		t.Errorf("vllm-sr/5.0 → internal → vllm-sr/5.0 changed the body:\n got %s\nwant %s", back, body)
	}
	// The internal form replays the order a body gave, the passive
	// members' places included.
	const shuffled = `{"drill_mark":"m1","questions":{"urgent":{"drill_tag":"t1","instructions":"Is it urgent?","type":"noul"}},"options":{"drill_note":"n1","deadline_ms":5000},"state":"Open a ticket."}`
	if again := convertBody(t, bin, "internal", "internal", shuffled); again != shuffled {
		t.Errorf("internal → internal changed the body:\n got %s\nwant %s", again, shuffled)
	}
	standard := convertBody(t, bin, "vllm-sr/5.0", "systemone/0.2", body)
	if strings.Contains(standard, "drill_") {
		t.Errorf("systemone/0.2 kept a stripped field: %s", standard)
	}

	base := startRuntime(t, bin)
	if status, reply := post(t, base, body); status != http.StatusOK {
		t.Errorf("the 5.0 runtime answered %d to the new fields: %s", status, reply)
	}
	for _, name := range []string{"drill_tag", "drill_mark"} {
		misspelt := strings.Replace(body, name, name+"x", 1)
		if status, reply := post(t, base, misspelt); status != http.StatusBadRequest || !strings.Contains(reply, name+"x") {
			t.Errorf("a misspelt member answered %d, not 400 naming it: %s", status, reply)
		}
	}

	drillAnswerSide(t, bin)

	drillBoundMember(t, root)
}

// drillField is a new spec entry, put before the one line that is before.
type drillField struct{ before, entry string }

// drillFields are the drill's new spec entries: one at the end of each of
// the request's, the options' and the question's lists.
var drillFields = []drillField{
	{"  options:\n", `    - name: drill_mark
      type: string
      since: "5.0"
      families: all
      on_systemone_0_2: stripped
      passive: true
      description: The drill's new request member.
`},
	{"  question:\n", `    - name: drill_note
      type: string
      since: "5.0"
      families: all
      on_systemone_0_2: stripped
      passive: true
      description: The drill's new option.
`},
	{"  question_type:\n", `    - name: drill_tag
      type: string
      since: "5.0"
      families: all
      on_systemone_0_2: stripped
      passive: true
      description: The drill's new question member.
`},
}

func addDrillFields(t *testing.T, path string) {
	extendSpec(t, path, append(append([]drillField{}, drillFields...), drillAnswerFields...))
}

func extendSpec(t *testing.T, path string, fields []drillField) {
	t.Helper()
	spec, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(spec)
	for _, f := range fields {
		if strings.Count(text, f.before) != 1 {
			t.Fatalf("the extension spec has no single %q list to extend", strings.TrimSpace(f.before))
		}
		text = strings.Replace(text, f.before, f.entry+f.before, 1)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// copyModule copies what the module builds and tests from into a
// temporary root: go.mod, go.sum, the source folders, README.md and
// the Makefile, whose links and commands the docs tests check, and
// deploy/, whose router.yaml the configuration schema's test reads (its
// own module, deploy/check, is not in the module's ./...).
func copyModule(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for _, name := range []string{"go.mod", "go.sum", "README.md", "Makefile"} {
		copyFile(t, filepath.Join(repoRoot, name), filepath.Join(root, name))
	}
	for _, dir := range []string{"specs", "gen", "generated", "runtime", "cmd", "docs", "deploy"} {
		err := filepath.WalkDir(filepath.Join(repoRoot, dir), func(p string, d fs.DirEntry, err error) error {
			rel, _ := filepath.Rel(repoRoot, p)
			switch {
			case err != nil:
				return err
			// npm's packages, and the doc site project with what make site
			// leaves in it (its packages, pages and build), are no source.
			case d.IsDir() && (d.Name() == "node_modules" || rel == filepath.Join("docs", docsite.SiteDir)):
				return filepath.SkipDir
			case d.IsDir():
				return nil
			}
			copyFile(t, p, filepath.Join(root, rel))
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// run runs a command in dir with a deadline and fails the test with its
// output when it fails.
func run(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	return runEnv(t, dir, nil, name, args...)
}

// runEnv is run with env added to the environment.
func runEnv(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "SRGEN_DRILL_COPY=1"), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

func convertBody(t *testing.T, bin, from, to, body string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(bin, "vllm-sr"), "convert", "--from", from, "--to", to)
	cmd.Stdin = strings.NewReader(body)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("convert %s → %s: %v\n%s", from, to, err, stderr.String())
	}
	return strings.TrimSpace(string(out))
}

// startRuntime starts vllm-srun with vllm-sr/5.0 on a free loopback port
// and waits for /health, at most 30 seconds.
func startRuntime(t *testing.T, bin string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, filepath.Join(bin, "vllm-srun"), "serve", "vllm-sr/vela3-fast",
		"--host", "127.0.0.1", "--port", fmt.Sprint(port), "--systemone-schema", "vllm-sr/5.0")
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); _ = cmd.Wait() })
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	client := &http.Client{Timeout: time.Second}
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		resp, err := client.Get(base + "/health")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return base
			}
		}
	}
	t.Fatal("vllm-srun did not become ready within 30 s")
	return ""
}

func post(t *testing.T, base, body string) (int, string) {
	t.Helper()
	client := &http.Client{Timeout: 10 * time.Second}
	resp, err := client.Post(base+"/v1/systemone", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var buf bytes.Buffer
	_, _ = buf.ReadFrom(resp.Body)
	return resp.StatusCode, buf.String()
}
