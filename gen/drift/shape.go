package drift

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/vllm-sr/systemone/gen/model"
)

// Shape is a schema reduced to what it means for the facets drift
// compares. Both sides are brought to it before comparing, so how a
// schema is spelled never shows as a difference:
//
//   - nullable: true, a type list holding "null", a {type: null}
//     alternative and an enum or const holding null all set Nullable;
//   - oneOf and anyOf alternatives are merged into one Shape;
//   - a $ref to a component the spec lists stays a name in Refs (the
//     component is compared once, on its own); any other $ref is replaced
//     by what it refers to, so a union written inline and one written as
//     a named component are the same Shape;
//   - a const is a one-value enum, and number absorbs integer.
type Shape struct {
	// Any: the schema constrains no kind, so every kind and null are
	// allowed; every other member is then zero but Nullable (true).
	Any      bool
	Nullable bool
	// Refs are the listed components the value may be, sorted.
	Refs []string
	// Discriminator is the property whose value picks one of Refs, and
	// Mapping maps its values to components; both empty when Refs are not
	// a discriminated union.
	Discriminator string
	Mapping       map[string]string
	// Scalars are the scalar kinds allowed (string, number, integer,
	// boolean) with their constraints.
	Scalars map[model.Kind]*Scalar
	// Object and Array are set when the kind is allowed.
	Object *Object
	Array  *Array
}

// Scalar is what a scalar kind allows.
type Scalar struct {
	// Enum are the allowed values as text (strings unquoted), sorted; nil:
	// any value.
	Enum             []string
	Minimum, Maximum *float64
}

// Object is what the object kind allows.
type Object struct {
	Properties map[string]*Shape
	// Required are property names, sorted.
	Required []string
	// Additional is the shape of members Properties does not name; nil:
	// any value. Closed: no other member is allowed (additionalProperties:
	// false), and Additional is nil.
	Additional                   *Shape
	Closed                       bool
	MinProperties, MaxProperties *int
}

// Array is what the array kind allows.
type Array struct {
	// Items is the shape of every item; nil: any value.
	Items              *Shape
	MinItems, MaxItems *int
}

// anyShape is the Shape of a schema that constrains nothing.
func anyShape() *Shape { return &Shape{Any: true, Nullable: true} }

// scalarKinds are the kinds a Scalar describes, in model order.
var scalarKinds = []model.Kind{model.KindString, model.KindNumber, model.KindInteger, model.KindBoolean}

// settle restores the invariants after a Shape is built or merged: sorted
// Refs, and integer dropped where number (which holds every integer) is
// allowed with no stricter constraint of its own.
func (s *Shape) settle() *Shape {
	if s.Any {
		return anyShape()
	}
	slices.Sort(s.Refs)
	s.Refs = slices.Compact(s.Refs)
	if s.Scalars[model.KindNumber] != nil && s.Scalars[model.KindInteger] != nil {
		s.Scalars[model.KindNumber] = widenScalar(s.Scalars[model.KindNumber], s.Scalars[model.KindInteger])
		delete(s.Scalars, model.KindInteger)
	}
	return s
}

// union is the Shape of a value that is a or b (anyOf, oneOf). Two
// alternatives of the same kind widen to the loosest reading of both.
func union(a, b *Shape) *Shape {
	if a.Any || b.Any {
		return anyShape()
	}
	out := &Shape{Nullable: a.Nullable || b.Nullable, Refs: append(slices.Clone(a.Refs), b.Refs...)}
	for _, k := range scalarKinds {
		switch x, y := a.Scalars[k], b.Scalars[k]; {
		case x != nil && y != nil:
			out.setScalar(k, widenScalar(x, y))
		case x != nil:
			out.setScalar(k, x)
		case y != nil:
			out.setScalar(k, y)
		}
	}
	out.Object = widenObject(a.Object, b.Object)
	out.Array = widenArray(a.Array, b.Array)
	return out.settle()
}

func (s *Shape) setScalar(k model.Kind, sc *Scalar) {
	if s.Scalars == nil {
		s.Scalars = map[model.Kind]*Scalar{}
	}
	s.Scalars[k] = sc
}

func widenScalar(a, b *Scalar) *Scalar {
	out := &Scalar{Minimum: loosestLow(a.Minimum, b.Minimum), Maximum: loosestHigh(a.Maximum, b.Maximum)}
	if a.Enum != nil && b.Enum != nil {
		out.Enum = slices.Compact(slices.Sorted(slices.Values(append(slices.Clone(a.Enum), b.Enum...))))
	}
	return out
}

