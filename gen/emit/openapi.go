package emit

import (
	"fmt"
	"path"
	"strings"

	"github.com/vllm-sr/systemone/gen/model"
	"github.com/vllm-sr/systemone/runtime/table"
)

// The OpenAPI artifact: docs/reference/vllm-sr-5.0.openapi.yaml, the whole
// contract of a vllm-sr/5.0 server as an OpenAPI 3.1.0 document. Every
// path, member, type, limit, enum, status and error code in it comes from
// the model; this file and its openapi_*.go siblings only decide how they
// are spelled in OpenAPI:
//
//   - request bodies (openapi_request.go) follow the generated validator's
//     object checks (model.Validations): each object is closed with
//     additionalProperties: false, as the server refuses a member its
//     schema does not define; question and asset are unions discriminated
//     by the member that names their type;
//   - answers, responses, errors and listings (openapi_response.go) follow
//     the schema's messages and stay open: a 5.x minor adds response
//     members, which a client must tolerate;
//   - paths, statuses and headers (openapi_paths.go) follow the endpoints
//     the schema serves and the error tables.

// OpenAPISchema is the schema ID whose server contract the artifact
// describes.
const OpenAPISchema = table.SchemaVllmSR50

// OpenAPIFileName is the document's file name under DocsDir for a schema
// ID: "vllm-sr/5.0" is vllm-sr-5.0.openapi.yaml.
func OpenAPIFileName(id table.SchemaID) string {
	return strings.ReplaceAll(string(id), "/", "-") + ".openapi.yaml"
}

// openapi writes the OpenAPI document of OpenAPISchema.
func (o Options) openapi(m *model.Model) ([]File, error) {
	p := path.Join(o.DocsDir, OpenAPIFileName(OpenAPISchema))
	doc, err := newOASBuilder(m, OpenAPISchema)
	if err == nil {
		var root *ymap
		if root, err = doc.document(); err == nil {
			var data []byte
			if data, err = encodeYAML([]string{goHeader(specPaths(m))}, root); err == nil {
				return []File{{Path: p, Data: data}}, nil
			}
		}
	}
	return nil, &Error{Path: p, Err: err}
}

// oasBuilder builds one schema's document. Components are put in
// components.schemas in the order they are first reached: the request
// bodies' objects, then each operation's answers and errors.
type oasBuilder struct {
	m *model.Model
	s *model.Schema
	// v is the schema's request validator: the request side follows it.
	v      model.SchemaValidation
	checks map[string]model.ObjectCheck
	// levelOf is the level whose fields describe an object check's
	// members; variantOf the type value a variant check stands for.
	levelOf   map[string]table.Level
	variantOf map[string]string
	// typeMember is the question member that names a question's type,
	// which an answer carries too; "" when the schema has no question
	// variants.
	typeMember string
	schemas    *ymap
	// built maps what a component describes ("check question", "level
	// usage") to its name; owner is the reverse, to refuse two things
	// one name.
	built map[string]string
	owner map[string]string
}

func newOASBuilder(m *model.Model, id table.SchemaID) (*oasBuilder, error) {
	s := m.Schema(id)
	if s == nil {
		return nil, fmt.Errorf("the model has no schema %s", id)
	}
	vs, err := m.Validations()
	if err != nil {
		return nil, err
	}
	b := &oasBuilder{m: m, s: s, checks: map[string]model.ObjectCheck{}, levelOf: map[string]table.Level{},
		variantOf: map[string]string{}, schemas: newYMap(), built: map[string]string{}, owner: map[string]string{}}
	for _, v := range vs {
		if v.Schema == id {
			b.v = v
		}
	}
	for _, obj := range b.v.Objects {
		b.checks[obj.Name] = obj
	}
	b.findLevels()
	return b, nil
}

// findLevels files every object check under the level whose fields its
// members are: a level's own check, an entry message's check (a batch's
// requests), each variant under its union's level, and a check with fixed
// keys (noul criteria) under the message that has exactly those members.
func (b *oasBuilder) findLevels() {
	for _, obj := range b.v.Objects {
		if b.s.Message(table.Level(obj.Name)) != nil {
			b.levelOf[obj.Name] = table.Level(obj.Name)
		}
	}
	for _, e := range b.s.Entries {
		for _, mc := range b.checks[string(e.Container)].Members {
			if mc.Name != e.Member {
				continue
			}
			for _, inner := range []*model.ValueCheck{mc.Value.Values, mc.Value.Items} {
				if inner != nil && inner.Object != "" {
					b.levelOf[inner.Object] = e.Message.Level
				}
			}
		}
	}
	for _, obj := range b.v.Objects {
		if obj.Variants == nil {
			continue
		}
		for _, variant := range obj.Variants.Variants {
			b.levelOf[variant.Object] = b.levelOf[obj.Name]
			b.variantOf[variant.Object] = variant.Value
		}
		if b.levelOf[obj.Name] == table.LevelQuestion {
			b.typeMember = obj.Variants.Member
		}
	}
	for _, obj := range b.v.Objects {
		if _, ok := b.levelOf[obj.Name]; !ok {
			b.levelOf[obj.Name] = b.levelWithMembers(obj.Members)
		}
	}
}

