package docsite

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// typeText is the type of the schema r in words ("string or null", "map
// of Answer", "array of string"), each component schema it names a link
// to its page from the page from.
func (d *apiDoc) typeText(r *openapi3.SchemaRef, from string) string {
	if r == nil || r.Ref == "" && r.Value == nil {
		return "any"
	}
	if name, ok := component(r.Ref); ok {
		return link(name, d.schemaPath(name), from)
	}
	s := r.Value
	var alts []string
	for _, group := range []openapi3.SchemaRefs{s.OneOf, s.AnyOf} {
		for _, a := range group {
			if isShape(a) {
				alts = append(alts, d.typeText(a, from))
			}
		}
	}
	var all []string
	for _, a := range s.AllOf {
		if isShape(a) {
			all = append(all, d.typeText(a, from))
		}
	}
	if len(all) > 0 {
		alts = append(alts, strings.Join(all, " and ")+d.restrictions(s.AllOf))
	}
	nullable := s.Nullable
	for _, t := range s.Type.Slice() {
		switch {
		case t == "null":
			nullable = true
		case t == "array" && s.Items != nil:
			alts = append(alts, "array of "+grouped(d.typeText(s.Items, from)))
		case t == "object" && s.AdditionalProperties.Schema != nil && len(s.Properties) == 0:
			alts = append(alts, "map of "+grouped(d.typeText(s.AdditionalProperties.Schema, from)))
		default:
			alts = append(alts, t)
		}
	}
	if len(alts) == 0 && len(s.Properties) > 0 {
		alts = append(alts, "object")
	}
	if len(alts) == 0 && !nullable {
		alts = append(alts, "any")
	}
	if nullable {
		alts = append(alts, "null")
	}
	return words(alts, "or")
}

// grouped puts a type of alternatives in parentheses, so "map of
// (Content or null)" does not read as a map or null.
func grouped(t string) string {
	if strings.Contains(t, " or ") {
		return "(" + t + ")"
	}
	return t
}

// isShape reports whether an alternative of oneOf, anyOf or allOf is a
// type, not a constraint ({required: [noul]}) or a restriction of another
// part's properties ({properties: {code: {enum: [...]}}}).
func isShape(r *openapi3.SchemaRef) bool {
	if r.Ref != "" {
		return true
	}
	s := r.Value
	return s != nil && (len(s.Type.Slice()) > 0 || len(s.OneOf)+len(s.AnyOf)+len(s.AllOf) > 0 ||
		s.Items != nil || s.AdditionalProperties.Schema != nil)
}

// restrictions are allOf parts that narrow another part's properties, in
// words: " whose `code` is one of `a` or `b`".
func (d *apiDoc) restrictions(parts openapi3.SchemaRefs) string {
	var out []string
	for _, p := range parts {
		if isShape(p) || p.Value == nil {
			continue
		}
		for _, name := range slices.Sorted(maps.Keys(p.Value.Properties)) {
			r := p.Value.Properties[name]
			if r.Value != nil && len(r.Value.Enum) == 1 {
				out = append(out, code(name)+" is "+value(r.Value.Enum[0]))
			} else if c := d.constraints(r); len(c) > 0 {
				out = append(out, code(name)+" is "+strings.Join(c, ", "))
			}
		}
	}
	if len(out) == 0 {
		return ""
	}
	return " whose " + words(out, "and")
}

// constraints are what a schema allows of its value beyond its type, as
// phrases: "one of `a` or `b`", "from 0 to 1", "at least 1 member",
// "added in 5.0". A $ref's own are on the component's page; only the
// keywords beside it are listed.
func (d *apiDoc) constraints(r *openapi3.SchemaRef) []string {
	if r == nil || r.Value == nil {
		return nil
	}
	var out []string
	s := r.Value
	if r.Ref == "" {
		out = append(out, valueConstraints(s)...)
		if s.Items != nil && s.Items.Ref == "" {
			if c := d.constraints(s.Items); len(c) > 0 {
				out = append(out, "each item "+strings.Join(c, ", "))
			}
		}
		if a := s.AdditionalProperties.Schema; a != nil && a.Ref == "" {
			if c := d.constraints(a); len(c) > 0 {
				out = append(out, "each value "+strings.Join(c, ", "))
			}
		}
	}
	ext := map[string]any{}
	for _, m := range []map[string]any{s.Extensions, r.Extensions} {
		for k, v := range m {
			ext[k] = v
		}
	}
	if types, ok := ext["x-srgen-question-types"].([]any); ok {
		var names []string
		for _, t := range types {
			names = append(names, value(t))
		}
		out = append(out, "on "+words(names, "and")+" questions")
	}
	if since, ok := ext["x-srgen-since"].(string); ok {
		out = append(out, "added in "+since)
	}
	return out
}

