package write

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/vllm-sr/systemone/gen/emit"
)

var testOwnership = Ownership{
	GeneratedRoots: []string{"generated"},
	OwnedDirs:      []string{"generated/corpus", "docs/reference"},
}

func produced() []emit.File {
	return []emit.File{
		{Path: "generated/fieldtable/zz_generated.fields.go", Data: []byte("package fieldtable\n")},
		{Path: "generated/corpus/forms/choices.json", Data: []byte(`{"a":1}`)},
		{Path: "docs/reference/schemas.md", Data: []byte("# Schemas\n")},
	}
}

func changeLines(cs []Change) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.String())
	}
	return out
}

func TestDiffNamesStaleMissingAndExtra(t *testing.T) {
	disk := MemFS{
		"generated/fieldtable/zz_generated.fields.go": []byte("package old\n"),
		"generated/fieldtable/zz_generated.gone.go":   []byte("package fieldtable\n"),
		"generated/fieldtable/handwritten_test.go":    []byte("package fieldtable\n"),
		"generated/corpus/forms/removed.json":         []byte("{}"),
		"docs/reference/schemas.md":                   []byte("# Schemas\n"),
		"docs/design/architecture.md":                 []byte("# hand-written\n"),
		"generated/python/__pycache__/x.pyc":          []byte("cache"),
	}
	before := len(disk)
	got, err := Diff(disk, testOwnership, produced())
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"missing generated/corpus/forms/choices.json",
		"extra generated/corpus/forms/removed.json",
		"stale generated/fieldtable/zz_generated.fields.go",
		"extra generated/fieldtable/zz_generated.gone.go",
	}
	if diff := cmp.Diff(want, changeLines(got)); diff != "" {
		t.Errorf("Diff mismatch (-want +got):\n%s", diff)
	}
	if len(disk) != before || string(disk["generated/fieldtable/zz_generated.fields.go"]) != "package old\n" {
		t.Error("Diff wrote to the disk")
	}
}

func TestApplyWritesOnlyChangesAndIsIdempotent(t *testing.T) {
	disk := MemFS{
		"generated/fieldtable/zz_generated.gone.go": []byte("package fieldtable\n"),
		"generated/fieldtable/handwritten_test.go":  []byte("package fieldtable\n"),
		"docs/reference/schemas.md":                 []byte("# Schemas\n"),
	}
	got, err := Apply(disk, testOwnership, produced())
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"missing generated/corpus/forms/choices.json",
		"missing generated/fieldtable/zz_generated.fields.go",
		"extra generated/fieldtable/zz_generated.gone.go",
	}
	if diff := cmp.Diff(want, changeLines(got)); diff != "" {
		t.Errorf("Apply mismatch (-want +got):\n%s", diff)
	}
	wantDisk := MemFS{
		"generated/fieldtable/zz_generated.fields.go": []byte("package fieldtable\n"),
		"generated/fieldtable/handwritten_test.go":    []byte("package fieldtable\n"),
		"generated/corpus/forms/choices.json":         []byte(`{"a":1}`),
		"docs/reference/schemas.md":                   []byte("# Schemas\n"),
	}
	if diff := cmp.Diff(wantDisk, disk); diff != "" {
		t.Errorf("disk mismatch (-want +got):\n%s", diff)
	}
	again, err := Apply(disk, testOwnership, produced())
	if err != nil || len(again) != 0 {
		t.Errorf("second Apply = %v, %v; want no changes", changeLines(again), err)
	}
}

func TestDiffRefusesBadProducedPaths(t *testing.T) {
	cases := map[string]emit.File{
		"outside":   {Path: "runtime/table/field.go"},
		"unowned":   {Path: "generated/fieldtable/fields.go"},
		"absolute":  {Path: "/etc/passwd"},
		"unclean":   {Path: "generated/corpus/../../go.mod"},
		"empty":     {Path: ""},
		"duplicate": {Path: "docs/reference/schemas.md"},
	}
	for name, f := range cases {
		t.Run(name, func(t *testing.T) {
			files := append(produced(), f)
			_, err := Diff(MemFS{}, testOwnership, files)
			if err == nil {
				t.Fatalf("Diff accepted produced path %q", f.Path)
			}
			if f.Path != "" && !strings.Contains(err.Error(), f.Path) {
				t.Errorf("error %q does not name %q", err, f.Path)
			}
		})
	}
}

func TestOSFSRoundTrip(t *testing.T) {
	root := t.TempDir()
	disk := OSFS{Root: root}
	if got, err := disk.Files("generated"); err != nil || got != nil {
		t.Fatalf("Files of an absent dir = %v, %v; want none", got, err)
	}
	if _, err := Apply(disk, testOwnership, produced()); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "generated", "fieldtable", "zz_generated.old.go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	changes, err := Diff(disk, testOwnership, produced())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"extra generated/fieldtable/zz_generated.old.go"}, changeLines(changes)); diff != "" {
		t.Errorf("Diff mismatch (-want +got):\n%s", diff)
	}
	if _, err := Apply(disk, testOwnership, produced()); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "generated", "fieldtable", "zz_generated.old.go")); !os.IsNotExist(err) {
		t.Errorf("stale file not removed: %v", err)
	}
}
