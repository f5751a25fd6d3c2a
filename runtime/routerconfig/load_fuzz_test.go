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
// migrating them never panics.
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
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Load("fuzz.yaml", data, regs)
		var le *LoadError
		switch {
		case err == nil && c == nil:
			t.Fatal("no configuration and no error")
		case err != nil && (!errors.As(err, &le) || len(le.Problems) == 0):
			t.Fatalf("not a *LoadError with problems: %v", err)
		}
		if err == nil {
			if errs := schemaErrors(schema, instanceOf(t, data)); len(errs) > 0 {
				t.Fatalf("loads, but the schema refuses it: %s", strings.Join(errs, "; "))
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