// valueConstraints are the keywords that bound one value.
func valueConstraints(s *openapi3.Schema) []string {
	var out []string
	if s.Const != nil {
		out = append(out, "always "+value(s.Const))
	}
	if len(s.Enum) == 1 {
		out = append(out, "only "+value(s.Enum[0]))
	} else if len(s.Enum) > 1 {
		var vs []string
		for _, v := range s.Enum {
			vs = append(vs, value(v))
		}
		out = append(out, "one of "+words(vs, "or"))
	}
	out = append(out, bounds(s)...)
	if s.MinLength > 0 || s.MaxLength != nil {
		out = append(out, count(s.MinLength, s.MaxLength, "character"))
	}
	if s.Pattern != "" {
		out = append(out, "matches "+code(s.Pattern))
	}
	if s.Format != "" {
		out = append(out, "format "+code(s.Format))
	}
	if s.MinItems > 0 || s.MaxItems != nil {
		out = append(out, count(s.MinItems, s.MaxItems, "item"))
	}
	if s.UniqueItems {
		out = append(out, "no item twice")
	}
	if s.MinProps > 0 || s.MaxProps != nil {
		out = append(out, count(s.MinProps, s.MaxProps, "member"))
	}
	if s.Default != nil {
		out = append(out, "default "+value(s.Default))
	}
	for _, f := range []struct {
		on   bool
		text string
	}{{s.Deprecated, "deprecated"}, {s.ReadOnly, "read-only"}, {s.WriteOnly, "write-only"}} {
		if f.on {
			out = append(out, f.text)
		}
	}
	return out
}

// bounds are a number's minimum and maximum: "from 0 to 1", "at least 1",
// "above 0" (OpenAPI 3.0's exclusiveMinimum: true, or 3.1's number).
func bounds(s *openapi3.Schema) []string {
	lo, loOpen := s.Min, s.ExclusiveMin.Bool != nil && *s.ExclusiveMin.Bool
	if v := s.ExclusiveMin.Value; v != nil {
		lo, loOpen = v, true
	}
	hi, hiOpen := s.Max, s.ExclusiveMax.Bool != nil && *s.ExclusiveMax.Bool
	if v := s.ExclusiveMax.Value; v != nil {
		hi, hiOpen = v, true
	}
	switch {
	case lo != nil && hi != nil && !loOpen && !hiOpen:
		return []string{"from " + number(*lo) + " to " + number(*hi)}
	}
	var out []string
	if lo != nil {
		out = append(out, map[bool]string{false: "at least ", true: "above "}[loOpen]+number(*lo))
	}
	if hi != nil {
		out = append(out, map[bool]string{false: "at most ", true: "below "}[hiOpen]+number(*hi))
	}
	return out
}

func number(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// count is a size bound: "2 to 10 items", "at least 1 member".
func count(lo uint64, hi *uint64, unit string) string {
	plural := func(n uint64) string {
		if n == 1 {
			return unit
		}
		return unit + "s"
	}
	switch {
	case hi == nil:
		return fmt.Sprintf("at least %d %s", lo, plural(lo))
	case lo == 0:
		return fmt.Sprintf("at most %d %s", *hi, plural(*hi))
	case lo == *hi:
		return fmt.Sprintf("exactly %d %s", lo, plural(lo))
	}
	return fmt.Sprintf("%d to %d %s", lo, *hi, plural(*hi))
}

// fieldRow is one row of a fields or parameters table: the name, marked
// when required; the type; the description, then the constraints as a
// sentence. Three columns fit beside the sidebar and the table of
// contents; more would wrap every cell.
func (d *apiDoc) fieldRow(name string, r *openapi3.SchemaRef, required bool, description, from string) []string {
	field := code(name)
	if required {
		field += " (required)"
	}
	text := strings.TrimSpace(description)
	if c := d.constraints(r); len(c) > 0 {
		sentence := strings.Join(c, "; ")
		sentence = strings.ToUpper(sentence[:1]) + sentence[1:] + "."
		if text != "" && !strings.HasSuffix(text, ".") {
			text += "."
		}
		text = strings.TrimSpace(text + " " + sentence)
	}
	return []string{field, cell(d.typeText(r, from)), cell(text)}
}

var fieldHeader = []string{"Field", "Type", "Description"}

// maxNesting bounds how deep fieldRows lists the fields of inline objects.
const maxNesting = 4

// fieldRows are the rows of an object's fields, s at pointer ptr, in
// document order; an inline object's own fields follow it, named by path
// (options.deadline_ms, items[].name, models.*.name).
func (d *apiDoc) fieldRows(prefix string, s *openapi3.Schema, ptr, from string, depth int) [][]string {
	var rows [][]string
	for _, name := range orderedKeys(d, ptr+"/properties", s.Properties) {
		r := s.Properties[name]
		var desc string
		if r.Value != nil {
			desc = r.Value.Description
		}
		rows = append(rows, d.fieldRow(prefix+name, r, slices.Contains(s.Required, name), desc, from))
		if r.Ref != "" || r.Value == nil || depth >= maxNesting {
			continue
		}
		at := ptr + "/properties/" + pointerToken(name)
		for _, sub := range []struct {
			s      *openapi3.SchemaRef
			suffix string
			ptr    string
		}{{r, ".", at}, {r.Value.Items, "[].", at + "/items"}, {r.Value.AdditionalProperties.Schema, ".*.", at + "/additionalProperties"}} {
			if sub.s != nil && sub.s.Ref == "" && sub.s.Value != nil && len(sub.s.Value.Properties) > 0 {
				rows = append(rows, d.fieldRows(prefix+name+sub.suffix, sub.s.Value, sub.ptr, from, depth+1)...)
			}
		}
	}
	return rows
}
