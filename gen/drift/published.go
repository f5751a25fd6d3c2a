package drift

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Document is an OpenAPI document reduced to what drift compares. The
// published document is read into one (readDocument) and our description
// projected onto one (expected), so both sides have the same form.
type Document struct {
	// OpenAPI is the openapi field; Version is info.version.
	OpenAPI, Version string
	// Operations by "METHOD /path", the method upper-case.
	Operations map[string]*Operation
	// Components are the component schemas by name: every listed one the
	// document has, and the unlisted ones that are messages (they have
	// properties) or that nothing we compare refers to.
	Components map[string]*Shape
}

// Operation is one path and method.
type Operation struct {
	// Request is the request body; nil: the operation takes none.
	Request *Body
	// Responses are the declared responses by status ("200", "default").
	Responses map[string]*Body
}

// Body is a request body or a response.
type Body struct {
	// Required is a request body's required flag.
	Required bool
	// Content is the body's schema by media type.
	Content map[string]*Shape
}

// componentPrefix is the only kind of $ref drift follows: a document that
// refers outside itself cannot be compared on its own.
const componentPrefix = "#/components/schemas/"

var httpMethods = []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}

// annotations are keywords that say nothing about which values are valid,
// and constraints drift does not compare (formats, string lengths and
// patterns, which our description does not record): a schema made only of
// them allows any value.
var annotations = map[string]bool{
	"title": true, "description": true, "example": true, "examples": true, "default": true,
	"deprecated": true, "readOnly": true, "writeOnly": true, "$comment": true, "externalDocs": true,
	"xml": true, "format": true, "minLength": true, "maxLength": true, "pattern": true,
	"contentMediaType": true, "contentEncoding": true, "uniqueItems": true, "multipleOf": true,
	"exclusiveMinimum": true, "exclusiveMaximum": true,
}

// unsupported are keywords whose meaning drift cannot fold into a Shape;
// a document that uses one is refused rather than compared wrongly.
var unsupported = []string{
	"not", "if", "then", "else", "prefixItems", "patternProperties", "propertyNames",
	"dependentSchemas", "dependentRequired", "unevaluatedProperties", "unevaluatedItems",
	"contains", "$dynamicRef", "$defs",
}

// parseDocument decodes JSON, or YAML when the data is not JSON.
func parseDocument(data []byte) (map[string]any, error) {
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err == nil {
		return doc, nil
	}
	var v any
	if err := yaml.Unmarshal(data, &v); err != nil {
		return nil, fmt.Errorf("not JSON or YAML: %w", err)
	}
	doc, ok := stringKeys(v).(map[string]any)
	if !ok {
		return nil, fmt.Errorf("not a JSON or YAML object")
	}
	return doc, nil
}

// stringKeys gives every YAML mapping string keys, as JSON has: YAML reads
// an unquoted status such as 200: as an integer key.
func stringKeys(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = stringKeys(e)
		}
		return x
	case map[any]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[fmt.Sprint(k)] = stringKeys(e)
		}
		return out
	case []any:
		for i, e := range x {
			x[i] = stringKeys(e)
		}
	}
	return v
}

// readDocument reduces a published document. listed are the component
// names the spec lists: a $ref to one stays a name, any other is inlined.
func readDocument(data []byte, listed []string) (*Document, error) {
	raw, err := parseDocument(data)
	if err != nil {
		return nil, err
	}
	openapi, _ := raw["openapi"].(string)
	if !strings.HasPrefix(openapi, "3.") {
		return nil, fmt.Errorf("not an OpenAPI 3 document (openapi is %q)", fmt.Sprint(raw["openapi"]))
	}
	components, _ := raw["components"].(map[string]any)
	schemas, _ := components["schemas"].(map[string]any)
	n := &normaliser{
		raw: raw, schemas: schemas, listed: map[string]bool{}, seen: map[string]*Shape{},
		busy: map[string]bool{}, referenced: map[string]bool{},
	}
	for _, name := range listed {
		n.listed[name] = true
	}
	doc := &Document{OpenAPI: openapi, Components: map[string]*Shape{}}
	if info, ok := raw["info"].(map[string]any); ok {
		doc.Version, _ = info["version"].(string)
	}
	if doc.Operations, err = n.operations(); err != nil {
		return nil, err
	}
	// Every component is read before any is judged, so each $ref has
	// marked what it inlined; an unlisted component that some $ref inlined
	// is only spelling (a named union, enum or alias), any other is new.
	names := slices.Sorted(maps.Keys(schemas))
	for _, name := range names {
		if _, err := n.component(name); err != nil {
			return nil, err
		}
	}
	for _, name := range names {
		s := n.seen[name]
		if n.listed[name] || s.Object != nil && len(s.Object.Properties) > 0 || !n.referenced[name] {
			doc.Components[name] = s
		}
	}
	return doc, nil
}

