package drift

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/vllm-sr/systemone/gen/model"
)

// own is the Shape of a schema's own type, const and enum, with their
// constraints; nil when it names no kind (a union or allOf may).
func (n *normaliser) own(s map[string]any, at string) (*Shape, error) {
	types, nullable, err := typeNames(s["type"])
	if err != nil {
		return nil, fmt.Errorf("%s: %w", at, err)
	}
	nullable = nullable || s["nullable"] == true
	values, hasValues := enumValues(s)
	for _, v := range values {
		switch {
		case v == nil:
			nullable = true
		case s["type"] == nil:
			// An enum or const without a type allows the kinds of its values.
			types = appendKind(types, kindOfValue(v))
		}
	}
	if len(types) == 0 {
		if nullable {
			return &Shape{Nullable: true}, nil
		}
		return nil, nil
	}
	out := &Shape{Nullable: nullable}
	for _, k := range types {
		if err := n.kind(out, k, s, values, hasValues, at); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// kind adds one kind a schema's type allows to out, with the keywords that
// constrain that kind and the enum values of that kind.
func (n *normaliser) kind(out *Shape, k model.Kind, s map[string]any, values []any, hasValues bool, at string) error {
	switch k {
	case model.KindObject:
		o, err := n.objectKind(s, at)
		out.Object = o
		return err
	case model.KindArray:
		a := &Array{MinItems: intOf(s["minItems"]), MaxItems: intOf(s["maxItems"])}
		if items, ok := s["items"]; ok {
			sh, err := n.schema(items, at+"/items")
			if err != nil {
				return err
			}
			if !sh.Any {
				a.Items = sh
			}
		}
		out.Array = a
		return nil
	}
	sc := &Scalar{}
	if k == model.KindNumber || k == model.KindInteger {
		sc.Minimum, sc.Maximum = floatOf(s["minimum"]), floatOf(s["maximum"])
	}
	if hasValues {
		sc.Enum = []string{}
		for _, v := range values {
			if v != nil && (kindOfValue(v) == k || k == model.KindNumber && kindOfValue(v) == model.KindInteger) {
				sc.Enum = append(sc.Enum, valueText(v))
			}
		}
		slices.Sort(sc.Enum)
	}
	out.setScalar(k, sc)
	return nil
}

// objectKind reads the object keywords: properties, required,
// additionalProperties (absent, true and {} all allow any member) and the
// member counts.
func (n *normaliser) objectKind(s map[string]any, at string) (*Object, error) {
	o := &Object{MinProperties: intOf(s["minProperties"]), MaxProperties: intOf(s["maxProperties"])}
	props, _ := s["properties"].(map[string]any)
	for _, name := range slices.Sorted(maps.Keys(props)) {
		sh, err := n.schema(props[name], at+"/properties/"+name)
		if err != nil {
			return nil, err
		}
		if o.Properties == nil {
			o.Properties = map[string]*Shape{}
		}
		o.Properties[name] = sh
	}
	if req, ok := s["required"].([]any); ok {
		for _, r := range req {
			o.Required = append(o.Required, fmt.Sprint(r))
		}
		slices.Sort(o.Required)
		o.Required = slices.Compact(o.Required)
	}
	switch ap := s["additionalProperties"].(type) {
	case bool:
		o.Closed = !ap
	case map[string]any:
		sh, err := n.schema(ap, at+"/additionalProperties")
		if err != nil {
			return nil, err
		}
		if !sh.Any {
			o.Additional = sh
		}
	}
	return o, nil
}

// alternatives merges oneOf and anyOf into one Shape and sets its
// discriminator; nil when the schema has neither.
func (n *normaliser) alternatives(s map[string]any, at string) (*Shape, error) {
	var list []any
	for _, key := range []string{"oneOf", "anyOf"} {
		if l, ok := s[key].([]any); ok {
			if list != nil {
				return nil, fmt.Errorf("%s: oneOf beside anyOf is not supported", at)
			}
			list = l
		}
	}
	if list == nil {
		if _, ok := s["discriminator"]; ok {
			return nil, fmt.Errorf("%s: a discriminator without oneOf or anyOf", at)
		}
		return nil, nil
	}
	var out *Shape
	for i, alt := range list {
		sh, err := n.schema(alt, at+"/alternative/"+strconv.Itoa(i))
		if err != nil {
			return nil, err
		}
		if out == nil {
			out = sh
		} else {
			out = union(out, sh)
		}
	}
	if out == nil {
		return nil, fmt.Errorf("%s: an empty oneOf or anyOf", at)
	}
	disc, _ := s["discriminator"].(map[string]any)
	return out, n.discriminate(out, disc, at)
}

// allOf reduces each part of an allOf; the caller combines them.
func (n *normaliser) allOf(s map[string]any, at string) ([]*Shape, error) {
	list, _ := s["allOf"].([]any)
	var out []*Shape
	for i, part := range list {
		sh, err := n.schema(part, at+"/allOf/"+strconv.Itoa(i))
		if err != nil {
			return nil, err
		}
		out = append(out, sh)
	}
	return out, nil
}

// discriminate sets the discriminator of a union of components. A
// declared one is taken as written, each variant its mapping leaves out
// picking itself by the constant it fixes the property to (what a
// validator evaluating the alternatives accepts), or else by its own name
// (OpenAPI's implicit mapping). Without one, the property every variant
// fixes to a different constant discriminates just as well, so the same
// union spelled with or without the keyword reads the same.
func (n *normaliser) discriminate(s *Shape, declared map[string]any, at string) error {
	prop, _ := declared["propertyName"].(string)
	if declared != nil && prop == "" {
		return fmt.Errorf("%s: a discriminator without propertyName", at)
	}
	if prop == "" && len(s.Refs) < 2 {
		return nil
	}
	if prop == "" {
		if prop = n.impliedDiscriminator(s.Refs); prop == "" {
			return nil
		}
	}
	s.Discriminator, s.Mapping = prop, map[string]string{}
	mapping, _ := declared["mapping"].(map[string]any)
	for value, target := range mapping {
		ref := fmt.Sprint(target)
		name, ok := strings.CutPrefix(ref, componentPrefix)
		if !ok && strings.Contains(ref, "/") {
			return fmt.Errorf("%s: discriminator mapping %s: %q is not a component schema", at, value, ref)
		}
		s.Mapping[value] = name
	}
	mapped := slices.Collect(maps.Values(s.Mapping))
	for _, ref := range s.Refs {
		if slices.Contains(mapped, ref) {
			continue
		}
		// A value the declared mapping already gives another component
		// cannot pick this one too; OpenAPI's implicit name does.
		value := n.constOf(ref, prop)
		if _, taken := s.Mapping[value]; value == "" || taken {
			value = ref
		}
		s.Mapping[value] = ref
	}
	return nil
}

// impliedDiscriminator is the one property every component fixes to a
// single string, each to a different one; "" when there is no such one.
func (n *normaliser) impliedDiscriminator(refs []string) string {
	var found []string
	first, _ := n.component(refs[0])
	if first == nil || first.Object == nil {
		return ""
	}
	for _, prop := range slices.Sorted(maps.Keys(first.Object.Properties)) {
		seen := map[string]bool{}
		for _, ref := range refs {
			v := n.constOf(ref, prop)
			if v == "" || seen[v] {
				seen = nil
				break
			}
			seen[v] = true
		}
		if seen != nil {
			found = append(found, prop)
		}
	}
	if len(found) != 1 {
		return ""
	}
	return found[0]
}

// constOf is the one string a component fixes a property to; "" when it
// fixes none (or is being built: it refers to itself).
func (n *normaliser) constOf(component, prop string) string {
	if n.busy[component] {
		return ""
	}
	s, err := n.component(component)
	if err != nil || s.Object == nil || s.Object.Properties[prop] == nil {
		return ""
	}
	p := s.Object.Properties[prop]
	str := p.Scalars[model.KindString]
	if p.Nullable || p.Object != nil || p.Array != nil || len(p.Refs) > 0 || len(p.Scalars) != 1 ||
		str == nil || len(str.Enum) != 1 {
		return ""
	}
	return str.Enum[0]
}
