package load

import (
	"context"
	"errors"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"go.yaml.in/yaml/v3"
)

// Contract is the raw 4.0 contract: an OpenAPI 3.0 document that
// kin-openapi loaded and validated, with its components and paths read in
// document order and with positions.
type Contract struct {
	File File
	// Doc is kin-openapi's validated document.
	Doc *openapi3.T
	// OpenAPI is the document's openapi version, such as "3.0.3".
	OpenAPI string
	// Schema is x-srgen-schema, the schema ID the contract defines.
	Schema    string
	SchemaPos Position
	// Version and Title are info.version and info.title.
	Version string
	Title   string
	// Components are components.schemas in document order.
	Components []Component
	// Operations are the paths' operations in document order.
	Operations []Operation
	// ImplicitRoles is x-implicit-roles.
	ImplicitRoles ImplicitRolesEntry
}

// Component is one component schema.
type Component struct {
	Name string `yaml:"-"`
	// Level is x-srgen-level; NamedType is x-srgen-named-type. A component
	// has at most one of them.
	Level     string      `yaml:"x-srgen-level"`
	NamedType string      `yaml:"x-srgen-named-type"`
	Schema    *SchemaNode `yaml:"-"`
	Pos       Position    `yaml:"-"`
}

// SchemaNode is the part of an OpenAPI schema srgen reads.
type SchemaNode struct {
	// Ref is the component name a $ref points to ("" if none).
	Ref      string      `yaml:"$ref"`
	Type     string      `yaml:"type"`
	Nullable bool        `yaml:"nullable"`
	Enum     []string    `yaml:"enum"`
	Items    *SchemaNode `yaml:"items"`
	// Additional is nil unless additionalProperties is a schema.
	Additional  *SchemaNode   `yaml:"additionalProperties"`
	Properties  PropertyList  `yaml:"properties"`
	Required    []string      `yaml:"required"`
	AnyOf       []*SchemaNode `yaml:"anyOf"`
	AllOf       []*SchemaNode `yaml:"allOf"`
	Minimum     *float64      `yaml:"minimum"`
	Maximum     *float64      `yaml:"maximum"`
	MinItems    *int          `yaml:"minItems"`
	MaxItems    *int          `yaml:"maxItems"`
	MinProps    *int          `yaml:"minProperties"`
	MaxProps    *int          `yaml:"maxProperties"`
	Description string        `yaml:"description"`
	// QuestionTypes is x-srgen-question-types.
	QuestionTypes []string `yaml:"x-srgen-question-types"`
	Pos           Position `yaml:"-"`
}

// PropertyList is an object schema's properties in document order.
type PropertyList []Property

// Property is one property of an object schema.
type Property struct {
	Name   string
	Schema *SchemaNode
	Pos    Position
}

// UnmarshalYAML copies the keywords srgen uses; kin-openapi has already
// checked the schema is valid OpenAPI.
func (s *SchemaNode) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.MappingNode {
		return nil // additionalProperties: true or false; dropped below
	}
	type plain SchemaNode
	if err := n.Decode((*plain)(s)); err != nil {
		return err
	}
	s.Ref = strings.TrimPrefix(s.Ref, componentPrefix)
	if a := member(n, "additionalProperties"); a != nil && a.Kind != yaml.MappingNode {
		s.Additional = nil
	}
	return nil
}

// UnmarshalYAML reads the properties in document order.
func (l *PropertyList) UnmarshalYAML(n *yaml.Node) (err error) {
	*l, err = decodeOrdered(n, func(name string, v *yaml.Node) (Property, error) {
		p := Property{Name: name}
		err := v.Decode(&p.Schema)
		return p, err
	})
	return err
}

// place gives each property the position of its name.
func (l PropertyList) place(file string, n *yaml.Node) {
	placeOrdered(file, n, len(l), func(i int) (*Position, reflect.Value) {
		return &l[i].Pos, reflect.ValueOf(&l[i].Schema).Elem()
	})
}

// Operation is one method of one path.
type Operation struct {
	Method  string
	Path    string
	Summary string
	// Request is the component of the JSON request body ("" if none);
	// Response the component of the 200 body.
	Request  string
	Response string
	// Statuses are the declared response codes, ascending.
	Statuses []int
	Pos      Position
}

// ImplicitRolesEntry is x-implicit-roles.
type ImplicitRolesEntry struct {
	Default string              `yaml:"default"`
	Parts   []ImplicitRoleEntry `yaml:"parts"`
	Pos     Position            `yaml:"-"`
}

