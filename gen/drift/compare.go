package drift

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/vllm-sr/systemone/gen/model"
)

// comparer walks what our description expects (ours) beside what the
// document says (published) and collects one Difference for each facet
// that differs. Every walk is in a fixed order (spec order for listed
// components, sorted names elsewhere), so the same two documents always
// give the same lines.
type comparer struct {
	out []Difference
}

func (c *comparer) add(d Difference) { c.out = append(c.out, d) }

func (c *comparer) changed(where, facet, item, ours, published string) {
	c.add(Difference{Where: where, Facet: facet, Item: item, Change: Changed, Ours: ours, Published: published})
}

// documents compares two Documents; listed is the spec's component order.
func (c *comparer) documents(ours, pub *Document, listed []string) {
	if ours.OpenAPI != pub.OpenAPI {
		c.changed("document", "openapi", "", ours.OpenAPI, pub.OpenAPI)
	}
	if ours.Version != pub.Version {
		c.changed("document", "info.version", "", ours.Version, pub.Version)
	}
	c.operations(ours.Operations, pub.Operations)
	for _, name := range listed {
		p, ok := pub.Components[name]
		if !ok {
			c.add(Difference{Where: name, Facet: "component", Change: Removed})
			continue
		}
		c.shape(name, ours.Components[name], p)
	}
	for _, name := range slices.Sorted(maps.Keys(pub.Components)) {
		if !slices.Contains(listed, name) {
			c.add(Difference{Where: name, Facet: "component", Change: Added, Published: pub.Components[name].text() + ", not in source.components"})
		}
	}
}

// operations compares paths, then each shared path's operations.
func (c *comparer) operations(ours, pub map[string]*Operation) {
	byPath := func(ops map[string]*Operation) map[string][]string {
		out := map[string][]string{}
		for _, key := range slices.Sorted(maps.Keys(ops)) {
			method, path, _ := strings.Cut(key, " ")
			out[path] = append(out[path], method)
		}
		return out
	}
	op, pp := byPath(ours), byPath(pub)
	for _, path := range slices.Sorted(maps.Keys(union2(op, pp))) {
		switch o, p := op[path], pp[path]; {
		case p == nil:
			c.add(Difference{Where: "paths", Facet: "path", Item: path, Change: Removed, Ours: strings.Join(o, ", ")})
		case o == nil:
			c.add(Difference{Where: "paths", Facet: "path", Item: path, Change: Added, Published: strings.Join(p, ", ")})
		default:
			for _, m := range slices.Sorted(slices.Values(slices.Compact(append(slices.Clone(o), p...)))) {
				key := m + " " + path
				switch {
				case !slices.Contains(p, m):
					c.add(Difference{Where: path, Facet: "operation", Item: m, Change: Removed})
				case !slices.Contains(o, m):
					c.add(Difference{Where: path, Facet: "operation", Item: m, Change: Added})
				default:
					c.operation(key, ours[key], pub[key])
				}
			}
		}
	}
}

