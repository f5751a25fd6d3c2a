package emit

import (
	"strings"
	"testing"

	"github.com/dave/jennifer/jen"

	"github.com/vllm-sr/systemone/gen/model"
)

// coderSource declares the IR types the coder table's cases name.
var coderSource = &handSource{
	structs: map[string]goStruct{
		"ir.QuestionThreshold": {fields: []goField{{name: "Question", typ: "string"}, {name: "Threshold", typ: "float64"}}},
		"ir.Pair3":             {fields: []goField{{name: "A", typ: "string"}, {name: "B", typ: "string"}, {name: "C", typ: "string"}}},
	},
	underlying: map[string]string{"ir.Coverage": "string"},
}

// TestCoderTable: each Go type of an IR field, with the JSON kind the spec
// states, has the read and the write the hand-written copies had; a kind
// the field cannot hold, or a type outside the table, has none.
func TestCoderTable(t *testing.T) {
	str, num, integer := model.Type{Kinds: []model.Kind{model.KindString}}, model.Type{Kinds: []model.Kind{model.KindNumber}}, model.Type{Kinds: []model.Kind{model.KindInteger}}
	object := func(values model.Kind) model.Type {
		return model.Type{Kinds: []model.Kind{model.KindObject}, Values: &model.Type{Kinds: []model.Kind{values}}}
	}
	cases := []struct {
		name        string
		request     bool
		typ         string
		spec        model.Type
		required    bool
		number      bool
		read, write string // "" : no default
	}{
		{"reply string, optional", false, "string", str, false, false, "s.x.F = m.Value.Str()", "writeNonEmpty(o, N, s.x.F)"},
		{"reply string, required", false, "string", str, true, false, "s.x.F = m.Value.Str()", "o.str(N, s.x.F)"},
		{"reply enum word", false, "ir.Coverage", str, false, false, "s.x.F = ir.Coverage(m.Value.Str())", "writeNonEmpty(o, N, string(s.x.F))"},
		{"reply *string", false, "*string", str, true, false, "s.x.F = new(m.Value.Str())", "if s.x.F != nil { o.str(N, *s.x.F) }"},
		{"reply *float64, shared room", false, "*float64", num, false, true, "s.x.F = s.number(m.Value)", "writeNumber(o, N, s.x.F)"},
		{"reply *float64", false, "*float64", num, false, false, "f, _ := m.Value.Float() s.x.F = &f", "writeNumber(o, N, s.x.F)"},
		{"reply float64, required", false, "float64", num, true, false, "s.x.F, _ = m.Value.Float()", "o.float(N, s.x.F)"},
		{"reply float64, optional: no absence", false, "float64", num, false, false, "s.x.F, _ = m.Value.Float()", ""},
		{"reply *int64", false, "*int64", integer, false, false, "n, _ := m.Value.Int() s.x.F = &n", "if s.x.F != nil { o.Name(N) o.Dst = appendInt(o.Dst, *s.x.F) }"},
		{"reply keyed list", false, "[]ir.QuestionThreshold", object(model.KindNumber), false, false,
			"s.x.F = readKeyed(m.Value, func(key string, x jsonvalue.Value) ir.QuestionThreshold { value, _ := x.Float() return ir.QuestionThreshold{ Question: key, Threshold: value, } })",
			"writeKeyed(o, N, s.x.F, func(item *ir.QuestionThreshold) string { return item.Question }, func(dst []byte, item *ir.QuestionThreshold) []byte { return appendFloat(dst, item.Threshold, &o.finite) })"},
		{"reply keyed list of another kind", false, "[]ir.QuestionThreshold", object(model.KindString), false, false, "", ""},
		{"reply three-field list", false, "[]ir.Pair3", object(model.KindString), false, false, "", ""},
		{"reply number member, string field", false, "string", num, false, false, "", ""},
		{"request *string", true, "*string", str, false, false, "s.x.F = rd.text(m.Value, lm)", "appendStringMember(o, N, s.x.F)"},
		{"request *int64", true, "*int64", integer, false, false, "n := rd.integer(m.Value, lm) s.x.F = &n", "appendIntMember(o, N, s.x.F)"},
		{"request content", true, "jsonvalue.Value", model.Type{Kinds: []model.Kind{model.KindObject}}, false, false,
			"s.x.F = rd.keep(m.Value)", "if s.x.F.IsValid() { o.name(N) o.Dst = jsonvalue.AppendCompact(o.Dst, s.x.F) }"},
		{"request string, not a pointer: no absence", true, "string", str, false, false, "", ""},
		{"request nullable", true, "*string", model.Type{Kinds: []model.Kind{model.KindString}, Nullable: true}, false, false, "", ""},
	}
	render := func(stmts []jen.Code) string {
		if stmts == nil {
			return ""
		}
		var b strings.Builder
		if err := jen.Func().Id("_").Params().Block(stmts...).Render(&b); err != nil {
			t.Fatal(err)
		}
		out := strings.Join(strings.Fields(b.String()), " ")
		return strings.TrimSuffix(strings.TrimPrefix(out, "func _() { "), " }")
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := coderInput{request: tc.request, field: func() *jen.Statement { return jen.Id("s").Dot("x").Dot("F") },
				name: jen.Id("N"), class: classOf(coderSource, tc.typ), spec: tc.spec, required: tc.required,
				number: tc.number, keyed: keyedOf(coderSource, tc.typ)}
			if got := render(in.readStmts()); got != tc.read {
				t.Errorf("read:\n got %q\nwant %q", got, tc.read)
			}
			if got := render(in.writeStmts()); got != tc.write {
				t.Errorf("write:\n got %q\nwant %q", got, tc.write)
			}
		})
	}
}