// levelWithMembers is the level of the schema's message with exactly these
// members, or "".
func (b *oasBuilder) levelWithMembers(members []model.MemberCheck) table.Level {
	for _, msg := range b.s.Messages {
		if len(msg.Members) != len(members) {
			continue
		}
		same := true
		for i := range members {
			same = same && msg.Members[i].Name == members[i].Name
		}
		if same {
			return msg.Level
		}
	}
	return ""
}

// claim names a component after what it describes and reserves its place
// in components.schemas, so a component comes before those it refers to.
func (b *oasBuilder) claim(name, what string) (*ymap, error) {
	if holder, taken := b.owner[name]; taken {
		return nil, fmt.Errorf("component %s would describe both %s and %s", name, holder, what)
	}
	b.owner[name], b.built[what] = what, name
	s := newYMap()
	b.schemas.put(name, s)
	return s, nil
}

// field is the field that defines a member at a level under the schema,
// from the first of the schema's specs that defines it; nil when none does
// (a member of a check with no level).
func (b *oasBuilder) field(level table.Level, name string) *model.Field {
	for _, spec := range b.s.Specs {
		if f := b.m.Field(spec, level, name); f != nil {
			return f
		}
	}
	return nil
}

// typeField is the field that defines a question or asset type.
func (b *oasBuilder) typeField(value string) *model.Field {
	for _, level := range []table.Level{table.LevelQuestionType, table.LevelAssetType} {
		if f := b.field(level, value); f != nil {
			return f
		}
	}
	return nil
}

// describe adds a member's description, and the version an extension
// member arrived in, to its schema.
func (b *oasBuilder) describe(s *ymap, level table.Level, name string) {
	f := b.field(level, name)
	if f == nil {
		return
	}
	s.putIf(f.Description != "", "description", f.Description)
	s.putIf(f.Spec == model.SpecExtensions && f.Since != "", "x-srgen-since", f.Since)
}

// document is the whole document, in reading order.
func (b *oasBuilder) document() (*ymap, error) {
	paths, err := b.paths()
	if err != nil {
		return nil, err
	}
	components := newYMap().put("schemas", b.schemas)
	params, headers, security := b.headerComponents()
	components.putIf(params.len() > 0, "parameters", params)
	components.putIf(headers.len() > 0, "headers", headers)
	components.putIf(security.len() > 0, "securitySchemes", security)
	doc := newYMap().put("openapi", "3.1.0").put("info", b.info()).put("x-srgen-schema", string(b.s.ID))
	if security.len() > 0 {
		// An empty requirement first: the standard defines the key, and a
		// vllm-sr server answers without one.
		req := ylist{newYMap()}
		for _, name := range security.keys {
			req = append(req, newYMap().put(name, yflow{}))
		}
		doc.put("security", req)
	}
	return doc.put("paths", paths).put("components", components), nil
}

// info names the schema and the specs it is made of.
func (b *oasBuilder) info() *ymap {
	var parts, version []string
	for _, kind := range b.s.Specs {
		if spec := b.m.Spec(kind); spec != nil {
			parts = append(parts, fmt.Sprintf("%s (%s, `%s`)", spec.Title, spec.SchemaID, spec.Path))
			if spec.SchemaID == b.s.ID {
				version = append(version, spec.Version)
			}
		}
	}
	desc := fmt.Sprintf("The contract of a %s server: %s. Generated by srgen; edit the specifications, not this file.\n\n", b.s.ID, strings.Join(parts, ", plus "))
	desc += "Request objects are closed (additionalProperties: false): the server refuses a member its schema does not define. " +
		"Response objects are open: a minor version adds response members, which clients tolerate. " +
		"Questions, assets and answers are unions discriminated by their type member."
	if len(version) == 0 {
		version = []string{string(b.s.ID)}
	}
	return newYMap().put("title", string(b.s.ID)).put("version", version[0]).put("description", desc)
}
