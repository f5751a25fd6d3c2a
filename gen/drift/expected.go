package drift

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/vllm-sr/systemone/gen/model"
	"github.com/vllm-sr/systemone/runtime/table"
)

// expectation projects our description onto the published document's
// form: what the document should say, if the spec records it correctly.
// Only what the spec says the document carries takes part (fields,
// question types, endpoints and statuses documented_in openapi), and where
// an entry follows another source its openapi reading stands in for it.
type expectation struct {
	m    *model.Model
	spec *model.Spec
	notes
}

// notes are what the projection learns besides the Document.
type notes struct {
	// known are the points where an openapi reading and its entry differ.
	known []Known
	// proseOnly are the "Component.field" places of fields we describe at
	// a listed component's level from the prose docs alone.
	proseOnly map[string]bool
}

// expected builds the Document our description expects, with the known
// differences between that and what the project follows.
func expected(m *model.Model) (*Document, notes, error) {
	spec := m.Spec(model.SpecStandard)
	if spec == nil || spec.Source == nil {
		return nil, notes{}, fmt.Errorf("the model has no standard spec with a source")
	}
	e := &expectation{m: m, spec: spec, notes: notes{proseOnly: map[string]bool{}}}
	doc := &Document{
		OpenAPI: spec.Source.OpenAPIVersion, Version: spec.Version,
		Operations: map[string]*Operation{}, Components: map[string]*Shape{},
	}
	for _, c := range spec.Source.Components {
		doc.Components[c.Name] = e.component(c)
	}
	for _, ep := range m.Endpoints {
		if ep.Spec == model.SpecStandard && slices.Contains(ep.DocumentedIn, model.DocOpenAPI) {
			doc.Operations[ep.Method+" "+ep.Path] = e.operation(ep)
		}
	}
	return doc, e.notes, nil
}

// component is a listed component: an object whose properties are the
// fields of its level (for a per-type component, those of its question
// type) that the document carries.
func (e *expectation) component(c model.SourceComponent) *Shape {
	obj := &Object{Properties: map[string]*Shape{}}
	for _, f := range e.m.SpecFields(model.SpecStandard) {
		if f.Level != c.Level || c.QuestionType != "" && len(f.QuestionTypes) > 0 && !slices.Contains(f.QuestionTypes, c.QuestionType) {
			continue
		}
		where := c.Name + "." + f.Name
		if !slices.Contains(f.DocumentedIn, model.DocOpenAPI) {
			e.proseOnly[where] = true
			continue
		}
		var prop *Shape
		var required bool
		if c.Level == table.LevelQuestion && f.Name == model.CriteriaFieldName && c.QuestionType != "" {
			var ok bool
			if prop, required, ok = e.criteria(where, c.QuestionType); !ok {
				continue // a question type that takes no criteria
			}
		} else {
			prop, required = e.field(where, f, c.QuestionType)
		}
		obj.Properties[f.Name] = prop
		if required {
			obj.Required = append(obj.Required, f.Name)
		}
	}
	slices.Sort(obj.Required)
	return &Shape{Object: obj}
}

// field is one field's property as the document should write it.
func (e *expectation) field(where string, f model.Field, qt table.QuestionType) (*Shape, bool) {
	ours := narrowToType(f.Type, qt)
	doc, required := ours, f.Required
	if r := f.OpenAPI; r != nil {
		if r.Type != nil {
			doc = narrowToType(*r.Type, qt)
		}
		doc = readConstraints(doc, r)
		if r.Required != nil {
			required = *r.Required
		}
		e.note(where, r.Conflict, e.shape(ours), e.shape(doc), f.Required, required)
	}
	return e.shape(doc), required
}

