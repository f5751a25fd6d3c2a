package load

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzExtensionsFormat feeds any bytes to the extension format's path
// through the loader (parse, JSON Schema validation, tagged decode): it
// never panics, every problem names the file, the same input gives the
// same problems in the same order (the library walks Go maps), and a file
// with no problems decodes.
func FuzzExtensionsFormat(f *testing.F) {
	p := DefaultPaths()
	schemaData, err := os.ReadFile(filepath.Join(repoRoot, p.ExtensionsSchema))
	if err != nil {
		f.Fatal(err)
	}
	schema, err := compileFormatSchema(p.ExtensionsSchema, schemaData)
	if err != nil {
		f.Fatal(err)
	}
	for _, seed := range []string{
		filepath.Join(repoRoot, p.Extensions),
		filepath.Join("testdata", "unknown_key.yaml"),
		filepath.Join("testdata", "duplicate_key.yaml"),
		filepath.Join("testdata", "bad_families.yaml"),
	} {
		data, err := os.ReadFile(seed)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("fields: {reqeust: [], answer: 3}\nendpoints: x\n"))
	load := func(data []byte) (*Extensions, string) {
		var ps Problems
		file := File{Path: "x.yaml", Data: data}
		var e *Extensions
		if root := checkYAML(file, schema, &ps); root != nil {
			e = decodeExtensions(file, root, &ps)
		}
		if err := ps.Err(); err != nil {
			return e, err.Error()
		}
		return e, ""
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		e, problems := load(data)
		if _, again := load(data); again != problems {
			t.Fatalf("problems differ between two loads:\n%s\n---\n%s", problems, again)
		}
		for _, line := range strings.Split(problems, "\n") {
			if problems != "" && !strings.HasPrefix(line, "x.yaml") {
				t.Fatalf("problem without its file: %q", line)
			}
		}
		if problems == "" && e == nil {
			t.Fatal("no problems and nothing decoded")
		}
	})
}