// normaliser turns the document's schemas into Shapes.
type normaliser struct {
	raw     map[string]any
	schemas map[string]any
	listed  map[string]bool
	// seen holds each component's Shape once built; busy guards a
	// component that refers to itself.
	seen map[string]*Shape
	busy map[string]bool
	// referenced are the unlisted components some $ref inlined.
	referenced map[string]bool
}

// component is the Shape of a component schema's own body.
func (n *normaliser) component(name string) (*Shape, error) {
	if s, ok := n.seen[name]; ok {
		return s, nil
	}
	raw, ok := n.schemas[name]
	if !ok {
		return nil, fmt.Errorf("$ref to %s%s, which the document does not define", componentPrefix, name)
	}
	n.busy[name] = true
	s, err := n.schema(raw, componentPrefix+name)
	delete(n.busy, name)
	if err != nil {
		return nil, err
	}
	n.seen[name] = s
	return s, nil
}

// schema reduces one schema; at is its place in the document, for errors.
func (n *normaliser) schema(raw any, at string) (*Shape, error) {
	switch v := raw.(type) {
	case bool:
		if v {
			return anyShape(), nil
		}
		return nil, fmt.Errorf("%s: the schema false (nothing allowed) is not supported", at)
	case map[string]any:
		return n.object(v, at)
	case nil:
		return anyShape(), nil
	}
	return nil, fmt.Errorf("%s: a schema must be an object or a boolean", at)
}

func (n *normaliser) object(s map[string]any, at string) (*Shape, error) {
	for _, k := range unsupported {
		if _, ok := s[k]; ok {
			return nil, fmt.Errorf("%s: keyword %s is not supported by srgen drift", at, k)
		}
	}
	if ref, ok := s["$ref"].(string); ok {
		return n.ref(ref, s, at)
	}
	own, err := n.own(s, at)
	if err != nil {
		return nil, err
	}
	alts, err := n.alternatives(s, at)
	if err != nil {
		return nil, err
	}
	parts, err := n.allOf(s, at)
	if err != nil {
		return nil, err
	}
	if alts != nil {
		if own != nil && own.typeKey() != "" {
			return nil, fmt.Errorf("%s: a type beside oneOf or anyOf is not supported", at)
		}
		// nullable: true beside the alternatives (OpenAPI 3.0) adds null.
		alts.Nullable = alts.Nullable || own != nil && own.Nullable
		own = alts
	}
	for _, p := range parts {
		switch {
		case p.Any:
		case own == nil || own.typeKey() == "":
			nullable := own != nil && own.Nullable
			own = p
			own.Nullable = own.Nullable || nullable
		default:
			return nil, fmt.Errorf("%s: allOf that combines constraints is not supported", at)
		}
	}
	if own == nil {
		return anyShape(), nil
	}
	return own.settle(), nil
}

// ref resolves a $ref: a listed component, or an unlisted one that has
// properties of its own (a message), stays a name; any other is inlined,
// so a union or a scalar written as a named component reads as if written
// in place. Siblings of a $ref may only annotate it.
func (n *normaliser) ref(ref string, s map[string]any, at string) (*Shape, error) {
	name, ok := strings.CutPrefix(ref, componentPrefix)
	if !ok {
		return nil, fmt.Errorf("%s: $ref %q is not a component schema of this document", at, ref)
	}
	for k := range s {
		if k != "$ref" && !annotations[k] {
			return nil, fmt.Errorf("%s: keyword %s beside a $ref is not supported", at, k)
		}
	}
	if n.listed[name] {
		if _, ok := n.schemas[name]; !ok {
			return nil, fmt.Errorf("%s: $ref to %s, which the document does not define", at, ref)
		}
		return &Shape{Refs: []string{name}}, nil
	}
	n.referenced[name] = true
	if raw, _ := n.schemas[name].(map[string]any); raw != nil && raw["properties"] != nil {
		// An unlisted message is a name too: the line that reports it as a
		// new component says what it holds.
		return &Shape{Refs: []string{name}}, nil
	}
	if n.busy[name] {
		return nil, fmt.Errorf("%s: unlisted component %s refers to itself; list it in source.components", at, name)
	}
	inlined, err := n.component(name)
	if err != nil {
		return nil, err
	}
	return cloneShape(inlined), nil
}
