package emit

import (
	"bytes"
	"embed"
	"fmt"
	"path"
	"strconv"
	"strings"
	"text/template"

	"github.com/vllm-sr/systemone/gen/model"
	"github.com/vllm-sr/systemone/runtime/table"
)

//go:embed templates/*.md.tmpl
var templateFS embed.FS

// docPages are the reference pages: output name and template, in order.
var docPages = []struct{ out, tmpl string }{
	{"extension-reference.md", "extension-reference.md.tmpl"},
	{"compatibility-matrix.md", "compatibility-matrix.md.tmpl"},
	{"systemone-0.2.md", "systemone-0.2.md.tmpl"},
	{"schemas.md", "schemas.md.tmpl"},
}

var docTemplates = template.Must(template.New("docs").Funcs(template.FuncMap{
	"cell":           cell,
	"code":           func(s string) string { return "`" + s + "`" },
	"disposition":    dispositionText,
	"join":           joinText,
	"kinds":          model.KindsText,
	"families":       familiesText,
	"has":            hasSchema,
	"overrideChange": overrideChange,
	"reasonAnswer":   reasonAnswer,
}).ParseFS(templateFS, "templates/*.md.tmpl"))

// docs writes the reference Markdown under DocsDir.
func (o Options) docs(m *model.Model) ([]File, error) {
	view, err := newDocsView(m)
	if err != nil {
		return nil, err
	}
	files := make([]File, 0, len(docPages))
	for _, p := range docPages {
		var b bytes.Buffer
		b.WriteString(MarkdownHeader + "\n\n")
		if err := docTemplates.ExecuteTemplate(&b, p.tmpl, view); err != nil {
			return nil, &Error{Path: path.Join(o.DocsDir, p.out), Err: err}
		}
		files = append(files, File{Path: path.Join(o.DocsDir, p.out), Data: b.Bytes()})
	}
	return files, nil
}

// docsView is the model arranged for the templates: grouping and labels
// only, no new facts.
type docsView struct {
	Model      *model.Model
	Standard   model.Spec
	Extensions model.Spec
	Contract   model.Spec
	// ExtensionLevels are the extension spec's fields by level, in the
	// model's level order.
	ExtensionLevels []levelView
	// StandardLevels are the standard's fields by level.
	StandardLevels []levelView
	// Endpoints, Headers and Statuses by spec kind, for `index`.
	Endpoints map[string][]model.Endpoint
	Headers   map[string][]model.Header
	Statuses  map[string][]model.Status
	Matrix    []matrixRow
	// OpenAPISchema's server contract is the OpenAPI document OpenAPIFile,
	// beside the pages (openapi.go).
	OpenAPISchema table.SchemaID
	OpenAPIFile   string
}

type levelView struct {
	Level  table.Level
	Title  string
	Fields []*model.Field
	// Declared are the answer members this level's question types declare
	// (level question_type only), shown under the types that own them.
	Declared []*model.Field
}

type matrixRow struct {
	Field   *model.Field
	Label   string
	Honours []bool // per family, in m.Families order
}

func newDocsView(m *model.Model) (*docsView, error) {
	v := &docsView{
		Model:     m,
		Endpoints: map[string][]model.Endpoint{},
		Headers:   map[string][]model.Header{},
		Statuses:  map[string][]model.Status{},

		OpenAPISchema: OpenAPISchema,
		OpenAPIFile:   OpenAPIFileName(OpenAPISchema),
	}
	specs := map[model.SpecKind]*model.Spec{
		model.SpecStandard: &v.Standard, model.SpecExtensions: &v.Extensions, model.SpecContract40: &v.Contract,
	}
	for _, s := range m.Specs {
		if dst, ok := specs[s.Kind]; ok {
			*dst = s
			delete(specs, s.Kind)
		}
	}
	if len(specs) != 0 {
		return nil, fmt.Errorf("the model lacks one of the three specifications")
	}
	for i := range m.Fields {
		f := &m.Fields[i]
		switch f.Spec {
		case model.SpecExtensions:
			v.ExtensionLevels = addToLevel(v.ExtensionLevels, f)
			v.Matrix = append(v.Matrix, matrixRow{Field: f, Label: fieldLabel(f), Honours: honours(m, f)})
		case model.SpecStandard:
			v.StandardLevels = addToLevel(v.StandardLevels, f)
		}
	}
	addDeclaredAnswerMembers(v.ExtensionLevels)
	for _, e := range m.Endpoints {
		v.Endpoints[string(e.Spec)] = append(v.Endpoints[string(e.Spec)], e)
	}
	for _, h := range m.Headers {
		v.Headers[string(h.Spec)] = append(v.Headers[string(h.Spec)], h)
	}
	for _, s := range m.Statuses {
		v.Statuses[string(s.Spec)] = append(v.Statuses[string(s.Spec)], s)
	}
	return v, nil
}

