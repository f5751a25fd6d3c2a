package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const (
	standardSpec   = "specs/systemone/systemone-0.2.schema.yaml"
	extensionsSpec = "specs/systemone/vllm-sr-5.0.extensions.yaml"
)

// specCopy copies the repository's specs/ into a temporary root, with
// entries added to the extension set's question level, and returns the
// root and the 1-based line of the first added entry.
func specCopy(t *testing.T, questionEntries string) (root string, line int) {
	t.Helper()
	root = t.TempDir()
	src := filepath.Join(repoRoot, "specs")
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(repoRoot, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if filepath.ToSlash(rel) == extensionsSpec {
			const at = "\n  question:\n"
			i := strings.Index(string(data), at)
			if i < 0 {
				t.Fatalf("%s has no question level", extensionsSpec)
			}
			line = strings.Count(string(data[:i+len(at)]), "\n") + 1
			data = []byte(string(data[:i+len(at)]) + questionEntries + string(data[i+len(at):]))
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
	return root, line
}

// lineOfEntry is the 1-based line of "- name: <name>" in the repository's
// copy of file.
func lineOfEntry(t *testing.T, file, name string) int {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, file))
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(l) == "- name: "+name {
			return i + 1
		}
	}
	t.Fatalf("%s defines no %s", file, name)
	return 0
}

// TestRedefinedStandardMemberFailsTheBuild: the extension set defining
// the standard's question.instructions again, with the standard's type
// but stripped for systemone/0.2 targets, fails srgen lint and srgen
// generate, naming both definitions by file and line; so does each other
// change of meaning (required, enum values, bounds, question types).
func TestRedefinedStandardMemberFailsTheBuild(t *testing.T) {
	stdAt := standardSpec + ":" + strconv.Itoa(lineOfEntry(t, standardSpec, "instructions")) + ":"
	const instructions = `    - name: instructions
      type: content|null
      since: "5.0"
      families: all
      on_systemone_0_2: stripped
      description: The whole question in plain language.
`
	root, line := specCopy(t, instructions)
	extAt := extensionsSpec + ":" + strconv.Itoa(line) + ":"
	for _, cmd := range []string{"lint", "generate"} {
		code, _, stderr := srgen(t, "--root", root, cmd)
		if code != 1 {
			t.Errorf("srgen %s exit %d, want 1; stderr:\n%s", cmd, code, stderr)
		}
		for _, want := range []string{extAt, stdAt, "field question.instructions: on_systemone_0_2: stripped would strip a member the standard defines"} {
			if !strings.Contains(stderr, want) {
				t.Errorf("srgen %s: stderr lacks %q:\n%s", cmd, want, stderr)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(root, "generated")); err == nil {
		t.Error("srgen generate wrote files from specs that fail the build")
	}

	// Each difference is its own line: required, bounds and enum values,
	// question types, refused for the standard.
	const changed = `    - name: instructions
      type: content|null
      required: true
      since: "5.0"
      families: all
      on_systemone_0_2: refused_at_load
      description: The whole question in plain language.
    - name: criteria
      type: object|array|null
      min_count: 2
      question_types: [choice]
      since: "5.0"
      families: all
      on_systemone_0_2: stripped
      description: What the answers mean.
    - name: type
      type: string
      required: true
      enum: [box, score, choice, noul, span]
      since: "5.0"
      families: all
      on_systemone_0_2: stripped
      description: The question type.
`
	root, _ = specCopy(t, changed)
	code, _, stderr := srgen(t, "--root", root, "lint")
	if code != 1 {
		t.Fatalf("srgen lint exit %d, want 1; stderr:\n%s", code, stderr)
	}
	for _, want := range []string{
		"field question.instructions: required is true here but false in the standard",
		"field question.instructions: on_systemone_0_2: refused_at_load would refuse a member the standard defines",
		"field question.criteria: min_count is 2 here but unset in the standard",
		"field question.type: enum is [box score choice noul span] here but [noul choice score box] in the standard",
		"field question.criteria: question_types are [choice] here but [noul choice score] in the standard",
		"(the standard's definition: " + standardSpec + ":" + strconv.Itoa(lineOfEntry(t, standardSpec, "criteria")) + ":",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}

	// The untouched copy passes: the check refuses only the redefinition.
	root, _ = specCopy(t, "")
	if code, _, stderr := srgen(t, "--root", root, "lint"); code != 0 {
		t.Errorf("srgen lint of the repository's own specs: exit %d:\n%s", code, stderr)
	}
}
