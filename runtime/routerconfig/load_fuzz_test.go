package routerconfig

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/runtime/registry"
)

// FuzzLoad: any bytes either load or are reported as a *LoadError with at
// least one problem, each on one line; what loads, router.yaml's JSON
// Schema accepts (the schema is never stricter than the loader);
// placing the schema's errors and migrating never panic.
func FuzzLoad(f *testing.F) {
	for _, pattern := range []string{"testdata/check/*.yaml", "testdata/migrate/*.yaml", "../../docs/examples/*.yaml"} {
		files, _ := filepath.Glob(pattern)
		for _, file := range files {
			data, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
	regs := builtin()
	schema := compileSchema(f)
	placer, err := CompileSchema(schemaPath)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Load("fuzz.yaml", data, regs)
		var le *LoadError
		switch {
		case err == nil && c == nil:
			t.Fatal("no configuration and no error")
		case err != nil && (!errors.As(err, &le) || len(le.Problems) == 0):
			t.Fatalf("not a *LoadError with problems: %v", err)
		}
		// Placing the schema's errors never panics, and what loads has
		// none.
		placed := placer.Problems("fuzz.yaml", data)
		if err == nil {
			if errs := schemaErrors(schema, instanceOf(t, data)); len(errs) > 0 || len(placed) > 0 {
				t.Fatalf("loads, but the schema refuses it: %s %v", strings.Join(errs, "; "), placed)
			}
		}
		if le != nil {
			for _, p := range le.Problems {
				for _, r := range p.String() {
					if r == '\n' {
						t.Fatalf("a problem spans lines: %q", p.String())
					}
				}
			}
		}
		_, _, _ = Migrate("fuzz.yaml", data, registry.BuiltinAPIs())
	})
}
