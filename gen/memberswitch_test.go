package gen

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// boundLevels are the shapes whose member dispatch srgen writes: the
// request shapes (runtime/shapes/zz_generated.bind.go) and the
// answer shapes (zz_generated.replybind.go). No hand-written runtime file
// may switch on their member names.
var boundLevels = map[string]bool{
	"request": true, "batch": true, "bundle": true, "options": true, "question": true, "asset": true,
	"response": true, "batch_response": true, "usage": true, "answer": true, "box_region": true, "span_item": true,
	"set_result": true, "error": true, "legacy_error": true, "validation_item": true, "listing": true,
	"listing_entry": true, "legacy_list_item": true, "health": true,
}

// memberSwitchExempt are hand-written functions whose case clauses name a
// bound member without dispatching on an object's members, each with why
// (file, then function).
var memberSwitchExempt = map[string]string{
	// Judged to stay: it reads no object, a member the specs add needs no
	// case here (the default, not_carried, answers it), and the preset
	// case needs the catalogue, which no spec table gives.
	"runtime/router/uncarried.go questionReason": "switches on the last segment of a carry check's path (a path, not an object's members) to pick a fixed reason word",
}

// TestNoHandWrittenMemberSwitch: no hand-written file of the runtime or the
// commands has a case clause naming a member of a bound shape: the
// generated binding dispatches them, calling a hand-written function per
// bound member, so a member the specs add reaches every reader and writer
// or fails to compile. A source scan, like TestRuntimeSpellsNoSpecName.
func TestNoHandWrittenMemberSwitch(t *testing.T) {
	members := boundMemberConsts(t)
	if len(members) < 80 {
		t.Fatalf("read only %d bound member constants from %s", len(members), vocabFile)
	}
	var found []string
	files := 0
	for _, dir := range []string{"runtime", "cmd"} {
		err := filepath.WalkDir(filepath.Join(repoRoot, dir), func(path string, d fs.DirEntry, err error) error {
			switch {
			case err != nil:
				return err
			case d.IsDir() && d.Name() == "testdata":
				return filepath.SkipDir
			case d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || strings.HasPrefix(d.Name(), "zz_generated."):
				return nil
			}
			files++
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(repoRoot, path)
			found = append(found, memberSwitches(t, filepath.ToSlash(rel), src, members)...)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if files < 50 {
		t.Fatalf("scanned only %d hand-written files", files)
	}
	sort.Strings(found)
	for _, f := range found {
		t.Error(f)
	}
}

// TestMemberSwitchScanFinds: the scan finds a member switch, wherever it
// is and however the vocabulary is imported, and leaves an enum switch and
// an exempt function alone.
func TestMemberSwitchScanFinds(t *testing.T) {
	members := boundMemberConsts(t)
	src := `package x

import v "github.com/vllm-sr/systemone/generated/vocab"

func read(name string) int {
	switch name {
	case v.QuestionQuestionless, v.QuestionTypeNoul:
		return 0
	case v.OptionsDeadlineMs:
		return 1
	}
	return 2
}

func questionReason(name string) int {
	switch name {
	case v.QuestionType:
		return 0
	}
	return 1
}
`
	got := memberSwitches(t, "runtime/router/uncarried.go", []byte(src), members)
	if len(got) != 1 || !strings.Contains(got[0], "runtime/router/uncarried.go:9: case v.OptionsDeadlineMs") {
		t.Fatalf("the scan found %q, want the one options member", got)
	}
	if got := memberSwitches(t, "runtime/x/other.go", []byte(src), members); len(got) != 2 {
		t.Fatalf("outside the exempt file the scan found %q, want both member cases", got)
	}
}

// boundMemberConsts are the generated/vocab constants that name a member of
// a bound level, read from the vocabulary's const blocks, whose comments
// name their level.
func boundMemberConsts(t *testing.T) map[string]string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(repoRoot, vocabFile), nil, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	levelOf := regexp.MustCompile(`name the members of level ([a-z_]+):`)
	out := map[string]string{}
	for _, decl := range f.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST || gd.Doc == nil {
			continue
		}
		m := levelOf.FindStringSubmatch(gd.Doc.Text())
		if m == nil || !boundLevels[m[1]] {
			continue
		}
		for _, spec := range gd.Specs {
			for _, name := range spec.(*ast.ValueSpec).Names {
				out[name.Name] = m[1]
			}
		}
	}
	return out
}

// memberSwitches returns, as file:line messages, the case clauses of src
// that name a bound member constant, outside the exempt functions.
func memberSwitches(t *testing.T, rel string, src []byte, members map[string]string) []string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, rel, src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	vocabName := ""
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); strings.HasSuffix(p, "/generated/vocab") {
			vocabName = "vocab"
			if imp.Name != nil {
				vocabName = imp.Name.Name
			}
		}
	}
	if vocabName == "" {
		return nil
	}
	var out []string
	for _, decl := range f.Decls {
		fd, ok := decl.(*ast.FuncDecl)
		if !ok || fd.Body == nil || memberSwitchExempt[rel+" "+fd.Name.Name] != "" {
			continue
		}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			cc, ok := n.(*ast.CaseClause)
			if !ok {
				return true
			}
			for _, e := range cc.List {
				sel, ok := e.(*ast.SelectorExpr)
				if !ok {
					continue
				}
				if x, ok := sel.X.(*ast.Ident); !ok || x.Name != vocabName {
					continue
				}
				if level, bound := members[sel.Sel.Name]; bound {
					out = append(out, rel+":"+strconv.Itoa(fset.Position(cc.Pos()).Line)+": case "+vocabName+"."+sel.Sel.Name+
						" switches on the "+level+" members by hand; the generated binding dispatches them (runtime/shapes/zz_generated.bind.go, zz_generated.replybind.go)")
				}
			}
			return true
		})
	}
	return out
}
