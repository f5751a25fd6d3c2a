package testkit

import (
	"errors"
	"flag"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite golden files instead of comparing")

// UpdatingGoldens reports whether this run rewrites golden files.
func UpdatingGoldens() bool {
	return *update || os.Getenv("SRGEN_UPDATE_GOLDEN") == "1"
}

// GoldenCheck compares got with the file at path (slash or OS
// separators), or writes got there when updating.
func GoldenCheck(t testing.TB, path string, got []byte) {
	t.Helper()
	path = filepath.FromSlash(path)
	if UpdatingGoldens() {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden file (run with -update or SRGEN_UPDATE_GOLDEN=1 to create it): %v", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", path, diff)
	}
}

// GoldenCheckTree compares a whole tree of files (slash paths relative to
// dir) with dir: every file must match, and dir must hold no other file.
// When updating, dir is replaced by exactly these files.
func GoldenCheckTree(t testing.TB, dir string, got map[string][]byte) {
	t.Helper()
	dir = filepath.FromSlash(dir)
	if UpdatingGoldens() {
		if err := os.RemoveAll(dir); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(got)) {
		GoldenCheck(t, filepath.Join(dir, filepath.FromSlash(name)), got[name])
	}
	if UpdatingGoldens() {
		return
	}
	for _, name := range listTree(t, dir) {
		if _, ok := got[name]; !ok {
			t.Errorf("%s: golden file not produced any more (run with -update to remove it)", filepath.Join(dir, name))
		}
	}
}

func listTree(t testing.TB, dir string) []string {
	t.Helper()
	var names []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		names = append(names, filepath.ToSlash(rel))
		return err
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	return names
}
