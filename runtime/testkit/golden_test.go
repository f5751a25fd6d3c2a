package testkit

import (
	"os"
	"path/filepath"
	"testing"
)

// recorder captures failures instead of failing the real test.
type recorder struct {
	testing.TB
	errors int
}

func (r *recorder) Helper()               {}
func (r *recorder) Errorf(string, ...any) { r.errors++ }
func (r *recorder) Fatalf(string, ...any) { r.errors++; panic(r) }
func (r *recorder) Fatal(...any)          { r.errors++; panic(r) }

func run(f func(tb testing.TB)) (errors int) {
	r := &recorder{}
	defer func() {
		if v := recover(); v != nil && v != r {
			panic(v)
		}
		errors = r.errors
	}()
	f(r)
	return r.errors
}

func TestCheckComparesBytes(t *testing.T) {
	if UpdatingGoldens() {
		t.Skip("compares only")
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "want.txt")
	if err := os.WriteFile(p, []byte("same\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if n := run(func(tb testing.TB) { GoldenCheck(tb, p, []byte("same\n")) }); n != 0 {
		t.Errorf("equal bytes reported %d errors", n)
	}
	if n := run(func(tb testing.TB) { GoldenCheck(tb, p, []byte("other\n")) }); n != 1 {
		t.Errorf("different bytes reported %d errors, want 1", n)
	}
	if n := run(func(tb testing.TB) { GoldenCheck(tb, filepath.Join(dir, "absent"), nil) }); n != 1 {
		t.Errorf("absent golden reported %d errors, want 1", n)
	}
}

func TestCheckTreeFindsExtraFiles(t *testing.T) {
	if UpdatingGoldens() {
		t.Skip("compares only")
	}
	dir := t.TempDir()
	for name, data := range map[string]string{"a.txt": "a", "sub/b.txt": "b"} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	all := map[string][]byte{"a.txt": []byte("a"), "sub/b.txt": []byte("b")}
	if n := run(func(tb testing.TB) { GoldenCheckTree(tb, dir, all) }); n != 0 {
		t.Errorf("matching tree reported %d errors", n)
	}
	if n := run(func(tb testing.TB) { GoldenCheckTree(tb, dir, map[string][]byte{"a.txt": []byte("a")}) }); n != 1 {
		t.Errorf("tree with an extra file reported %d errors, want 1", n)
	}
}
