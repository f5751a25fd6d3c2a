package drift

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/vllm-sr/systemone/gen/model"
	"github.com/vllm-sr/systemone/runtime/table"
)

// Kind names what differs.
type Kind string

const (
	// KindComponentGone: a component the spec lists is not in the document.
	KindComponentGone Kind = "component_gone"
	// KindComponentNew: the document has a component the spec does not list.
	KindComponentNew Kind = "component_new"
	// KindFieldGone: a field we describe is not in its component.
	KindFieldGone Kind = "field_gone"
	// KindFieldNew: the component has a property we do not describe.
	KindFieldNew Kind = "field_new"
	// KindType: the field's JSON kinds differ.
	KindType Kind = "type"
	// KindRequired: the field's required flag differs.
	KindRequired Kind = "required"
	// KindNullable: whether the field may be null differs.
	KindNullable Kind = "nullable"
)

// Difference is one way the document differs from our description.
type Difference struct {
	// Component is the published component schema's name.
	Component string
	// Level and QuestionType are what the spec says it describes.
	Level        table.Level
	QuestionType table.QuestionType
	// Field is the property; empty for a component difference.
	Field string
	Kind  Kind
	// Ours and Published say each side's value, for a person.
	Ours, Published string
}

func (d Difference) String() string {
	where := d.Component
	if d.Field != "" {
		where += "." + d.Field
	}
	switch d.Kind {
	case KindComponentGone:
		return where + ": component listed in the spec is gone from the document"
	case KindComponentNew:
		return where + ": component in the document is not listed in the spec's source.components"
	case KindFieldGone:
		return where + ": field we describe is gone from the document"
	case KindFieldNew:
		return where + ": field in the document is not in our description (" + d.Published + ")"
	}
	return fmt.Sprintf("%s: %s differs: ours %s, published %s", where, d.Kind, d.Ours, d.Published)
}

// Report is the outcome of one comparison.
type Report struct {
	// SHA256 is the document's; Recorded is the spec's source.sha256.
	SHA256, Recorded string
	// Differences are in the spec's component order, fields in our order
	// then the document's new ones; nil when the hashes match.
	Differences []Difference
}

// Matches reports whether the document is the one the spec was checked
// against.
func (r Report) Matches() bool { return r.SHA256 == r.Recorded }

// CompareFile reads the document at path and compares it.
func CompareFile(m *model.Model, path string) (Report, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Report{}, err
	}
	return Compare(m, data)
}

// Compare checks data, a published OpenAPI document in JSON or YAML,
// against the model's description of the standard.
func Compare(m *model.Model, data []byte) (Report, error) {
	spec := m.Spec(model.SpecStandard)
	if spec == nil || spec.Source == nil {
		return Report{}, fmt.Errorf("the model has no standard spec with a source")
	}
	sum := sha256.Sum256(data)
	r := Report{SHA256: hex.EncodeToString(sum[:]), Recorded: spec.Source.SHA256}
	if r.Matches() {
		return r, nil
	}
	loader := openapi3.NewLoader()
	loader.IsExternalRefsAllowed = false
	doc, err := loader.LoadFromData(data)
	if err != nil {
		return r, fmt.Errorf("not an OpenAPI document kin-openapi can load: %w", err)
	}
	if doc.Components == nil {
		return r, fmt.Errorf("the document has no components")
	}
	r.Differences = compareComponents(m, spec.Source.Components, doc.Components.Schemas)
	return r, nil
}

func compareComponents(m *model.Model, listed []model.SourceComponent, published openapi3.Schemas) []Difference {
	var out []Difference
	names := map[string]bool{}
	for _, c := range listed {
		names[c.Name] = true
		ref, ok := published[c.Name]
		if !ok || ref == nil || ref.Value == nil {
			out = append(out, Difference{Component: c.Name, Level: c.Level, QuestionType: c.QuestionType, Kind: KindComponentGone})
			continue
		}
		out = append(out, compareFields(m, c, ref.Value)...)
	}
	var extra []string
	for name := range published {
		if !names[name] {
			extra = append(extra, name)
		}
	}
	sort.Strings(extra)
	for _, name := range extra {
		out = append(out, Difference{Component: name, Kind: KindComponentNew})
	}
	return out
}