// criteria is a question type's criteria as a property of its question
// component: noul's are the component of the noul_criteria level, levels
// an array of their values, options and labels a map of them. ok is false
// for a type that takes none.
func (e *expectation) criteria(where string, qt table.QuestionType) (prop *Shape, required, ok bool) {
	f := e.m.Field(model.SpecStandard, table.LevelQuestionType, string(qt))
	if f == nil || f.Criteria == nil || f.Criteria.Kind == model.CriteriaNone {
		return nil, false, false
	}
	c := f.Criteria
	ours := model.Type{Kinds: []model.Kind{model.KindObject}, Nullable: c.Nullable, MinCount: c.MinCount, MaxCount: c.MaxCount}
	switch c.Kind {
	case model.CriteriaNoul:
		ours.Ref = string(table.LevelNoulCriteria)
	case model.CriteriaLevels:
		ours.Kinds, ours.Items = []model.Kind{model.KindArray}, c.Values
	default:
		ours.Values = c.Values
	}
	doc, required := ours, c.Required
	if r := c.OpenAPI; r != nil {
		doc = readConstraints(doc, r)
		if r.Nullable != nil {
			doc.Nullable = *r.Nullable
		}
		if r.Required != nil {
			required = *r.Required
		}
		e.note(where, r.Conflict, e.shape(ours), e.shape(doc), c.Required, required)
	}
	return e.shape(doc), required, true
}

// note records the known differences between the entry (ours) and its
// openapi reading (the document's), found by the same comparison the
// document gets, so each is named exactly as a difference there would be.
func (e *expectation) note(where, conflict string, ours, doc *Shape, oursRequired, docRequired bool) {
	var c comparer
	c.shape(where, ours, doc)
	if oursRequired != docRequired {
		c.changed(where, "required", "", strconv.FormatBool(oursRequired), strconv.FormatBool(docRequired))
	}
	for _, d := range c.out {
		e.known = append(e.known, Known{Where: d.Where, Facet: d.Facet, Item: d.Item,
			Document: d.Published, Ours: d.Ours, Conflict: conflict})
	}
}

// readConstraints applies a reading's constraints to a type: a set value
// replaces the entry's, an unset one removes it. Counts belong to the
// type itself; bounds and an enum go where gen/model puts the entry's (the
// members of a type that is only a map or an array).
func readConstraints(t model.Type, r *model.OpenAPIReading) model.Type {
	t = cloneType(t)
	set := func(v, reading *float64, key string) *float64 {
		if r.Unsets(key) {
			return nil
		}
		return cmpOr(reading, v)
	}
	// Bounds go where gen/model puts the entry's (applyBounds): on the
	// members of a type that is only a map or an array.
	bounds := &t
	if len(t.Kinds) == 1 && t.Values != nil {
		bounds = t.Values
	} else if len(t.Kinds) == 1 && t.Items != nil {
		bounds = t.Items
	}
	bounds.Minimum, bounds.Maximum = set(bounds.Minimum, r.Minimum, "minimum"), set(bounds.Maximum, r.Maximum, "maximum")
	setCount := func(v, reading *int, key string) *int {
		if r.Unsets(key) {
			return nil
		}
		return cmpOr(reading, v)
	}
	t.MinCount, t.MaxCount = setCount(t.MinCount, r.MinCount, "min_count"), setCount(t.MaxCount, r.MaxCount, "max_count")
	holder := &t
	if len(t.Kinds) == 1 && t.Values != nil && len(t.Enum) == 0 {
		holder = t.Values
	} else if len(t.Kinds) == 1 && t.Items != nil && len(t.Enum) == 0 {
		holder = t.Items
	}
	switch {
	case r.Unsets("enum"):
		holder.Enum = nil
	case r.Enum != nil:
		holder.Enum = r.Enum
	}
	return t
}

func cloneType(t model.Type) model.Type {
	t.Kinds = slices.Clone(t.Kinds)
	t.Enum = slices.Clone(t.Enum)
	if t.Values != nil {
		v := cloneType(*t.Values)
		t.Values = &v
	}
	if t.Items != nil {
		v := cloneType(*t.Items)
		t.Items = &v
	}
	return t
}

// narrowToType: on a component of one question type, an enum of question
// types holds only that type (NoulQuestion's type is the constant noul).
func narrowToType(t model.Type, qt table.QuestionType) model.Type {
	if qt == "" || !slices.Contains(t.Enum, string(qt)) {
		return t
	}
	for _, v := range t.Enum {
		if !slices.Contains(model.QuestionTypeOrder, table.QuestionType(v)) {
			return t
		}
	}
	t = cloneType(t)
	t.Enum = []string{string(qt)}
	return t
}
