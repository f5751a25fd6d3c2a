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
// Go. A request validator refuses every member its schema does not define;
// a reply validator of a schema without the extension set (systemone/0.2)
// ignores them, as the standard's clients do. The output is straight-line code (a switch on member names per
// object, one function per distinct object shape: validators_shapes.go),
// with no reflection and no allocation on a valid body.

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
	f.PackageComment("Package validate checks decoded System One bodies against a schema ID,\n" +
		"requests and replies: unknown members (a systemone/0.2 reply's are\n" +
		"ignored), JSON types, enums, limits, required members and removed 4.0\n" +
		"forms, each problem named by its JSON Pointer and never carrying the\n" +
		"offending value. It is generated from the specifications by srgen.")
	set, err := findShapes(schemas)
	if err != nil {
		return nil, fmt.Errorf("validators: %w", err)
	}
	bodies := []struct {
		fn, body string
		root     func(model.SchemaValidation) string
	}{
		{"Request", "request body", func(s model.SchemaValidation) string { return s.Request }},
		{"BatchRequest", "batch body (POST /v1/systemone/batch)", func(s model.SchemaValidation) string { return s.Batch }},
		{"Response", "response (a 200 of POST /v1/systemone)", func(s model.SchemaValidation) string { return s.Response }},
		{"BatchResponse", "batch response (a 200 of POST /v1/systemone/batch)", func(s model.SchemaValidation) string { return s.BatchResponse }},
		{"Answer", "answer (one value of a response's answers)", func(s model.SchemaValidation) string { return s.Answer }},
		{"ErrorBody", "error body", func(s model.SchemaValidation) string { return s.Error }},
		{"Listing", "model listing (GET /v1/models)", func(s model.SchemaValidation) string { return s.Listing }},
		{"Health", "health reply (GET /health)", func(s model.SchemaValidation) string { return s.Health }},
	}
	for _, b := range bodies {
		if err := writeDispatch(f, set, b.fn, b.body, b.root); err != nil {
			return nil, fmt.Errorf("validators: %s: %w", b.fn, err)
		}
	}
	if err := writeShapes(f, set); err != nil {
		return nil, fmt.Errorf("validators: %w", err)
	}
	writeHelpers(f)
	file, err := render(dir+"/zz_generated.validate.go", f)
	return []File{file}, err
}

// writeDispatch writes the schema-ID entry point (Request, BatchRequest)
// and its per-schema functions, for the schemas that have that body. The
// exported functions stay one per schema (the runtime calls them); each
// calls its root object's shape function.
func writeDispatch(f *jen.File, set *shapeSet, fn, body string, root func(model.SchemaValidation) string) error {
	schemas := set.schemas
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
	if len(known) == 0 {
		return nil // no schema has such a body
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
	for i, s := range schemas {
		if root(s) == "" {
			continue
		}
		// A body must be an object before its members are walked.
		check, err := valueStmts(set.callee(i), model.ValueCheck{
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