// compareFields compares one component's properties with the fields we
// describe at its level (and question type).
func compareFields(m *model.Model, c model.SourceComponent, s *openapi3.Schema) []Difference {
	var out []Difference
	ours := expectedFields(m, c)
	for _, want := range ours {
		diff := Difference{Component: c.Name, Level: c.Level, QuestionType: c.QuestionType, Field: want.name}
		prop, ok := s.Properties[want.name]
		if !ok {
			diff.Kind = KindFieldGone
			out = append(out, diff)
			continue
		}
		got := shapeOf(prop, slices.Contains(s.Required, want.name))
		out = append(out, want.compare(diff, got)...)
	}
	var extra []string
	for name := range s.Properties {
		if !slices.ContainsFunc(ours, func(e expected) bool { return e.name == name }) {
			extra = append(extra, name)
		}
	}
	sort.Strings(extra)
	for _, name := range extra {
		got := shapeOf(s.Properties[name], slices.Contains(s.Required, name))
		out = append(out, Difference{Component: c.Name, Level: c.Level, QuestionType: c.QuestionType, Field: name,
			Kind: KindFieldNew, Published: got.text()})
	}
	return out
}

// shape is what either side says of one field.
type shape struct {
	kinds              []model.Kind
	nullable, required bool
}

func (s shape) text() string {
	t := model.KindsText(s.kinds, s.nullable)
	if s.required {
		return t + ", required"
	}
	return t + ", optional"
}

// expected is one field of ours, with how strictly it must match.
type expected struct {
	name string
	shape
	// broader: the prose docs also describe the field, so ours may accept
	// kinds (or null) the document does not.
	broader bool
}

func (e expected) compare(diff Difference, got shape) []Difference {
	var out []Difference
	if !kindsAgree(e.kinds, got.kinds, e.broader) {
		d := diff
		d.Kind, d.Ours, d.Published = KindType, model.KindsText(e.kinds, false), model.KindsText(got.kinds, false)
		out = append(out, d)
	}
	if e.required != got.required {
		d := diff
		d.Kind, d.Ours, d.Published = KindRequired, fmt.Sprint(e.required), fmt.Sprint(got.required)
		out = append(out, d)
	}
	if got.nullable && !e.nullable || e.nullable && !got.nullable && !e.broader {
		d := diff
		d.Kind, d.Ours, d.Published = KindNullable, fmt.Sprint(e.nullable), fmt.Sprint(got.nullable)
		out = append(out, d)
	}
	return out
}

// kindsAgree: the published kinds are ours, or (broader) among ours. An
// integer is among kinds that hold number.
func kindsAgree(ours, published []model.Kind, broader bool) bool {
	if slices.Contains(ours, model.KindNumber) {
		ours = slices.DeleteFunc(slices.Clone(ours), func(k model.Kind) bool { return k == model.KindInteger })
	}
	has := func(k model.Kind) bool {
		return slices.Contains(ours, k) || k == model.KindInteger && slices.Contains(ours, model.KindNumber)
	}
	for _, k := range published {
		if !has(k) {
			return false
		}
	}
	if broader {
		return true
	}
	return len(ours) == len(published)
}

// expectedFields are the standard's fields the document carries at the
// component's level that apply to its question type, in spec order. A
// question's criteria take their shape from the question type's own.
func expectedFields(m *model.Model, c model.SourceComponent) []expected {
	var out []expected
	for _, f := range m.SpecFields(model.SpecStandard) {
		if f.Level != c.Level || !slices.Contains(f.DocumentedIn, model.DocOpenAPI) {
			continue
		}
		if c.QuestionType != "" && len(f.QuestionTypes) > 0 && !slices.Contains(f.QuestionTypes, c.QuestionType) {
			continue
		}
		e := expected{name: f.Name, shape: shape{kinds: f.Type.Kinds, nullable: f.Type.Nullable, required: f.Required},
			broader: slices.Contains(f.DocumentedIn, model.DocProse)}
		if c.Level == table.LevelQuestion && f.Name == model.CriteriaFieldName && c.QuestionType != "" {
			crit, ok := criteriaShape(m, c.QuestionType)
			if !ok {
				continue // a type without criteria
			}
			e.shape, e.broader = crit, false
		}
		out = append(out, e)
	}
	return out
}

