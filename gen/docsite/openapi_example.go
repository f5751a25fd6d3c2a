package docsite

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// exampleDepth bounds how deep an example nests: the schemas refer to
// themselves nowhere today, and a depth this large is never reached.
const exampleDepth = 12

// jsonMember is one member of an example object, kept in schema order.
type jsonMember struct {
	name  string
	value any
}

// jsonObject is an example object whose members keep the document's
// property order (kin-openapi holds properties in Go maps).
type jsonObject []jsonMember

func (o jsonObject) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		name, _ := json.Marshal(m.name)
		value, err := json.Marshal(m.value)
		if err != nil {
			return nil, err
		}
		b.Write(name)
		b.WriteByte(':')
		b.Write(value)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// example is a JSON example of a body of schema r, made from the schema
// alone: an object has its required properties (its first property when
// none is required, one entry of a map), an array its fewest items (at
// least one), a value its schema's example, else its const or first enum value,
// else the smallest value its bounds allow ("text" for a string). Of
// alternatives (oneOf, anyOf, several types) it takes the first; allOf's
// parts are merged, a later part's property winning (an error body's
// code limited to the status's codes). The example is checked against
// the schema by kin-openapi: an example that breaks it is an error, so a
// page never shows a body the server would refuse.
func (d *apiDoc) example(r *openapi3.SchemaRef) ([]byte, error) {
	v := d.exampleOf(r, "", exampleDepth)
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var generic any
	if err := json.Unmarshal(data, &generic); err != nil {
		return nil, err
	}
	if r != nil && r.Value != nil {
		if err := r.Value.VisitJSON(generic, openapi3.MultiErrors()); err != nil {
			return nil, fmt.Errorf("the example %s breaks its schema: %w", data, err)
		}
	}
	var out bytes.Buffer
	if err := json.Indent(&out, data, "", "  "); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// exampleOf is example's value; ptr is the JSON pointer of the schema in
// the document when it is a component's (for its property order).
func (d *apiDoc) exampleOf(r *openapi3.SchemaRef, ptr string, depth int) any {
	if r == nil || r.Value == nil || depth == 0 {
		return nil
	}
	if name, ok := component(r.Ref); ok {
		ptr = "/components/schemas/" + pointerToken(name)
	}
	s := r.Value
	switch {
	case s.Example != nil:
		return s.Example
	case s.Const != nil:
		return s.Const
	case len(s.Enum) > 0:
		return s.Enum[0]
	case len(s.AllOf) > 0:
		var merged jsonObject
		for i, part := range s.AllOf {
			if o, ok := d.exampleOf(part, ptr+fmt.Sprintf("/allOf/%d", i), depth-1).(jsonObject); ok {
				merged = mergeMembers(merged, o)
			}
		}
		if len(s.Properties) > 0 {
			merged = mergeMembers(merged, d.objectExample(s, ptr, depth))
		}
		return merged
	case len(s.OneOf) > 0 && isShape(s.OneOf[0]):
		return d.exampleOf(s.OneOf[0], ptr+"/oneOf/0", depth-1)
	case len(s.AnyOf) > 0 && isShape(s.AnyOf[0]):
		return d.exampleOf(s.AnyOf[0], ptr+"/anyOf/0", depth-1)
	}
	types := s.Type.Slice()
	if len(types) == 0 && (len(s.Properties) > 0 || s.AdditionalProperties.Schema != nil) {
		types = []string{"object"}
	}
	if len(types) == 0 {
		return nil
	}
	switch types[0] {
	case "object":
		return d.objectExample(s, ptr, depth)
	case "array":
		n := max(int(s.MinItems), 1)
		items := make([]any, n)
		for i := range items {
			items[i] = d.exampleOf(s.Items, ptr+"/items", depth-1)
		}
		return items
	case "string":
		switch {
		case s.Format == "date":
			return "2026-07-01"
		case s.Format == "date-time":
			return "2026-07-01T00:00:00Z"
		}
		text := "text"
		for uint64(len(text)) < s.MinLength {
			text += "x"
		}
		return text
	case "integer":
		if s.Min != nil {
			return int64(*s.Min)
		}
		return 1
	case "number":
		if s.Min != nil {
			return *s.Min
		}
		if s.Max != nil && *s.Max < 0.5 {
			return *s.Max
		}
		return 0.5
	case "boolean":
		return true
	}
	return nil
}

// objectExample is an object's required properties in document order (its
// first property when none is required), or for a map as many entries as
// minProperties asks, at least one, named key_1, key_2, ...
func (d *apiDoc) objectExample(s *openapi3.Schema, ptr string, depth int) jsonObject {
	var o jsonObject
	required := s.Required
	// A constraint among the alternatives ({required: [noul]} of an answer
	// that carries noul or error): the first one's members are required.
	for _, alts := range []openapi3.SchemaRefs{s.AnyOf, s.OneOf} {
		if len(alts) > 0 && !isShape(alts[0]) && alts[0].Value != nil {
			required = append(slices.Clone(required), alts[0].Value.Required...)
		}
	}
	if len(s.Properties) > 0 {
		names := orderedKeys(d, ptr+"/properties", s.Properties)
		for _, name := range names {
			if slices.Contains(required, name) {
				o = append(o, jsonMember{name, d.exampleOf(s.Properties[name], ptr+"/properties/"+pointerToken(name), depth-1)})
			}
		}
		if len(o) == 0 {
			name := names[0]
			o = append(o, jsonMember{name, d.exampleOf(s.Properties[name], ptr+"/properties/"+pointerToken(name), depth-1)})
		}
		return o
	}
	if s.AdditionalProperties.Schema != nil {
		n := max(int(s.MinProps), 1)
		for i := 1; i <= n; i++ {
			o = append(o, jsonMember{fmt.Sprintf("key_%d", i), d.exampleOf(s.AdditionalProperties.Schema, ptr+"/additionalProperties", depth-1)})
		}
	}
	return o
}

// mergeMembers is a with b's members, each replacing a's of its name.
func mergeMembers(a, b jsonObject) jsonObject {
	out := slices.Clone(a)
	for _, m := range b {
		if i := slices.IndexFunc(out, func(x jsonMember) bool { return x.name == m.name }); i >= 0 {
			out[i] = m
		} else {
			out = append(out, m)
		}
	}
	return out
}

// exampleBlock is a body's example, for the media type that carries
// JSON, as a fenced block with its heading line; "" when the body has no
// JSON schema.
func (d *apiDoc) exampleBlock(c openapi3.Content, what string) (string, error) {
	for _, mt := range slices.Sorted(maps.Keys(c)) {
		if !strings.Contains(mt, "json") || c[mt].Schema == nil {
			continue
		}
		data, err := d.example(c[mt].Schema)
		if err != nil {
			return "", fmt.Errorf("%s: %w", what, err)
		}
		return "Example response body (" + code(mt) + "):\n\n```json\n" + string(data) + "\n```\n\n", nil
	}
	return "", nil
}
