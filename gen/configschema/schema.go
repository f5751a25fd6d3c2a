package configschema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"maps"
	"slices"
)

// node is one JSON Schema, its keys in the order they are written.
type node struct {
	Schema               string   `json:"$schema,omitempty"`
	Title                string   `json:"title,omitempty"`
	Description          string   `json:"description,omitempty"`
	Type                 any      `json:"type,omitempty"`
	Enum                 []string `json:"enum,omitempty"`
	Pattern              string   `json:"pattern,omitempty"`
	MinLength            *int     `json:"minLength,omitempty"`
	Minimum              *float64 `json:"minimum,omitempty"`
	Maximum              *float64 `json:"maximum,omitempty"`
	Items                *node    `json:"items,omitempty"`
	MinItems             *float64 `json:"minItems,omitempty"`
	UniqueItems          bool     `json:"uniqueItems,omitempty"`
	Properties           props    `json:"properties,omitempty"`
	Required             []string `json:"required,omitempty"`
	PropertyNames        *node    `json:"propertyNames,omitempty"`
	MinProperties        *float64 `json:"minProperties,omitempty"`
	AdditionalProperties any      `json:"additionalProperties,omitempty"`
	OneOf                []*node  `json:"oneOf,omitempty"`
	Const                string   `json:"const,omitempty"`
	Not                  *node    `json:"not,omitempty"`
	AllOf                []*node  `json:"allOf,omitempty"`
	If                   *node    `json:"if,omitempty"`
	Then                 *node    `json:"then,omitempty"`
	Else                 *node    `json:"else,omitempty"`
}

// props are an object's properties in the fields' order.
type props []prop

type prop struct {
	key  string
	node *node
}