// criteriaShape is the criteria member of a question type as a field.
func criteriaShape(m *model.Model, qt table.QuestionType) (shape, bool) {
	f := m.Field(model.SpecStandard, table.LevelQuestionType, string(qt))
	if f == nil || f.Criteria == nil || f.Criteria.Kind == model.CriteriaNone {
		return shape{}, false
	}
	kinds := []model.Kind{model.KindObject}
	if f.Criteria.Kind == model.CriteriaLevels {
		kinds = []model.Kind{model.KindArray}
	}
	return shape{kinds: kinds, nullable: f.Criteria.Nullable, required: f.Criteria.Required}, true
}

// shapeOf reads a published property: its JSON kinds in model order and
// whether it may be null. A schema that names no type (FastAPI's "any")
// allows every kind and null.
func shapeOf(ref *openapi3.SchemaRef, required bool) shape {
	seen := map[model.Kind]bool{}
	nullable, typed := collectKinds(ref, seen, 0)
	if !typed {
		for _, k := range model.KindOrder {
			seen[k] = true
		}
		nullable = true
	}
	if seen[model.KindNumber] {
		delete(seen, model.KindInteger)
	}
	out := shape{nullable: nullable, required: required}
	for _, k := range model.KindOrder {
		if seen[k] {
			out.kinds = append(out.kinds, k)
		}
	}
	return out
}

// maxDepth bounds collectKinds on a self-referring document.
const maxDepth = 32

// collectKinds adds the kinds a schema allows (its type list, const, and
// the union of its anyOf, oneOf and allOf alternatives) to seen. It
// returns whether null is allowed and whether the schema named any kind.
func collectKinds(ref *openapi3.SchemaRef, seen map[model.Kind]bool, depth int) (nullable, typed bool) {
	if ref == nil || ref.Value == nil || depth > maxDepth {
		return false, false
	}
	s := ref.Value
	nullable = s.Nullable
	if s.Type != nil {
		for _, t := range s.Type.Slice() {
			typed = true
			if t == openapi3.TypeNull {
				nullable = true
				continue
			}
			seen[model.Kind(t)] = true
		}
	}
	if s.Const != nil && !typed {
		typed = true
		if k, ok := constKind(s.Const); ok {
			seen[k] = true
		} else {
			nullable = true
		}
	}
	for _, alts := range []openapi3.SchemaRefs{s.AnyOf, s.OneOf, s.AllOf} {
		for _, alt := range alts {
			n, t := collectKinds(alt, seen, depth+1)
			nullable = nullable || n
			typed = typed || t
		}
	}
	return nullable, typed
}

func constKind(v any) (model.Kind, bool) {
	switch v.(type) {
	case string:
		return model.KindString, true
	case bool:
		return model.KindBoolean, true
	case float64, int, int64:
		return model.KindNumber, true
	case map[string]any:
		return model.KindObject, true
	case []any:
		return model.KindArray, true
	}
	return "", false
}

// Summary is the report for a person, one line each.
func (r Report) Summary() string {
	var b strings.Builder
	if r.Matches() {
		fmt.Fprintf(&b, "the document is the one the spec was checked against (sha256 %s)\n", r.SHA256)
		return b.String()
	}
	fmt.Fprintf(&b, "the document's sha256 %s differs from the spec's source.sha256 %s\n", r.SHA256, r.Recorded)
	if len(r.Differences) == 0 {
		b.WriteString("no schema or field differs in name, type, required flag or nullability; review the rest of the document, then update source.sha256\n")
		return b.String()
	}
	fmt.Fprintf(&b, "%d differences in name, type, required flag or nullability:\n", len(r.Differences))
	for _, d := range r.Differences {
		b.WriteString("  " + d.String() + "\n")
	}
	return b.String()
}
