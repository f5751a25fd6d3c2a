package gen

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/generated/vocab"
)

// reasonWord is the form of a fixed reason word.
var reasonWord = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

// reasonScanSkips are runtime packages whose reason-like words are no
// reason member's: runtime/jsonvalue's Reason* name syntax errors, which a
// message quotes under the reason invalid_json.
var reasonScanSkips = []string{"jsonvalue"}

// TestRuntimeReasonsAreInTheSpec: every reason word the runtime spells as
// a literal is in the extension spec's error_reasons (generated/vocab), so
// the spec owns the words. It reads runtime/'s non-test sources and takes
// the literals of: constants named Reason*; Reason: fields; arguments of a
// package's functions at a parameter named reason; assignments to a
// variable named reason; and what a function returns last when it returns
// a string and its doc speaks of a reason. A word built at run time (such
// as "upstream_" + a kind) is not seen; the spec lists those by hand.
func TestRuntimeReasonsAreInTheSpec(t *testing.T) {
	found := map[string]string{} // word → where first seen
	sites := 0                   // places a reason is given, literal or constant
	err := filepath.WalkDir(filepath.Join(repoRoot, "runtime"), func(dir string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		for _, skip := range reasonScanSkips {
			if d.Name() == skip || d.Name() == "testdata" {
				return filepath.SkipDir
			}
		}
		return scanPackageReasons(dir, found, &sites)
	})
	if err != nil {
		t.Fatal(err)
	}
	// The runtime gives its reasons as generated constants
	// (TestRuntimeSpellsNoSpecName), so few literals are left; the places
	// a reason is given are many, and the scan must see them.
	if sites < 100 {
		t.Fatalf("found only %d places under runtime/ that give a reason; the scan misses them", sites)
	}
	for word, at := range found {
		if _, ok := vocab.ReasonOf(word); !ok {
			t.Errorf("%s: reason %q is not in error_reasons (specs/systemone/vllm-sr-5.0.extensions.yaml)", at, word)
		}
	}
}

// scanPackageReasons reads one directory's non-test Go files as one
// package: the parameter indexes come from all its files first.
func scanPackageReasons(dir string, found map[string]string, sites *int) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, e := range entries {
		if name := e.Name(); !e.IsDir() && strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") {
			f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.ParseComments)
			if err != nil {
				return err
			}
			files = append(files, f)
		}
	}
	reasonParam := map[string]int{} // function or method name → index of its reason parameter
	for _, f := range files {
		for _, decl := range f.Decls {
			if fn, ok := decl.(*ast.FuncDecl); ok {
				if i := reasonParamIndex(fn.Type.Params, "reason"); i >= 0 {
					reasonParam[fn.Name.Name] = i
				}
			}
		}
	}
	for _, f := range files {
		add := func(e ast.Expr) {
			*sites++
			if lit, ok := e.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				if w, err := strconv.Unquote(lit.Value); err == nil && reasonWord.MatchString(w) {
					if _, seen := found[w]; !seen {
						found[w] = fset.Position(lit.Pos()).String()
					}
				}
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ValueSpec:
				for i, name := range n.Names {
					if strings.HasPrefix(name.Name, "Reason") && i < len(n.Values) {
						add(n.Values[i])
					}
				}
			case *ast.KeyValueExpr:
				if k, ok := n.Key.(*ast.Ident); ok && k.Name == "Reason" {
					add(n.Value)
				}
			case *ast.CallExpr:
				if i, ok := reasonParam[reasonCallee(n.Fun)]; ok && i < len(n.Args) {
					add(n.Args[i])
				}
			case *ast.AssignStmt:
				for i, lhs := range n.Lhs {
					if id, ok := lhs.(*ast.Ident); ok && id.Name == "reason" && len(n.Rhs) == len(n.Lhs) {
						add(n.Rhs[i])
					}
				}
			case *ast.FuncDecl:
				if returnsReason(n) {
					ast.Inspect(n.Body, func(m ast.Node) bool {
						if r, ok := m.(*ast.ReturnStmt); ok && len(r.Results) > 0 {
							add(r.Results[len(r.Results)-1])
						}
						return true
					})
				}
			}
			return true
		})
	}
	return nil
}

// reasonParamIndex is the position of the parameter named name, or -1.
func reasonParamIndex(params *ast.FieldList, name string) int {
	i := 0
	for _, field := range params.List {
		if len(field.Names) == 0 {
			i++
			continue
		}
		for _, n := range field.Names {
			if n.Name == name {
				return i
			}
			i++
		}
	}
	return -1
}

func reasonCallee(fun ast.Expr) string {
	switch f := fun.(type) {
	case *ast.Ident:
		return f.Name
	case *ast.SelectorExpr:
		return f.Sel.Name
	}
	return ""
}

// returnsReason: the function's last result is a string and its doc says
// it returns a reason.
func returnsReason(fn *ast.FuncDecl) bool {
	res := fn.Type.Results
	if fn.Body == nil || fn.Doc == nil || res == nil || len(res.List) == 0 {
		return false
	}
	last, ok := res.List[len(res.List)-1].Type.(*ast.Ident)
	return ok && last.Name == "string" && strings.Contains(fn.Doc.Text(), "reason")
}
