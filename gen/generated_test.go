package gen

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/gen/model"
	"github.com/vllm-sr/systemone/generated/corpus"
	"github.com/vllm-sr/systemone/generated/fieldtable"
	"github.com/vllm-sr/systemone/generated/validate"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/table"
)

// generatedMayImport are the only non-standard packages a file under
// generated/ may import, tests included (docs/design/architecture.md).
var generatedMayImport = []string{
	"github.com/vllm-sr/systemone/runtime/table",
	"github.com/vllm-sr/systemone/runtime/jsonvalue",
}

// TestGeneratedImportsOnlyTheLeaves parses every Go file under generated/
// and fails on an import that is neither the standard library (whose first
// path element has no dot) nor one of the two runtime leaves.
func TestGeneratedImportsOnlyTheLeaves(t *testing.T) {
	fset := token.NewFileSet()
	files := 0
	err := filepath.WalkDir(filepath.Join(repoRoot, "generated"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		files++
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			p, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				return err
			}
			first, _, _ := strings.Cut(p, "/")
			if !strings.Contains(first, ".") || slices.Contains(generatedMayImport, p) {
				continue
			}
			t.Errorf("%s imports %s; generated/ may import only the standard library and %v", fset.Position(imp.Pos()), p, generatedMayImport)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 5 {
		t.Fatalf("found only %d Go files under generated/", files)
	}
}

// TestCorpusPassesTheValidators: every corpus request (the internal wire
// form) passes the internal form's validator, and vllm-sr/4.0's, whose
// forms the internal form is plus roles: a 4.0 problem is allowed only
// where an override of the internal form alone explains it (roles: null).
func TestCorpusPassesTheValidators(t *testing.T) {
	m, err := Build(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	if len(corpus.Cases) == 0 {
		t.Fatal("the corpus is empty")
	}
	for _, c := range corpus.Cases {
		data, err := fs.ReadFile(corpus.FS, c.Path)
		if err != nil {
			t.Fatal(err)
		}
		v, err := jsonvalue.Decode(data, jsonvalue.Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		if ps := validate.Request(table.SchemaInternal, v); ps != nil {
			t.Errorf("%s: the internal form refuses it: %v", c.Name, messages(ps))
		}
		for _, p := range validate.Request(table.SchemaVllmSR40, v) {
			if !internalOnly(m, p) {
				t.Errorf("%s: vllm-sr/4.0 refuses it: %s", c.Name, p.Message())
			}
		}
	}
}

// internalOnly reports whether a problem is a null that only the internal
// form's own override of a request member allows.
func internalOnly(m *model.Model, p table.Problem) bool {
	for _, o := range m.Overrides {
		if slices.Equal(o.Schemas, []table.SchemaID{table.SchemaInternal}) && o.Level == table.LevelRequest &&
			o.Nullable != nil && *o.Nullable && p.Reason == table.ReasonNotAllowedNull && p.Path == "/"+o.Name {
			return true
		}
	}
	return false
}

func messages(ps []table.Problem) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Message()
	}
	return out
}

// TestInternalFormKnowsWhat40Knows: the generated field table answers
// Known for the internal form exactly as for vllm-sr/4.0, whose members it
// accepts (runtime/shapes' inventory test holds its codec to them).
func TestInternalFormKnowsWhat40Knows(t *testing.T) {
	checked := 0
	for _, f := range fieldtable.Fields {
		in, v40 := fieldtable.Known(table.SchemaInternal, f.Level, f.Name), fieldtable.Known(table.SchemaVllmSR40, f.Level, f.Name)
		if in != v40 {
			t.Errorf("Known(%s.%s): internal %v, vllm-sr/4.0 %v", f.Level, f.Name, in, v40)
		}
		if in {
			checked++
		}
	}
	for _, name := range []string{"roles", "states", "images", "model", "options"} {
		if !fieldtable.Known(table.SchemaInternal, table.LevelRequest, name) {
			t.Errorf("the internal form does not know request.%s", name)
		}
	}
	if checked < 50 {
		t.Fatalf("the internal form knows only %d fields", checked)
	}
}
