package gen

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// vocabFile is the generated vocabulary whose names the runtime must not
// spell by hand.
const vocabFile = "generated/vocab/zz_generated.vocab.go"

// vocabExempt are runtime packages that may spell spec names, each for its
// reason:
//   - table is the leaf generated code imports (generated/vocab included),
//     so it cannot import the vocabulary; TestTableAgreesWithVocab pins its
//     constants to it.
//   - jsonvalue is a JSON library that knows no spec: its "true", "false"
//     and "null" are JSON's.
var vocabExempt = map[string]bool{"table": true, "jsonvalue": true}

// notVocab marks a line whose literal only looks like a spec name (a log
// attribute, a metric label, a configuration key of the Router's own),
// followed by why.
const notVocab = "//vocab:not-spec"

// TestRuntimeSpellsNoSpecName: no hand-written runtime file types a member
// name, endpoint path, header name or error reason that generated/vocab
// holds, nor the body limit; each is spelled through its generated
// constant, so a spec change either flows through or fails to compile. A
// literal that only looks like one carries a notVocab comment saying why.
func TestRuntimeSpellsNoSpecName(t *testing.T) {
	names := vocabStrings(t)
	if len(names) < 200 {
		t.Fatalf("read only %d names from %s", len(names), vocabFile)
	}
	var found []string
	err := filepath.WalkDir(filepath.Join(repoRoot, "runtime"), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "testdata" || vocabExempt[d.Name()] {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		found = append(found, specLiterals(t, path, names)...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(found)
	for _, f := range found {
		t.Error(f)
	}
}

// vocabStrings maps each string the vocabulary defines to its constant.
func vocabStrings(t *testing.T) map[string]string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(repoRoot, vocabFile), nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]string{}
	for _, decl := range f.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			continue
		}
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, v := range vs.Values {
				lit, ok := v.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					continue
				}
				s, _ := strconv.Unquote(lit.Value)
				if _, seen := names[s]; !seen {
					names[s] = "vocab." + vs.Names[i].Name
				}
			}
		}
	}
	return names
}

// specLiterals returns, as file:line messages, the string literals of one
// file that equal a vocabulary name, and the body limit written as a
// number, leaving out import paths, struct tags and lines marked notVocab.
func specLiterals(t *testing.T, path string, names map[string]string) []string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	marked := map[int]bool{}
	for _, cg := range f.Comments {
		for _, c := range cg.List {
			if strings.HasPrefix(c.Text, notVocab) {
				marked[fset.Position(c.Pos()).Line] = true
			}
		}
	}
	skip := map[*ast.BasicLit]bool{}
	for _, imp := range f.Imports {
		skip[imp.Path] = true
	}
	var out []string
	rel, _ := filepath.Rel(repoRoot, path)
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Field:
			if n.Tag != nil {
				skip[n.Tag] = true
			}
		case *ast.BinaryExpr:
			if isBodyLimit(n) && !marked[fset.Position(n.Pos()).Line] {
				out = append(out, rel+":"+strconv.Itoa(fset.Position(n.Pos()).Line)+": the body limit spelled by hand; use vocab.LimitBodyBytes")
			}
		case *ast.BasicLit:
			line := fset.Position(n.Pos()).Line
			if skip[n] || marked[line] {
				return true
			}
			switch n.Kind {
			case token.STRING:
				s, err := strconv.Unquote(n.Value)
				if c, ok := names[s]; ok && err == nil {
					out = append(out, rel+":"+strconv.Itoa(line)+": "+n.Value+" spelled by hand; use "+c)
				}
			case token.INT:
				if n.Value == "33554432" {
					out = append(out, rel+":"+strconv.Itoa(line)+": the body limit spelled by hand; use vocab.LimitBodyBytes")
				}
			}
		}
		return true
	})
	return out
}

// isBodyLimit reports whether e is 32 << 20, the body limit as the code
// used to write it.
func isBodyLimit(e *ast.BinaryExpr) bool {
	x, okX := e.X.(*ast.BasicLit)
	y, okY := e.Y.(*ast.BasicLit)
	return okX && okY && e.Op == token.SHL && x.Value == "32" && y.Value == "20"
}