func (p props) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, e := range p {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(e.key)
		v, err := json.Marshal(e.node)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// Draft is the JSON Schema dialect written.
const Draft = "https://json-schema.org/draft/2020-12/schema"

// Schema returns router.yaml's JSON Schema from the source of Source;
// words are the word lists an enum=@name names (Words).
func Schema(src []byte, words map[string][]string) ([]byte, error) {
	forms, err := parse(src, words)
	if err != nil {
		return nil, err
	}
	root, err := object(forms, forms[Root], map[string]bool{})
	if err != nil {
		return nil, err
	}
	root.Schema, root.Title = Draft, "router.yaml"
	out, err := json.MarshalIndent(root, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}

// object is the schema of form f: a closed object. open are the forms
// being written, so a form that holds itself is an error, not a loop.
func object(forms map[string]*form, f *form, open map[string]bool) (*node, error) {
	if open[f.Name] {
		return nil, fmt.Errorf("%s: %s holds itself", Source, f.Name)
	}
	open[f.Name] = true
	defer delete(open, f.Name)
	n := &node{Description: f.Doc, Type: "object", AdditionalProperties: false}
	for _, fd := range f.Fields {
		v, err := value(forms, fd.Type, fd.Tag, open)
		if err != nil {
			return nil, fmt.Errorf("%s.%s: %w", f.Name, fd.Key, err)
		}
		v.Description = fd.Doc
		n.Properties = append(n.Properties, prop{fd.Key, v})
		if fd.Tag.Required {
			n.Required = append(n.Required, fd.Key)
		}
		if fd.Tag.Excludes != "" {
			n.AllOf = append(n.AllOf, &node{Not: &node{Required: []string{fd.Key, fd.Tag.Excludes}}})
		}
		if fd.Tag.WithKey != "" {
			n.AllOf = append(n.AllOf, &node{
				If:   &node{Properties: props{{fd.Tag.WithKey, &node{Const: fd.Tag.WithValue}}}, Required: []string{fd.Tag.WithKey}},
				Then: &node{Required: []string{fd.Key}},
				Else: &node{Not: &node{Required: []string{fd.Key}}},
			})
		}
	}
	if len(n.AllOf) == 1 && n.AllOf[0].Not != nil {
		n.Not, n.AllOf = n.AllOf[0].Not, nil
	}
	return n, nil
}

var one = 1

// value is the schema of a field of Go type t with tag tg.
func value(forms map[string]*form, t ast.Expr, tg tag, open map[string]bool) (*node, error) {
	n, err := shape(forms, t, tg, open)
	if err != nil {
		return nil, err
	}
	if tg.Nullable {
		n.Type = []string{n.Type.(string), "null"}
	}
	return n, nil
}

// shape is value without null.
func shape(forms map[string]*form, t ast.Expr, tg tag, open map[string]bool) (*node, error) {
	switch t := t.(type) {
	case *ast.Ident:
		switch t.Name {
		case "string":
			return &node{Type: "string", MinLength: &one, Enum: tg.Enum, Pattern: tg.Pattern}, nil
		case "int":
			return &node{Type: "integer", Minimum: tg.Min, Maximum: tg.Max}, nil
		case "float64":
			return &node{Type: "number", Minimum: tg.Min, Maximum: tg.Max}, nil
		case "bool":
			return &node{Type: "boolean"}, nil
		}
		if f := forms[t.Name]; f != nil {
			return object(forms, f, open)
		}
		return nil, fmt.Errorf("type %s is not a form of %s", t.Name, Source)
	case *ast.ArrayType:
		item, err := shape(forms, t.Elt, tag{Enum: tg.Enum}, open)
		if err != nil {
			return nil, err
		}
		// A list of strings lists each once, as the loader reads it.
		return &node{Type: "array", Items: item, MinItems: tg.Min, UniqueItems: item.Type == "string"}, nil
	case *ast.MapType:
		if k, ok := t.Key.(*ast.Ident); !ok || k.Name != "string" {
			return nil, fmt.Errorf("a mapping's keys must be strings")
		}
		n := &node{Type: "object", MinProperties: tg.Min}
		if tg.Keys != "" || len(tg.KeyEnum) > 0 {
			n.PropertyNames = &node{Pattern: tg.Keys, Enum: tg.KeyEnum}
		}
		v, err := entry(forms, t.Value, tg, open)
		if err != nil {
			return nil, err
		}
		n.AdditionalProperties = v
		return n, nil
	}
	return nil, fmt.Errorf("a field's type must be string, int, float64, bool, a form, a list or a mapping")
}

// entry is the schema of a mapping's values: oneof's forms for any, an
// open object for a mapping of any, valuemin's least entries for a list.
func entry(forms map[string]*form, t ast.Expr, tg tag, open map[string]bool) (*node, error) {
	if id, ok := t.(*ast.Ident); ok && id.Name == "any" {
		return oneOf(tg.OneOf)
	}
	if m, ok := t.(*ast.MapType); ok {
		if id, ok := m.Value.(*ast.Ident); ok && id.Name == "any" {
			return &node{Type: "object"}, nil
		}
	}
	v, err := shape(forms, t, tag{}, open)
	if err != nil {
		return nil, err
	}
	if v.Type == "array" {
		v.MinItems = tg.ValueMin
	}
	if tg.NullValues {
		v.Type = []string{v.Type.(string), "null"}
	}
	return v, nil
}

// forms are the value forms oneof names.
var valueForms = map[string]func() *node{
	"number": func() *node { return &node{Type: "number"} },
	"string": func() *node { return &node{Type: "string", MinLength: &one} },
	"strings": func() *node {
		return &node{Type: "array", Items: &node{Type: "string", MinLength: &one}, UniqueItems: true}
	},
}

func oneOf(names []string) (*node, error) {
	if len(names) == 0 {
		return nil, fmt.Errorf("a mapping of any needs oneof")
	}
	n := &node{}
	for _, name := range names {
		mk, ok := valueForms[name]
		if !ok {
			return nil, fmt.Errorf("oneof: unknown form %q; known: %v", name, slices.Sorted(maps.Keys(valueForms)))
		}
		n.OneOf = append(n.OneOf, mk())
	}
	return n, nil
}