func union2[V any](a, b map[string]V) map[string]bool {
	out := map[string]bool{}
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

func (c *comparer) operation(where string, ours, pub *Operation) {
	switch {
	case ours.Request == nil && pub.Request != nil:
		c.add(Difference{Where: where, Facet: "request body", Change: Added})
	case ours.Request != nil && pub.Request == nil:
		c.add(Difference{Where: where, Facet: "request body", Change: Removed})
	case ours.Request != nil:
		if ours.Request.Required != pub.Request.Required {
			c.changed(where, "request body required", "", strconv.FormatBool(ours.Request.Required), strconv.FormatBool(pub.Request.Required))
		}
		c.content(where+" request", ours.Request, pub.Request)
	}
	for _, status := range slices.Sorted(maps.Keys(union2(ours.Responses, pub.Responses))) {
		o, p := ours.Responses[status], pub.Responses[status]
		switch {
		case p == nil:
			c.add(Difference{Where: where, Facet: "response", Item: status, Change: Removed})
		case o == nil:
			c.add(Difference{Where: where, Facet: "response", Item: status, Change: Added, Published: contentText(p)})
		default:
			c.content(where+" response "+status, o, p)
		}
	}
}

func contentText(b *Body) string {
	var parts []string
	for _, media := range slices.Sorted(maps.Keys(b.Content)) {
		parts = append(parts, media+" "+b.Content[media].shallowText())
	}
	return strings.Join(parts, ", ")
}

func (c *comparer) content(where string, ours, pub *Body) {
	for _, media := range slices.Sorted(maps.Keys(union2(ours.Content, pub.Content))) {
		o, p := ours.Content[media], pub.Content[media]
		switch {
		case p == nil:
			c.add(Difference{Where: where, Facet: "content", Item: media, Change: Removed})
		case o == nil:
			c.add(Difference{Where: where, Facet: "content", Item: media, Change: Added, Published: p.shallowText()})
		default:
			c.shape(where, o, p)
		}
	}
}

// shape compares two Shapes at where; nil is a Shape that allows anything
// (an array's items or a map's members the schema leaves free).
func (c *comparer) shape(where string, ours, pub *Shape) {
	if ours == nil {
		ours = anyShape()
	}
	if pub == nil {
		pub = anyShape()
	}
	if ours.typeKey() != pub.typeKey() {
		c.changed(where, "type", "", ours.shallowText(), pub.shallowText())
	}
	if ours.Any || pub.Any {
		return
	}
	if ours.Nullable != pub.Nullable {
		c.changed(where, "nullable", "", strconv.FormatBool(ours.Nullable), strconv.FormatBool(pub.Nullable))
	}
	c.discriminator(where, ours, pub)
	for _, k := range scalarKinds {
		if o, p := ours.Scalars[k], pub.Scalars[k]; o != nil && p != nil {
			c.scalar(where, k, o, p)
		}
	}
	if ours.Object != nil && pub.Object != nil {
		c.object(where, ours.Object, pub.Object)
	}
	if ours.Array != nil && pub.Array != nil {
		c.count(where, "minItems", ours.Array.MinItems, pub.Array.MinItems)
		c.count(where, "maxItems", ours.Array.MaxItems, pub.Array.MaxItems)
		c.shape(where+"[]", ours.Array.Items, pub.Array.Items)
	}
}

func (c *comparer) discriminator(where string, ours, pub *Shape) {
	if len(ours.Refs) == 0 || len(pub.Refs) == 0 {
		return
	}
	if ours.Discriminator != pub.Discriminator {
		c.changed(where, "discriminator", "", orNone(ours.Discriminator), orNone(pub.Discriminator))
		return
	}
	for _, value := range slices.Sorted(maps.Keys(union2(ours.Mapping, pub.Mapping))) {
		o, p := ours.Mapping[value], pub.Mapping[value]
		switch {
		case p == "":
			c.add(Difference{Where: where, Facet: "discriminator mapping", Item: value, Change: Removed, Ours: o})
		case o == "":
			c.add(Difference{Where: where, Facet: "discriminator mapping", Item: value, Change: Added, Published: p})
		case o != p:
			c.changed(where, "discriminator mapping", value, o, p)
		}
	}
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// scalar compares the enum (value by value) and the bounds of one kind.
// Lines do not name the kind: no field allows two scalar kinds that both
// carry constraints.
func (c *comparer) scalar(where string, k model.Kind, ours, pub *Scalar) {
	switch {
	case ours.Enum == nil && pub.Enum != nil:
		c.add(Difference{Where: where, Facet: "enum", Change: Added, Published: strings.Join(pub.Enum, ", ")})
	case ours.Enum != nil && pub.Enum == nil:
		c.add(Difference{Where: where, Facet: "enum", Change: Removed, Ours: strings.Join(ours.Enum, ", ")})
	case ours.Enum != nil:
		for _, v := range ours.Enum {
			if !slices.Contains(pub.Enum, v) {
				c.add(Difference{Where: where, Facet: "enum value", Item: v, Change: Removed})
			}
		}
		for _, v := range pub.Enum {
			if !slices.Contains(ours.Enum, v) {
				c.add(Difference{Where: where, Facet: "enum value", Item: v, Change: Added})
			}
		}
	}
	if k == model.KindNumber || k == model.KindInteger {
		c.bound(where, "minimum", ours.Minimum, pub.Minimum)
		c.bound(where, "maximum", ours.Maximum, pub.Maximum)
	}
}

func (c *comparer) bound(where, facet string, ours, pub *float64) {
	if o, p := numberText(ours), numberText(pub); o != p {
		c.changed(where, facet, "", o, p)
	}
}

func (c *comparer) count(where, facet string, ours, pub *int) {
	if o, p := countText(ours), countText(pub); o != p {
		c.changed(where, facet, "", o, p)
	}
}

// object compares properties (each with its required flag), the members
// the properties leave out, and the member counts.
func (c *comparer) object(where string, ours, pub *Object) {
	for _, name := range slices.Sorted(maps.Keys(union2(ours.Properties, pub.Properties))) {
		o, p := ours.Properties[name], pub.Properties[name]
		oReq, pReq := slices.Contains(ours.Required, name), slices.Contains(pub.Required, name)
		switch {
		case p == nil:
			c.add(Difference{Where: where, Facet: "property", Item: name, Change: Removed, Ours: propertyText(o, oReq)})
		case o == nil:
			c.add(Difference{Where: where, Facet: "property", Item: name, Change: Added, Published: propertyText(p, pReq)})
		default:
			if oReq != pReq {
				c.changed(where+"."+name, "required", "", strconv.FormatBool(oReq), strconv.FormatBool(pReq))
			}
			c.shape(where+"."+name, o, p)
		}
	}
	for _, name := range pub.Required {
		if pub.Properties[name] == nil && ours.Properties[name] == nil {
			c.add(Difference{Where: where, Facet: "required", Item: name, Change: Added, Published: "a member no property describes"})
		}
	}
	if o, p := additionalText(ours), additionalText(pub); o != p && (ours.Additional == nil || pub.Additional == nil) {
		c.changed(where, "additionalProperties", "", o, p)
	} else if ours.Additional != nil {
		c.shape(where+"{}", ours.Additional, pub.Additional)
	}
	c.count(where, "minProperties", ours.MinProperties, pub.MinProperties)
	c.count(where, "maxProperties", ours.MaxProperties, pub.MaxProperties)
}

func propertyText(s *Shape, required bool) string {
	if required {
		return s.text() + ", required"
	}
	return s.text() + ", optional"
}

// additionalText names what an object allows beyond its properties: any
// member, none, or members of a shape.
func additionalText(o *Object) string {
	switch {
	case o.Closed:
		return "none"
	case o.Additional == nil:
		return "any"
	}
	return o.Additional.text()
}
