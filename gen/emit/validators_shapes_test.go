package emit

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/gen/model"
	"github.com/vllm-sr/systemone/runtime/table"
)

// generatedFuncs parses a generated validators file: each function's body
// as printed text, and the package functions it calls.
type generatedFuncs struct {
	bodies map[string]string
	calls  map[string][]string
	order  []string
}

func parseGenerated(t *testing.T, src []byte) generatedFuncs {
	t.Helper()
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "zz_generated.validate.go", src, 0)
	if err != nil {
		t.Fatalf("generated code does not parse: %v", err)
	}
	g := generatedFuncs{bodies: map[string]string{}, calls: map[string][]string{}}
	for _, decl := range file.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if !ok {
			continue
		}
		name := fn.Name.Name
		if _, dup := g.bodies[name]; dup {
			t.Fatalf("function %s is declared twice", name)
		}
		var buf bytes.Buffer
		if err := printer.Fprint(&buf, fset, fn.Body); err != nil {
			t.Fatal(err)
		}
		g.bodies[name] = buf.String()
		g.order = append(g.order, name)
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if id, ok := call.Fun.(*ast.Ident); ok && id.Name != "len" && id.Name != "string" && id.Name != "uint64" && id.Name != "int64" {
					g.calls[name] = append(g.calls[name], id.Name)
				}
			}
			return true
		})
	}
	return g
}

// checkOneFunctionPerShape: no two unexported functions have the same body
// (every shape is emitted once; the exported entry points stay one per
// schema) and every function a body calls is emitted.
func checkOneFunctionPerShape(t *testing.T, g generatedFuncs) {
	t.Helper()
	seen := map[string]string{}
	for _, name := range g.order {
		if other, ok := seen[g.bodies[name]]; ok && !ast.IsExported(name) {
			t.Errorf("%s and %s have the same body", other, name)
		}
		seen[g.bodies[name]] = name
		for _, callee := range g.calls[name] {
			if _, ok := g.bodies[callee]; !ok {
				t.Errorf("%s calls %s, which is not emitted", name, callee)
			}
		}
	}
}

func emitValidators(t *testing.T, m *model.Model) generatedFuncs {
	t.Helper()
	files, err := DefaultOptions().validators(m)
	if err != nil {
		t.Fatal(err)
	}
	return parseGenerated(t, files[0].Data)
}

func TestValidatorsOneFunctionPerShape(t *testing.T) {
	real, err := model.LoadDir("../..")
	if err != nil {
		t.Fatal(err)
	}
	for name, m := range map[string]*model.Model{"small": smallValidationModel(), "real specs": real} {
		t.Run(name, func(t *testing.T) { checkOneFunctionPerShape(t, emitValidators(t, m)) })
	}
}

// TestValidatorsShareShapes: the small model's two schemas check noul
// criteria alike, so vllm-sr/5.0 calls the function named after
// systemone/0.2, the first schema with that shape.
func TestValidatorsShareShapes(t *testing.T) {
	g := emitValidators(t, smallValidationModel())
	if _, ok := g.bodies["vllmSR50QuestionNoulCriteria"]; ok {
		t.Error("vllmSR50QuestionNoulCriteria is emitted beside standard02QuestionNoulCriteria")
	}
	if !slices.Contains(g.calls["vllmSR50QuestionNoul"], "standard02QuestionNoulCriteria") {
		t.Errorf("vllmSR50QuestionNoul calls %v, not standard02QuestionNoulCriteria", g.calls["vllmSR50QuestionNoul"])
	}
}

// withTwinSchema adds vllm-sr/4.0 to the model as a copy of its
// systemone/0.2 schema.
func withTwinSchema(m *model.Model) *model.Model {
	twin := m.Schemas[0]
	twin.ID = table.SchemaVllmSR40
	m.Schemas = append(m.Schemas, twin)
	return m
}

// TestValidatorsShapesPropagateBottomUp: a schema identical to another
// shares every object function, its request's included, since each
// callee being shared makes its callers identical too; its exported
// entry point stays and calls the shared root.
func TestValidatorsShapesPropagateBottomUp(t *testing.T) {
	g := emitValidators(t, withTwinSchema(smallValidationModel()))
	checkOneFunctionPerShape(t, g)
	for _, name := range g.order {
		if strings.HasPrefix(name, "vllmSR40") {
			t.Errorf("%s is emitted, though vllm-sr/4.0 repeats systemone/0.2", name)
		}
	}
	if got := g.calls["RequestVllmSR40"]; !slices.Equal(got, []string{"standard02Request", "nullNotAllowed", "wrongType"}) {
		t.Errorf("RequestVllmSR40 calls %v", got)
	}
}

// TestValidatorsRecursiveShape: an object that contains itself keeps a
// function of its own in each schema (its callers were built before its
// shape was known), and what it calls is still shared.
func TestValidatorsRecursiveShape(t *testing.T) {
	m := withTwinSchema(smallValidationModel())
	for _, i := range []int{0, 2} {
		request := &m.Schemas[i].Messages[0]
		request.Members = append(slices.Clip(request.Members), model.Member{
			Name: "then", Spec: model.SpecStandard, Type: model.Type{Kinds: []model.Kind{model.KindObject}, Ref: "request"}})
	}
	g := emitValidators(t, m)
	checkOneFunctionPerShape(t, g)
	var own []string
	for _, name := range g.order {
		if strings.HasPrefix(name, "vllmSR40") {
			own = append(own, name)
		}
	}
	sort.Strings(own)
	if !slices.Equal(own, []string{"vllmSR40Request"}) {
		t.Errorf("vllm-sr/4.0's own functions = %v, want only the recursive vllmSR40Request", own)
	}
	for _, name := range []string{"standard02Request", "vllmSR40Request"} {
		if !slices.Contains(g.calls[name], name) || !slices.Contains(g.calls[name], "standard02Question") {
			t.Errorf("%s calls %v, want itself and standard02Question", name, g.calls[name])
		}
	}
}

func TestValidatorsRefuseUnknownObjectCheck(t *testing.T) {
	schemas, err := smallValidationModel().Validations()
	if err != nil {
		t.Fatal(err)
	}
	schemas[1].Objects[0].Members[2].Value.Values.Object = "nothing" // the questions' values
	if _, err := findShapes(schemas); err == nil || !strings.Contains(err.Error(), `no object check "nothing"`) {
		t.Errorf("err = %v", err)
	}
}