// addToLevel appends f to its level's group. The model orders fields by
// level, so a level seen before the last group means the model is out of
// order; the group is then reused rather than split.
func addToLevel(levels []levelView, f *model.Field) []levelView {
	for i := range levels {
		if levels[i].Level == f.Level {
			levels[i].Fields = append(levels[i].Fields, f)
			return levels
		}
	}
	return append(levels, levelView{Level: f.Level, Title: levelTitle(f.Level), Fields: []*model.Field{f}})
}

// addDeclaredAnswerMembers shows each answer member a question type
// declares under the question type level too, beside the type it belongs to.
func addDeclaredAnswerMembers(levels []levelView) {
	var declared []*model.Field
	for _, l := range levels {
		for _, f := range l.Fields {
			if f.DeclaredBy != "" {
				declared = append(declared, f)
			}
		}
	}
	for i := range levels {
		if levels[i].Level == table.LevelQuestionType {
			levels[i].Declared = declared
		}
	}
}

func honours(m *model.Model, f *model.Field) []bool {
	out := make([]bool, len(m.Families))
	for i, fam := range m.Families {
		for _, x := range f.Families {
			if x == fam.Name {
				out[i] = true
			}
		}
	}
	return out
}

// fieldLabel is a field as the reference tables name it: the name, then
// the question types it is limited to, as in "head (span)".
func fieldLabel(f *model.Field) string {
	if len(f.QuestionTypes) == 0 {
		return f.Name
	}
	types := make([]string, len(f.QuestionTypes))
	for i, t := range f.QuestionTypes {
		types[i] = string(t)
	}
	return f.Name + " (" + strings.Join(types, ", ") + ")"
}

// levelTitle turns "listing_entry" into "Listing entry".
func levelTitle(l table.Level) string {
	s := strings.ReplaceAll(string(l), "_", " ")
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func dispositionText(d table.Disposition) string { return strings.ReplaceAll(string(d), "_", " ") }

// cell makes text safe inside a Markdown table cell.
func cell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.Join(strings.Fields(s), " ")
}

// joinText joins any slice of string-like values with ", ".
func joinText(xs any) string {
	var parts []string
	switch v := xs.(type) {
	case []string:
		parts = v
	case []table.Family:
		parts = stringsOf(v)
	case []table.QuestionType:
		parts = stringsOf(v)
	case []table.SchemaID:
		parts = stringsOf(v)
	case []model.DocSource:
		parts = stringsOf(v)
	case []int:
		for _, n := range v {
			parts = append(parts, fmt.Sprint(n))
		}
	default:
		return fmt.Sprint(xs)
	}
	return strings.Join(parts, ", ")
}

func stringsOf[T ~string](xs []T) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = string(x)
	}
	return out
}

// familiesText is the families column: as the spec writes it ("all", "the
// Router"), else the families listed.
func familiesText(f *model.Field) string {
	if f.FamiliesText != "" {
		return cell(f.FamiliesText)
	}
	return joinText(f.Families)
}

func hasSchema(ids []table.SchemaID, id table.SchemaID) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// overrideChange says what an override changes, for a person.
// reasonAnswer says how a reason answers: its code and status, the
// question error kind it fails a question with, the unit of its limit, and
// the reply members whose problems it reports.
func reasonAnswer(r model.ErrorReason) string {
	var parts []string
	if r.Code != "" {
		parts = append(parts, "`"+r.Code+"`")
	}
	if r.Kind != "" {
		parts = append(parts, "question error `"+r.Kind+"`")
	}
	if r.Status != 0 {
		parts = append(parts, strconv.Itoa(r.Status))
	}
	if r.Unit != "" {
		parts = append(parts, "limit in "+r.Unit)
	}
	if len(r.Members) > 0 {
		members := make([]string, len(r.Members))
		for i, m := range r.Members {
			members[i] = "`" + strings.Join(m, ".") + "`"
		}
		problems := make([]string, len(r.Problems))
		for i, p := range r.Problems {
			problems[i] = string(p)
		}
		parts = append(parts, strings.Join(problems, ", ")+" at "+strings.Join(members, ", "))
	}
	return strings.Join(parts, "; ")
}

func overrideChange(o model.Override) string {
	var parts []string
	if o.Allowed != nil && !*o.Allowed {
		parts = append(parts, "not allowed")
	}
	if o.Required != nil {
		parts = append(parts, map[bool]string{true: "required", false: "optional"}[*o.Required])
	}
	if o.Nullable != nil {
		parts = append(parts, map[bool]string{true: "may be null", false: "not null"}[*o.Nullable])
	}
	if o.QuestionTypes != nil {
		types := make([]string, len(o.QuestionTypes))
		for i, qt := range o.QuestionTypes {
			types[i] = string(qt)
		}
		parts = append(parts, "question types "+strings.Join(types, ", "))
	}
	return strings.Join(parts, ", ")
}
