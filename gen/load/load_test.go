package load

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
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

// TestFormatSchemaRefusesBadSchemas: a format schema the validator cannot
// honour (not valid against its meta-schema, a $ref to nothing) is refused
// when compiled, naming the file, so a schema never silently checks less
// than it says.
func TestFormatSchemaRefusesBadSchemas(t *testing.T) {
	for name, schema := range map[string]string{
		"bad type":      `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":5}`,
		"dangling $ref": `{"$schema":"https://json-schema.org/draft/2020-12/schema","$ref":"#/$defs/nothing"}`,
		"bad pattern":   `{"$schema":"https://json-schema.org/draft/2020-12/schema","pattern":"(["}`,
		"not JSON":      `{"type":`,
	} {
		t.Run(name, func(t *testing.T) {
			_, err := compileFormatSchema("s.json", []byte(schema))
			if err == nil || !strings.HasPrefix(err.Error(), "s.json: ") {
				t.Fatalf("got %v", err)
			}
		})
	}
}

// TestFormatSchemaWords: each kind of violation the specs' schemas can
// report comes back at the offending node's file:line:column, with its
// dotted path, in srgen's words, all at once.
func TestFormatSchemaWords(t *testing.T) {
	schema := `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",
	"additionalProperties":false,"required":["name","list","need"],
	"properties":{
	  "name":{"type":"string","minLength":2,"pattern":"^[a-z]+$"},
	  "n":{"type":"integer","minimum":1,"maximum":9},
	  "list":{"type":"array","minItems":2,"items":{"enum":["a","b"]}},
	  "kind":{"const":"k"},
	  "m":{"type":"object","minProperties":1,"propertyNames":{"pattern":"^x"}},
	  "either":{"anyOf":[{"type":"string","enum":["all"]},{"type":"array","items":{"type":"integer"}}]}}}`
	fs, err := compileFormatSchema("s.json", []byte(schema))
	if err != nil {
		t.Fatal(err)
	}
	var ps Problems
	root := parseYAML("d.yaml", []byte("name: A\nn: 12\nlist: [c]\nkind: j\nm: {}\nextra: 1\neither: [1, x]\n"), &ps)
	fs.validate("d.yaml", root, &ps)
	got := ps.Err().Error()
	for _, want := range []string{
		"d.yaml:1:1: document: missing required key \"need\"",
		"d.yaml:1:7: name: must have at least 2 characters",
		"d.yaml:1:7: name: does not match the pattern ^[a-z]+$",
		"d.yaml:2:4: n: must be at most 9",
		"d.yaml:3:7: list: must have at least 2 items",
		"d.yaml:3:8: list[0]: must be one of a, b",
		"d.yaml:4:7: kind: must be k",
		"d.yaml:5:4: m: must have at least 1 members",
		"d.yaml:6:1: extra: unknown key",
		"d.yaml:7:13: either[1]: must be integer, not string",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("lacks %q; got:\n%s", want, got)
		}
	}
	ps = nil
	root = parseYAML("d.yaml", []byte("name: ab\nlist: [a, b]\nneed: 1\nm: {y: 1}\neither: 3\n"), &ps)
	fs.validate("d.yaml", root, &ps)
	got = ps.Err().Error()
	for _, want := range []string{
		"d.yaml:4:5: m.y: does not match the pattern ^x",
		"d.yaml:5:9: either: has the wrong type (integer)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("lacks %q; got:\n%s", want, got)
		}
	}
}

// TestEveryPositionIsPlaced: the decode walk gives every Position in the
// repository's decoded specs and catalogue a file and a line, so a later
// check that reports at one never points at the whole file.
func TestEveryPositionIsPlaced(t *testing.T) {
	specs, err := LoadDir(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	specs.Contract.Doc = nil // kin-openapi's own document: no Positions
	cat, err := LoadCatalog(os.DirFS(repoRoot))
	if err != nil {
		t.Fatal(err)
	}
	count := 0
	var walk func(v reflect.Value, path string)
	walk = func(v reflect.Value, path string) {
		switch v.Kind() {
		case reflect.Pointer:
			if !v.IsNil() {
				walk(v.Elem(), path)
			}
		case reflect.Slice:
			for i := range v.Len() {
				walk(v.Index(i), fmt.Sprintf("%s[%d]", path, i))
			}
		case reflect.Struct:
			if p, ok := v.Interface().(Position); ok {
				count++
				if p.File == "" || p.Line == 0 || p.Column == 0 {
					t.Errorf("%s = %+v: not placed", path, p)
				}
				return
			}
			for i := range v.NumField() {
				walk(v.Field(i), path+"."+v.Type().Field(i).Name)
			}
		}
	}
	walk(reflect.ValueOf(specs), "specs")
	walk(reflect.ValueOf(cat), "catalog")
	if count < 500 {
		t.Errorf("only %d positions found: the walk misses the decoded entries", count)
	}
}

// TestDecodeErrorAtItsValue: a value the format schema accepts but the
// decoded field cannot hold (an integer past int64) is a problem at that
// value, not a silent zero.
func TestDecodeErrorAtItsValue(t *testing.T) {
	p := DefaultPaths()
	fsys := repoFS(t)
	data := string(fsys[p.Extensions].Data)
	edited := strings.Replace(data, "limits:\n", "limits:\n  - {name: zz, min: 1e30, unit: x, description: y}\n", 1)
	if edited == data {
		t.Fatal("the extension spec has no limits section to edit")
	}
	fsys[p.Extensions].Data = []byte(edited)
	line := strings.Count(edited[:strings.Index(edited, "min: 1e30")], "\n") + 1
	_, err := Load(fsys, p)
	want := fmt.Sprintf("%s:%d:21: the format schema accepts what srgen cannot decode: line %d: cannot unmarshal !!float `1e30` into int64", p.Extensions, line, line)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("want %q, got:\n%v", want, err)
	}
}
