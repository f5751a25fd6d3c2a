package docsite

import (
	"fmt"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/vllm-sr/systemone/gen/emit"
)

// schemaPage is a component schema's page: what it is, its fields or
// alternatives, the members it no longer has, and what refers to it.
func (d *apiDoc) schemaPage(name string) emit.File {
	p := d.schemaPath(name)
	r := d.doc.Components.Schemas[name]
	s := r.Value
	ptr := "/components/schemas/" + pointerToken(name)
	fm := FrontMatter{ID: pageID(p), Title: d.schema + " " + name, SidebarLabel: name}
	var b strings.Builder
	if s.Description != "" {
		b.WriteString(prose(s.Description) + "\n\n")
	}
	fmt.Fprintf(&b, "A schema of the %s.\n\n", link(d.schema+" OpenAPI document", d.overviewPath(), p))
	// A union's type is its alternatives, which have a section.
	if len(s.Type.Slice()) > 0 || len(s.Properties) > 0 || len(s.OneOf)+len(s.AnyOf) == 0 {
		b.WriteString("**Type**: " + d.typeText(&openapi3.SchemaRef{Value: s}, p) + ".")
		if c := d.constraints(r); len(c) > 0 {
			b.WriteString(" **Constraints**: " + strings.Join(c, "; ") + ".")
		}
		b.WriteString("\n\n")
	}
	d.alternatives(&b, s, p)
	if len(s.Properties) > 0 {
		b.WriteString("## Fields\n\n")
		if alts := requiredAlternatives(s); alts != "" {
			b.WriteString("It also has " + alts + ".\n\n")
		}
		table(&b, fieldHeader, d.fieldRows("", s, ptr, p, 0))
		b.WriteString(openness(s, d.typeText(s.AdditionalProperties.Schema, p)) + "\n\n")
	}
	d.removedForms(&b, s, ptr)
	d.usedBy(&b, name, p)
	return page(p, fm, b.String())
}

// alternatives lists a union's schemas, with the value of the member that
// tells them apart when it has one.
func (d *apiDoc) alternatives(b *strings.Builder, s *openapi3.Schema, from string) {
	alts := s.OneOf
	if len(alts) == 0 {
		alts = s.AnyOf
	}
	var shapes openapi3.SchemaRefs
	for _, a := range alts {
		if isShape(a) {
			shapes = append(shapes, a)
		}
	}
	if len(shapes) == 0 {
		return
	}
	b.WriteString("## Alternatives\n\n")
	disc := s.Discriminator
	if disc == nil {
		for _, a := range shapes {
			b.WriteString("- " + d.typeText(a, from) + "\n")
		}
		b.WriteString("\n")
		return
	}
	byRef := map[string]string{}
	for v, m := range disc.Mapping {
		byRef[m.Ref] = v
	}
	fmt.Fprintf(b, "The value of %s says which one a value is.\n\n", code(disc.PropertyName))
	var rows [][]string
	for _, a := range shapes {
		v, ok := byRef[a.Ref]
		if !ok && a.Value != nil {
			if c := a.Value.Properties[disc.PropertyName]; c != nil && c.Value != nil && c.Value.Const != nil {
				v = fmt.Sprint(c.Value.Const)
			}
		}
		rows = append(rows, []string{code(v), cell(d.typeText(a, from))})
	}
	table(b, []string{code(disc.PropertyName), "Schema"}, rows)
}

// requiredAlternatives is an anyOf of required lists in words: "`noul`,
// or `error`".
func requiredAlternatives(s *openapi3.Schema) string {
	var alts []string
	for _, a := range s.AnyOf {
		if isShape(a) || a.Value == nil || len(a.Value.Required) == 0 {
			continue
		}
		var names []string
		for _, n := range a.Value.Required {
			names = append(names, code(n))
		}
		alts = append(alts, words(names, "and"))
	}
	if len(alts) == 0 {
		return ""
	}
	return strings.Join(alts, ", or ")
}

// openness says what an object does with members it does not list.
func openness(s *openapi3.Schema, other string) string {
	switch ap := s.AdditionalProperties; {
	case ap.Has != nil && !*ap.Has:
		return "A member not listed here is refused (`additionalProperties: false`)."
	case ap.Schema != nil:
		return "Any other member is a " + other + "."
	}
	return "It may carry members not listed here: a reader ignores the ones it does not know."
}

// removedForms writes x-srgen-removed-forms: members this schema had in
// an earlier contract, and what took their place.
func (d *apiDoc) removedForms(b *strings.Builder, s *openapi3.Schema, ptr string) {
	forms, _ := s.Extensions["x-srgen-removed-forms"].(map[string]any)
	if len(forms) == 0 {
		return
	}
	b.WriteString("## Removed members\n\nMembers an earlier contract had here, and what took their place (`x-srgen-removed-forms`):\n\n")
	var rows [][]string
	for _, k := range orderedKeys(d, ptr+"/x-srgen-removed-forms", forms) {
		rows = append(rows, []string{code(k), code(fmt.Sprint(forms[k]))})
	}
	table(b, []string{"Member", "In its place"}, rows)
}
