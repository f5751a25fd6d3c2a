package gen

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/gen/configschema"
	"github.com/vllm-sr/systemone/gen/emit"
	"github.com/vllm-sr/systemone/gen/write"
	"github.com/vllm-sr/systemone/runtime/table"
)

const repoRoot = ".."

// scratchRepo copies specs/, the hand-written Go the binding reads
// (runtime/shapes' and runtime/ir's, not srgen's zz_generated files), and
// runtime/routerconfig/file.go, which router.yaml's schema is written
// from, into a temporary root, so a test can generate, edit and check
// without touching the working tree.
func scratchRepo(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for _, dir := range []string{"specs", "runtime/shapes", "runtime/ir"} {
		copyTree(t, root, dir)
	}
	form, err := os.ReadFile(filepath.Join(repoRoot, filepath.FromSlash(configschema.Source)))
	if err != nil {
		t.Fatal(err)
	}
	mustWrite(t, filepath.Join(root, filepath.FromSlash(configschema.Source)), string(form))
	return root
}

// copyTree copies repoRoot/dir to root/dir, but for srgen's zz_generated
// files and the runtime's test data.
func copyTree(t *testing.T, root, dir string) {
	t.Helper()
	src := filepath.Join(repoRoot, filepath.FromSlash(dir))
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "testdata" && dir != "specs" {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasPrefix(d.Name(), "zz_generated.") {
			return nil
		}
		rel, _ := filepath.Rel(repoRoot, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		dst := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func changeLines(cs []write.Change) []string {
	out := []string{}
	for _, c := range cs {
		out = append(out, c.String())
	}
	return out
}

func TestGenerateThenCheck(t *testing.T) {
	ctx := context.Background()
	root := scratchRepo(t)
	first, err := Run(ctx, Config{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	if len(first.Changes) != len(first.Files) {
		t.Errorf("first run changed %d of %d files; want all of them", len(first.Changes), len(first.Files))
	}
	if again, err := Run(ctx, Config{Root: root}); err != nil || len(again.Changes) != 0 {
		t.Fatalf("second generate = %v, %v; want no changes", changeLines(again.Changes), err)
	}
	if res, err := Run(ctx, Config{Root: root, Check: true}); err != nil || res.Stale() {
		t.Fatalf("check after generate = %v, %v; want clean", changeLines(res.Changes), err)
	}

	// A hand-written file beside generated ones stays; an old generated
	// file and a corpus file nobody produces any more are extra.
	handWritten := filepath.Join(root, "generated", "fieldtable", "extra_test.go")
	mustWrite(t, handWritten, "package fieldtable\n")
	mustWrite(t, filepath.Join(root, "generated", "fieldtable", "zz_generated.old.go"), "package fieldtable\n")
	mustWrite(t, filepath.Join(root, "generated", "corpus", "legacy_form", "gone.json"), "{}")
	ext := filepath.Join(root, "specs", "systemone", "vllm-sr-5.0.extensions.yaml")
	data, err := os.ReadFile(ext)
	if err != nil {
		t.Fatal(err)
	}
	mustWrite(t, ext, string(data)+"# an edit\n")

	res, err := Run(ctx, Config{Root: root, Check: true})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"extra generated/corpus/legacy_form/gone.json",
		"stale generated/fieldtable/zz_generated.hashes.go",
		"extra generated/fieldtable/zz_generated.old.go",
	}
	for _, w := range want {
		if !containsLine(changeLines(res.Changes), w) {
			t.Errorf("check did not report %q; got %v", w, changeLines(res.Changes))
		}
	}
	if _, err := os.Stat(filepath.Join(root, "generated", "fieldtable", "zz_generated.old.go")); err != nil {
		t.Errorf("check removed a file: %v", err)
	}
	if _, err := Run(ctx, Config{Root: root}); err != nil {
		t.Fatal(err)
	}
	if res, err := Run(ctx, Config{Root: root, Check: true}); err != nil || res.Stale() {
		t.Fatalf("check after regenerate = %v, %v; want clean", changeLines(res.Changes), err)
	}
	if _, err := os.Stat(handWritten); err != nil {
		t.Errorf("generate removed a hand-written file: %v", err)
	}
}

func TestBrokenCorpusIsReportedWithItsPosition(t *testing.T) {
	const head = "format: srgen-corpus/1\ncases:\n  - name: broken\n    kind: family_self_test\n"
	cases := map[string]struct {
		yaml string
		want []string
	}{
		"not JSON": {head + "    family: vela3\n    endpoint: /v1/decisions\n    description: x\n    body: {n: 0x1F, \"true\": .inf}\n",
			[]string{"zz-broken.yaml:8:15: number \"0x1F\"", `number ".inf"`}},
		"unknown references": {head + "    family: nosuch\n    endpoint: /v1/nowhere\n    description: x\n    body: {questions: {q: {type: box}}}\n",
			[]string{"zz-broken.yaml:3:5", `family "nosuch"`, `endpoint "/v1/nowhere"`}},
		"question type the family does not answer": {head + "    family: decision1\n    endpoint: /v1/decisions\n    description: x\n    body: {questions: {q: {type: span}}}\n",
			[]string{`question "q" is a span, which decision1 does not answer`}},
		"unknown member": {head + "    family: vela3\n    endpoint: /v1/decisions\n    description: x\n    bdy: {}\n",
			[]string{"zz-broken.yaml", "bdy"}},
		"duplicate name": {"format: srgen-corpus/1\ncases:\n  - {name: choices, kind: legacy_form, form: choices, endpoint: /v1/systemone, description: x, body: {}}\n",
			[]string{`case "choices" already defined`}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			root := scratchRepo(t)
			mustWrite(t, filepath.Join(root, "specs", "corpus", "zz-broken.yaml"), tc.yaml)
			_, err := Run(context.Background(), Config{Root: root, Check: true})
			if err == nil {
				t.Fatal("a broken corpus file was accepted")
			}
			for _, want := range tc.want {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error does not contain %q:\n%v", want, err)
				}
			}
		})
	}
}

func TestGenerateIsByteIdentical(t *testing.T) {
	emitOnce := func() []emit.File {
		m, err := Build(repoRoot)
		if err != nil {
			t.Fatal(err)
		}
		files, err := emit.All(m, emit.Emitters(emit.DefaultOptions()))
		if err != nil {
			t.Fatal(err)
		}
		return files
	}
	a, b := emitOnce(), emitOnce()
	if len(a) != len(b) {
		t.Fatalf("%d files, then %d", len(a), len(b))
	}
	for i := range a {
		if a[i].Path != b[i].Path || !bytes.Equal(a[i].Data, b[i].Data) {
			t.Errorf("%s differs between two runs", a[i].Path)
		}
	}
}

// TestGeneratedPackagesCompile generates into a scratch copy under a
// throwaway import path and vets it as its own module.
func TestGeneratedPackagesCompile(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go tool")
	}
	root := scratchRepo(t)
	if _, err := Run(context.Background(), Config{Root: root, GoPackage: "example.com/scratch/generated"}); err != nil {
		t.Fatal(err)
	}
	repo, err := filepath.Abs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	mustWrite(t, filepath.Join(root, "go.mod"), "module example.com/scratch\n\ngo 1.26\n\nrequire github.com/vllm-sr/systemone v0.0.0\n\nreplace github.com/vllm-sr/systemone => "+repo+"\n")
	sum, err := os.ReadFile(filepath.Join(repo, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	mustWrite(t, filepath.Join(root, "go.sum"), string(sum))
	cmd := exec.Command("go", "vet", "./generated/...")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go vet of the generated packages failed: %v\n%s", err, out)
	}
}

// TestCorpusCoversEveryRequestForm requires a legacy_form case for every
// removed form a request can carry, and self-tests for every family.
func TestCorpusCoversEveryRequestForm(t *testing.T) {
	m, err := Build(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	responseSide := map[table.Level]bool{table.LevelError: true, table.LevelListing: true, table.LevelListingEntry: true, table.LevelResponse: true, table.LevelAnswer: true}
	forms := map[string]bool{}
	selfTests := map[table.Family]int{}
	for _, c := range m.Corpus.Cases {
		forms[c.Form] = true
		selfTests[c.Family]++
	}
	for _, r := range m.RemovedForms {
		if !responseSide[r.Level] && !forms[r.Form] {
			t.Errorf("no legacy_form case for the removed form %q (%s)", r.Form, r.Level)
		}
	}
	for _, f := range m.Families {
		if selfTests[f.Name] < 2 {
			t.Errorf("family %s has %d self-test cases, want at least 2", f.Name, selfTests[f.Name])
		}
	}
}

func mustWrite(t *testing.T, p, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func containsLine(lines []string, s string) bool {
	for _, l := range lines {
		if l == s {
			return true
		}
	}
	return false
}
