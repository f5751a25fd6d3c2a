package load

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// repoRoot is the module root, two levels up from gen/load.
var repoRoot = filepath.Join("..", "..")

// repoFS returns the real spec files as a MapFS, so a test can replace one
// of them with a broken copy.
func repoFS(t *testing.T) fstest.MapFS {
	t.Helper()
	fsys := fstest.MapFS{}
	p := DefaultPaths()
	for _, path := range []string{p.Standard, p.Extensions, p.Contract, p.StandardSchema, p.ExtensionsSchema} {
		data, err := os.ReadFile(filepath.Join(repoRoot, filepath.FromSlash(path)))
		if err != nil {
			t.Fatal(err)
		}
		fsys[path] = &fstest.MapFile{Data: data}
	}
	return fsys
}

func TestLoadRepositorySpecs(t *testing.T) {
	specs, err := LoadDir(repoRoot)
	if err != nil {
		t.Fatalf("the repository's specs do not load:\n%v", err)
	}
	if specs.Standard.Schema != "systemone/0.2" || specs.Extensions.Schema != "vllm-sr/5.0" || specs.Contract.Schema != "vllm-sr/4.0" {
		t.Errorf("schema IDs = %q, %q, %q", specs.Standard.Schema, specs.Extensions.Schema, specs.Contract.Schema)
	}
	data, _ := os.ReadFile(filepath.Join(repoRoot, "specs/systemone/vllm-sr-5.0.extensions.yaml"))
	sum := sha256.Sum256(data)
	if got, want := specs.Extensions.File.SHA256, hex.EncodeToString(sum[:]); got != want {
		t.Errorf("extensions sha256 = %s, want %s", got, want)
	}
	if specs.Standard.Source.SHA256 != "7265a2387f653b3584cae10db45365cf3fadaac3262e12eba4a415b5d32e3c46" {
		t.Errorf("standard source sha256 = %s", specs.Standard.Source.SHA256)
	}
	if len(specs.Contract.ImplicitRoles.Parts) == 0 || specs.Contract.ImplicitRoles.Default != "user" {
		t.Errorf("implicit roles not read: %+v", specs.Contract.ImplicitRoles)
	}
	first := specs.Standard.Fields[0]
	if first.Level != "request" || first.Fields[0].Name != "model" || first.Fields[0].Pos.Line == 0 {
		t.Errorf("first standard field = %s.%s at %v", first.Level, first.Fields[0].Name, first.Fields[0].Pos)
	}
}

// TestLoadBrokenSpecs feeds each testdata spec in place of one real file
// and checks every expected problem is reported, with its position.
func TestLoadBrokenSpecs(t *testing.T) {
	cases := []struct {
		file    string // testdata file
		replace func(Paths) string
		want    []string // substrings, each must occur in the error
	}{
		{"unknown_key.yaml", func(p Paths) string { return p.Extensions }, []string{
			"vllm-sr-5.0.extensions.yaml:16:7: fields.request[0].tpye: unknown key",
			"fields.request[0]: missing required key \"type\"",
		}},
		{"duplicate_key.yaml", func(p Paths) string { return p.Extensions }, []string{
			`:18:3: duplicate key "question" (first at line 9)`,
		}},
		{"wrong_type.yaml", func(p Paths) string { return p.Standard }, []string{
			":12:17: fields.request[0].required: must be boolean, not string",
			":17:18: fields.request[1].min_count: must be integer, not string",
			":20:27: fields.request[2].type: does not match the pattern",
		}},
		{"bad_families.yaml", func(p Paths) string { return p.Extensions }, []string{
			":17:11: fields.request[0].families[1]: must be one of",
		}},
		{"invalid_openapi.yaml", func(p Paths) string { return p.Contract }, []string{
			"vllm-sr-4.0.openapi.yaml: not a valid OpenAPI document",
		}},
	}
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			fsys := repoFS(t)
			data, err := os.ReadFile(filepath.Join("testdata", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			fsys[tc.replace(DefaultPaths())] = &fstest.MapFile{Data: data}
			specs, err := Load(fsys, DefaultPaths())
			if err == nil {
				t.Fatalf("Load accepted %s", tc.file)
			}
			if specs != nil {
				t.Errorf("Load returned specs with an error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q; got:\n%v", w, err)
				}
			}
		})
	}
}

func TestLoadReportsEveryFile(t *testing.T) {
	fsys := repoFS(t)
	p := DefaultPaths()
	delete(fsys, p.Standard)
	fsys[p.Contract] = &fstest.MapFile{Data: []byte("openapi: [")}
	_, err := Load(fsys, p)
	ps, ok := AsProblems(err)
	if !ok || len(ps) < 2 {
		t.Fatalf("want a problem per broken file, got %v", err)
	}
}

func TestFormatSchemaRefusesUnknownKeywords(t *testing.T) {
	_, err := compileFormatSchema("s.json", []byte(`{"type":"object","oneOf":[{"type":"string"}]}`))
	if err == nil || !strings.Contains(err.Error(), `unsupported JSON Schema keyword "oneOf"`) {
		t.Fatalf("got %v", err)
	}
}