func widenObject(a, b *Object) *Object {
	if a == nil || b == nil {
		return cmpOr(a, b)
	}
	out := &Object{
		Properties:    maps.Clone(a.Properties),
		MinProperties: loosestLow(a.MinProperties, b.MinProperties),
		MaxProperties: loosestHigh(a.MaxProperties, b.MaxProperties),
		Closed:        a.Closed && b.Closed,
	}
	if out.Properties == nil {
		out.Properties = map[string]*Shape{}
	}
	for name, p := range b.Properties {
		if q, ok := out.Properties[name]; ok {
			p = union(p, q)
		}
		out.Properties[name] = p
	}
	for _, r := range a.Required {
		if slices.Contains(b.Required, r) {
			out.Required = append(out.Required, r)
		}
	}
	switch {
	case out.Closed:
	case a.Closed:
		out.Additional = b.Additional
	case b.Closed:
		out.Additional = a.Additional
	case a.Additional != nil && b.Additional != nil:
		out.Additional = union(a.Additional, b.Additional)
	}
	return out
}

func widenArray(a, b *Array) *Array {
	if a == nil || b == nil {
		return cmpOr(a, b)
	}
	out := &Array{MinItems: loosestLow(a.MinItems, b.MinItems), MaxItems: loosestHigh(a.MaxItems, b.MaxItems)}
	if a.Items != nil && b.Items != nil {
		out.Items = union(a.Items, b.Items)
	}
	return out
}

// loosestLow and loosestHigh are the lower and upper bounds both
// alternatives allow: none when either has none.
func loosestLow[T int | float64](a, b *T) *T {
	if a == nil || b == nil {
		return nil
	}
	v := min(*a, *b)
	return &v
}

func loosestHigh[T int | float64](a, b *T) *T {
	if a == nil || b == nil {
		return nil
	}
	v := max(*a, *b)
	return &v
}

func cmpOr[T any](a, b *T) *T {
	if a != nil {
		return a
	}
	return b
}

// text is the type of a Shape for a person, in the specs'
// notation: kinds in model order, then components, then null, joined by
// "|" ("string|object|array|null", "NoulCriteria|null"). A map and an
// array name their member type ("map<number>", "array<ValidationError>").
func (s *Shape) text() string {
	if s == nil || s.Any {
		return "any"
	}
	var parts []string
	for _, k := range model.KindOrder {
		switch {
		case k == model.KindObject && s.Object != nil:
			parts = append(parts, s.Object.text())
		case k == model.KindArray && s.Array != nil:
			parts = append(parts, s.Array.text())
		case s.Scalars[k] != nil:
			parts = append(parts, string(k))
		}
	}
	parts = append(parts, s.Refs...)
	if s.Nullable {
		parts = append(parts, "null")
	}
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, "|")
}

func (o *Object) text() string {
	switch {
	case len(o.Properties) > 0:
		return "object{" + strings.Join(slices.Sorted(maps.Keys(o.Properties)), ",") + "}"
	case o.Additional != nil:
		return "map<" + o.Additional.text() + ">"
	}
	return "object"
}

func (a *Array) text() string {
	if a.Items != nil {
		return "array<" + a.Items.text() + ">"
	}
	return "array"
}

// typeKey is the shallow type compared as one facet: Any, or the kinds and
// components allowed (null is the nullable facet).
func (s *Shape) typeKey() string {
	if s == nil || s.Any {
		return "any"
	}
	var parts []string
	for _, k := range model.KindOrder {
		if k == model.KindObject && s.Object != nil || k == model.KindArray && s.Array != nil || s.Scalars[k] != nil {
			parts = append(parts, string(k))
		}
	}
	return strings.Join(append(parts, s.Refs...), "|")
}

// shallowText names the kinds and components of a Shape without members.
func (s *Shape) shallowText() string {
	if k := s.typeKey(); k != "" {
		return k
	}
	return "nothing"
}

// numberText writes a bound the way the spec does; "none" for no bound.
func numberText(f *float64) string {
	if f == nil {
		return "none"
	}
	return strconv.FormatFloat(*f, 'f', -1, 64)
}

func countText(n *int) string {
	if n == nil {
		return "none"
	}
	return strconv.Itoa(*n)
}
