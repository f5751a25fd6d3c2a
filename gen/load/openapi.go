package load

import (
	"context"
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
	Name string
	// Level is x-srgen-level; NamedType is x-srgen-named-type. A component
	// has at most one of them.
	Level     string
	NamedType string
	Schema    *SchemaNode
	Pos       Position
}

// SchemaNode is the part of an OpenAPI schema srgen reads.
type SchemaNode struct {
	// Ref is the component name a $ref points to ("" if none).
	Ref         string
	Type        string
	Nullable    bool
	Enum        []string
	Items       *SchemaNode
	Additional  *SchemaNode
	Properties  []Property
	Required    []string
	AnyOf       []*SchemaNode
	AllOf       []*SchemaNode
	Minimum     *float64
	Maximum     *float64
	MinItems    *int
	MaxItems    *int
	MinProps    *int
	MaxProps    *int
	Description string
	// QuestionTypes is x-srgen-question-types.
	QuestionTypes []string
	Pos           Position
}

// Property is one property of an object schema.
type Property struct {
	Name   string
	Schema *SchemaNode
	Pos    Position
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
	Default string
	Parts   []ImplicitRoleEntry
	Pos     Position
}

// ImplicitRoleEntry is one part name's role.
type ImplicitRoleEntry struct {
	Key  string
	Role string
	Pos  Position
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
	pairs(member(comps, "schemas"), func(k, v *yaml.Node) {
		c.Components = append(c.Components, Component{
			Name:      k.Value,
			Level:     scalarString(member(v, "x-srgen-level")),
			NamedType: scalarString(member(v, "x-srgen-named-type")),
			Schema:    readSchema(f.Path, v),
			Pos:       posOf(f.Path, k),
		})
	})
	responses := member(comps, "responses")
	pairs(member(root, "paths"), func(pk, pv *yaml.Node) {
		pairs(pv, func(mk, mv *yaml.Node) {
			c.Operations = append(c.Operations, readOperation(f.Path, pk.Value, mk, mv, responses))
		})
	})
	return c
}

func readImplicitRoles(file string, n *yaml.Node, ps *Problems, root *yaml.Node) ImplicitRolesEntry {
	if n == nil {
		ps.Add(posOf(file, root), "missing x-implicit-roles")
		return ImplicitRolesEntry{}
	}
	out := ImplicitRolesEntry{Default: scalarString(member(n, "default")), Pos: posOf(file, n)}
	pairs(n, func(k, _ *yaml.Node) {
		if k.Value != "default" && k.Value != "parts" {
			ps.Add(posOf(file, k), "x-implicit-roles.%s: unknown key", k.Value)
		}
	})
	for _, p := range seq(member(n, "parts")) {
		out.Parts = append(out.Parts, ImplicitRoleEntry{
			Key:  scalarString(member(p, "key")),
			Role: scalarString(member(p, "role")),
			Pos:  posOf(file, p),
		})
	}
	return out
}

// readSchema copies the keywords srgen uses; kin-openapi has already
// checked the schema is valid OpenAPI.
func readSchema(file string, n *yaml.Node) *SchemaNode {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	s := &SchemaNode{
		Ref:           strings.TrimPrefix(scalarString(member(n, "$ref")), componentPrefix),
		Type:          scalarString(member(n, "type")),
		Nullable:      scalarBool(member(n, "nullable")),
		Enum:          stringList(member(n, "enum")),
		Items:         readSchema(file, member(n, "items")),
		Additional:    readSchema(file, member(n, "additionalProperties")),
		Required:      stringList(member(n, "required")),
		Minimum:       scalarFloat(member(n, "minimum")),
		Maximum:       scalarFloat(member(n, "maximum")),
		MinItems:      scalarInt(member(n, "minItems")),
		MaxItems:      scalarInt(member(n, "maxItems")),
		MinProps:      scalarInt(member(n, "minProperties")),
		MaxProps:      scalarInt(member(n, "maxProperties")),
		Description:   scalarString(member(n, "description")),
		QuestionTypes: stringList(member(n, "x-srgen-question-types")),
		Pos:           posOf(file, n),
	}
	for _, a := range seq(member(n, "anyOf")) {
		s.AnyOf = append(s.AnyOf, readSchema(file, a))
	}
	for _, a := range seq(member(n, "allOf")) {
		s.AllOf = append(s.AllOf, readSchema(file, a))
	}
	pairs(member(n, "properties"), func(k, v *yaml.Node) {
		s.Properties = append(s.Properties, Property{Name: k.Value, Schema: readSchema(file, v), Pos: posOf(file, k)})
	})
	return s
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