// ImplicitRoleEntry is one part name's role.
type ImplicitRoleEntry struct {
	Key  string   `yaml:"key"`
	Role string   `yaml:"role"`
	Pos  Position `yaml:"-"`
}

const componentPrefix = "#/components/schemas/"

// loadContract validates the document with kin-openapi and reads it.
func loadContract(f File, ps *Problems) *Contract {
	root := parseYAML(f.Path, f.Data, ps)
	if root == nil {
		return nil
	}
	loader := openapi3.NewLoader()
	loader.IsExternalRefsAllowed = false
	doc, err := loader.LoadFromData(f.Data)
	if err != nil {
		ps.Add(Position{File: f.Path}, "kin-openapi cannot load the document: %v", err)
		return nil
	}
	if err := doc.Validate(context.Background()); err != nil {
		ps.Add(Position{File: f.Path}, "not a valid OpenAPI document: %v", err)
		return nil
	}
	c := &Contract{
		File:      f,
		Doc:       doc,
		OpenAPI:   doc.OpenAPI,
		Schema:    scalarString(member(root, "x-srgen-schema")),
		SchemaPos: posOf(f.Path, member(root, "x-srgen-schema")),
		Version:   doc.Info.Version,
		Title:     doc.Info.Title,
	}
	if c.Schema == "" {
		ps.Add(posOf(f.Path, root), "missing x-srgen-schema")
	}
	c.ImplicitRoles = readImplicitRoles(f.Path, member(root, "x-implicit-roles"), ps, root)
	comps := member(root, "components")
	c.Components = readComponents(f.Path, member(comps, "schemas"), ps)
	responses := member(comps, "responses")
	pairs(member(root, "paths"), func(pk, pv *yaml.Node) {
		pairs(pv, func(mk, mv *yaml.Node) {
			c.Operations = append(c.Operations, readOperation(f.Path, pk.Value, mk, mv, responses))
		})
	})
	return c
}

func readImplicitRoles(file string, n *yaml.Node, ps *Problems, root *yaml.Node) ImplicitRolesEntry {
	var out ImplicitRolesEntry
	if n == nil {
		ps.Add(posOf(file, root), "missing x-implicit-roles")
		return out
	}
	pairs(n, func(k, _ *yaml.Node) {
		if k.Value != "default" && k.Value != "parts" {
			ps.Add(posOf(file, k), "x-implicit-roles.%s: unknown key", k.Value)
		}
	})
	decodeNode(file, n, &out, ps)
	return out
}

// readComponents reads components.schemas in document order.
func readComponents(file string, n *yaml.Node, ps *Problems) []Component {
	list, err := decodeOrdered(n, func(name string, v *yaml.Node) (Component, error) {
		c := Component{Name: name}
		err := errors.Join(v.Decode(&c), v.Decode(&c.Schema))
		return c, err
	})
	if err != nil {
		ps.Add(posOf(file, n), "cannot read components.schemas: %v", err)
		return nil
	}
	placeOrdered(file, n, len(list), func(i int) (*Position, reflect.Value) {
		return &list[i].Pos, reflect.ValueOf(&list[i].Schema).Elem()
	})
	return list
}

func readOperation(file, path string, mk, mv, responses *yaml.Node) Operation {
	op := Operation{
		Method:  strings.ToUpper(mk.Value),
		Path:    path,
		Summary: scalarString(member(mv, "summary")),
		Pos:     posOf(file, mk),
	}
	op.Request = jsonSchemaRef(member(member(mv, "requestBody"), "content"))
	pairs(member(mv, "responses"), func(k, v *yaml.Node) {
		code, err := strconv.Atoi(k.Value)
		if err != nil {
			return
		}
		op.Statuses = append(op.Statuses, code)
		if code != 200 {
			return
		}
		if ref := scalarString(member(v, "$ref")); ref != "" {
			v = member(responses, strings.TrimPrefix(ref, "#/components/responses/"))
		}
		op.Response = jsonSchemaRef(member(v, "content"))
	})
	sort.Ints(op.Statuses)
	return op
}

// jsonSchemaRef is the component an application/json content's schema
// refers to.
func jsonSchemaRef(content *yaml.Node) string {
	schema := member(member(content, "application/json"), "schema")
	return strings.TrimPrefix(scalarString(member(schema, "$ref")), componentPrefix)
}
