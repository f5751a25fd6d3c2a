package emit

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/vllm-sr/systemone/gen/model"
)

// The validators artifact: generated/validate/zz_generated.validate.go.
// Every member name, type, enum, limit and removed form in it comes from
// model.Validations; this file only decides how the checks are spelled in
// Go. The output is straight-line code (a switch on member names per
// object, one function per object), with no reflection and no allocation
// on a valid body.

const jsonPackage = "github.com/vllm-sr/systemone/runtime/jsonvalue"

// tablePackage is the import path generated checks name problems with.
const tablePackage = tablePath

// validators writes generated/validate/zz_generated.validate.go: the
// request and batch validators of every schema.
func (o Options) validators(m *model.Model) ([]File, error) {
	schemas, err := m.Validations()
	if err != nil {
		return nil, fmt.Errorf("validators: %w", err)
	}
	dir, importPath := o.goPackage("validate")
	f := newGoFile(importPath, "validate", specPaths(m))
	f.ImportName(jsonPackage, "jsonvalue")
	f.PackageComment("Package validate checks decoded System One bodies against a schema ID:\n" +
		"unknown members, JSON types, enums, limits, required members and removed\n" +
		"4.0 forms, each problem named by its JSON Pointer and never carrying the\n" +
		"offending value. It is generated from the specifications by srgen.")
	bodies := []struct {
		fn, body string
		root     func(model.SchemaValidation) string
	}{
		{"Request", "request body", func(s model.SchemaValidation) string { return s.Request }},
		{"BatchRequest", "batch body (POST /v1/systemone/batch)", func(s model.SchemaValidation) string { return s.Batch }},
	}
	for _, b := range bodies {
		if err := writeDispatch(f, schemas, b.fn, b.body, b.root); err != nil {
			return nil, fmt.Errorf("validators: %s: %w", b.fn, err)
		}
	}
	for _, s := range schemas {
		if err := writeSchema(f, s); err != nil {
			return nil, fmt.Errorf("validators: schema %s: %w", s.Schema, err)
		}
	}
	writeHelpers(f)
	file, err := render(dir+"/zz_generated.validate.go", f)
	return []File{file}, err
}

// writeDispatch writes the schema-ID entry point (Request, BatchRequest)
// and its per-schema functions, for the schemas that have that body.
func writeDispatch(f *jen.File, schemas []model.SchemaValidation, fn, body string, root func(model.SchemaValidation) string) error {
	var cases []jen.Code
	var known []string
	for _, s := range schemas {
		if root(s) == "" {
			continue
		}
		known = append(known, string(s.Schema))
		cases = append(cases, jen.Case(jen.Qual(tablePackage, "Schema"+s.GoName)).Block(
			jen.Return(jen.Id(fn+s.GoName).Call(jen.Id("v"))),
		))
	}
	f.Commentf("%s checks a decoded %s against schema.\n"+
		"It returns nil when the body is valid, else every problem found, in\n"+
		"document order, at most table.MaxProblems. A schema without such a body\n"+
		"gives one unknown_schema problem.", fn, body)
	f.Func().Id(fn).Params(jen.Id("schema").Qual(tablePackage, "SchemaID"), jen.Id("v").Qual(jsonPackage, "Value")).Index().Qual(tablePackage, "Problem").Block(
		jen.Switch(jen.Id("schema")).Block(cases...),
		jen.Return(jen.Index().Qual(tablePackage, "Problem").Values(jen.Values(jen.Dict{
			jen.Id("Reason"):   jen.Qual(tablePackage, "ReasonUnknownSchema"),
			jen.Id("Expected"): jen.Lit(joinOr(known)),
		}))),
	)
	for _, s := range schemas {
		if root(s) == "" {
			continue
		}
		// A body must be an object before its members are walked.
		check, err := valueStmts(s, model.ValueCheck{
			Kinds: bodyKinds, Expected: model.KindsText(bodyKinds, false), Object: root(s),
		}, jen.Id("v"), jen.Op("&").Id("at"), jen.Id("at"), 1)
		if err != nil {
			return err
		}
		f.Commentf("%s%s checks a decoded %s against %s.", fn, s.GoName, body, s.Schema)
		f.Func().Id(fn+s.GoName).Params(jen.Id("v").Qual(jsonPackage, "Value")).Index().Qual(tablePackage, "Problem").Block(
			jen.Var().Id("problems").Qual(tablePackage, "Problems"),
			jen.Id("ps").Op(":=").Op("&").Id("problems"),
			jen.Var().Id("at").Qual(tablePackage, "Path"),
			jen.Add(check...),
			jen.Return(jen.Id("problems").Dot("List").Call()),
		)
	}
	return nil
}

// bodyKinds: every body the validators check is a JSON object.
var bodyKinds = []model.Kind{model.KindObject}

func joinOr(items []string) string {
	if len(items) <= 1 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
}

// writeSchema writes one function per object check of a schema.
func writeSchema(f *jen.File, s model.SchemaValidation) error {
	for _, obj := range s.Objects {
		code, err := objectFuncCode(s, obj)
		if err != nil {
			return fmt.Errorf("object %s: %w", obj.Name, err)
		}
		f.Add(code)
	}
	return nil
}

// objectFunc names the function that checks object check name of s, such
// as vllmSR50QuestionChoice.
func objectFunc(s model.SchemaValidation, name string) string {
	return lowerFirst(s.GoName) + camel(name)
}

func camel(name string) string {
	var b strings.Builder
	for _, part := range strings.FieldsFunc(name, func(r rune) bool { return r == '_' || r == '-' || r == ' ' }) {
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String()
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// writeHelpers writes the two fixed helpers the checks call.
func writeHelpers(f *jen.File) {
	f.Comment("isText reports whether v is a JSON string whose text is s. An unescaped\n" +
		"string is compared in place, without allocating; s holds no backslash\n" +
		"(the emitter checks it), so an escaped string is decoded first.")
	f.Func().Id("isText").Params(jen.Id("v").Qual(jsonPackage, "Value"), jen.Id("s").String()).Bool().Block(
		jen.Id("raw").Op(":=").Id("v").Dot("Raw").Call(),
		jen.If(jen.Id("v").Dot("Kind").Call().Op("!=").Qual(jsonPackage, "KindString").Op("||").Len(jen.Id("raw")).Op("<").Lit(2)).Block(jen.Return(jen.False())),
		jen.If(jen.String().Call(jen.Id("raw").Index(jen.Lit(1), jen.Len(jen.Id("raw")).Op("-").Lit(1))).Op("==").Id("s")).Block(jen.Return(jen.True())),
		jen.For(jen.List(jen.Id("_"), jen.Id("c")).Op(":=").Range().Id("raw")).Block(
			jen.If(jen.Id("c").Op("==").LitRune('\\')).Block(jen.Return(jen.Id("v").Dot("Str").Call().Op("==").Id("s"))),
		),
		jen.Return(jen.False()),
	)
}
