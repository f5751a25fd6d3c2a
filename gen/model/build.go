package model

import (
	"os"
	"regexp"

	"github.com/vllm-sr/systemone/gen/load"
	"github.com/vllm-sr/systemone/runtime/table"
)

// schemaIDPattern is the form of every schema ID.
var schemaIDPattern = regexp.MustCompile(`^[a-z][a-z0-9-]*/[0-9]+\.[0-9]+$`)

// Build resolves and checks the three raw specs. It reports every problem
// at once as a load.Problems error, each with its file:line:column.
func Build(raw *load.Specs) (*Model, error) {
	b := newBuilder(raw)
	b.build()
	if err := b.problems.Err(); err != nil {
		return nil, err
	}
	return b.m, nil
}

// LoadDir loads the default spec paths under a repository root and builds
// the model.
func LoadDir(root string) (*Model, error) {
	raw, err := load.Load(os.DirFS(root), load.DefaultPaths())
	if err != nil {
		return nil, err
	}
	return Build(raw)
}

// builder holds the state of one Build.
type builder struct {
	raw      *load.Specs
	m        *Model
	problems load.Problems
	types    typeResolver
	// schemaOf maps each spec to the schema ID it defines.
	schemaOf map[SpecKind]table.SchemaID
	// schemas are every schema ID in schema order: the specs' own, then
	// the internal form.
	schemas []schemaDef
	// families are the extension spec's family names.
	families map[string]bool
}

func newBuilder(raw *load.Specs) *builder {
	levels := map[string]bool{}
	for _, l := range LevelOrder {
		levels[string(l)] = true
	}
	return &builder{
		raw:      raw,
		m:        &Model{},
		types:    typeResolver{named: map[string]Type{}, levels: levels},
		schemaOf: map[SpecKind]table.SchemaID{},
		families: map[string]bool{},
	}
}

// schemaDef is one schema ID and the specs whose fields it accepts.
type schemaDef struct {
	id    table.SchemaID
	specs []SpecKind
	// accepts, title and description are set for the internal form.
	accepts            table.SchemaID
	title, description string
}

// build runs the stages in dependency order: specs and names first, then
// fields (which need the named types and families), then the facts that
// refer to fields, then the per-schema shapes, then the cross-spec checks.
func (b *builder) build() {
	if b.raw == nil || b.raw.Standard == nil || b.raw.Extensions == nil || b.raw.Contract == nil {
		b.problems.Add(load.Position{}, "Build needs all three specs")
		return
	}
	b.buildSpecs()
	b.buildNamedTypes()
	b.buildFamilies()
	b.buildStandardFields()
	b.buildExtensionFields()
	b.buildContractFields()
	sortFields(b.m.Fields)
	b.checkDuplicateFields()
	b.checkCrossSpecMeaning()
	b.buildEndpoints()
	b.buildHeadersStatusesConflicts()
	b.buildRemovedForms()
	b.buildErrorsAndLimits()
	b.buildFeatures()
	b.buildImplicitRoles()
	b.buildOverrides()
	b.buildSchemas()
	b.checkPassive()
	b.buildWriteOrder()
}

func (b *builder) buildSpecs() {
	std, ext, con := b.raw.Standard, b.raw.Extensions, b.raw.Contract
	b.checkSchemaID(std.Schema, std.SchemaPos)
	b.checkSchemaID(ext.Schema, ext.SchemaPos)
	b.checkSchemaID(ext.Extends, ext.ExtendsPos)
	b.checkSchemaID(con.Schema, con.SchemaPos)
	if ext.Extends != std.Schema {
		b.problems.Add(ext.ExtendsPos, "extends %q, but the standard spec defines %q", ext.Extends, std.Schema)
	}
	if std.Schema == ext.Schema || std.Schema == con.Schema || ext.Schema == con.Schema {
		b.problems.Add(con.SchemaPos, "the three specs must define three different schema IDs")
	}
	b.schemaOf[SpecStandard] = table.SchemaID(std.Schema)
	b.schemaOf[SpecExtensions] = table.SchemaID(ext.Schema)
	b.schemaOf[SpecContract40] = table.SchemaID(con.Schema)
	for i, spec := range SpecOrder {
		b.schemas = append(b.schemas, schemaDef{id: b.schemaOf[spec], specs: append([]SpecKind(nil), SpecOrder[:i+1]...)})
	}
	b.buildInternalForm()
	p := b.raw.Paths
	b.m.Specs = []Spec{
		{
			Kind: SpecStandard, Path: std.File.Path, SHA256: std.File.SHA256,
			SchemaID: table.SchemaID(std.Schema), Format: std.Format, FormatSchema: p.StandardSchema,
			Version: std.Version, Title: std.Title,
			Source: b.source(std.Source),
		},
		{
			Kind: SpecExtensions, Path: ext.File.Path, SHA256: ext.File.SHA256,
			SchemaID: table.SchemaID(ext.Schema), Format: ext.Format, FormatSchema: p.ExtensionsSchema,
			Version: ext.Version, Title: ext.Title,
		},
		{
			Kind: SpecContract40, Path: con.File.Path, SHA256: con.File.SHA256,
			SchemaID: table.SchemaID(con.Schema), Format: "openapi/" + con.OpenAPI,
			Version: con.Version, Title: con.Title,
		},
	}
}

func (b *builder) checkSchemaID(id string, pos load.Position) {
	if !schemaIDPattern.MatchString(id) {
		b.problems.Add(pos, "schema ID %q does not match %s", id, schemaIDPattern)
	}
}

// acceptingSchemas is which schema IDs accept a spec's fields: the
// standard's are in every schema, the extension set's in 5.0 and in 4.0
// (which accepts every 5.0 form), the contract's only in 4.0; the internal
// form accepts what 4.0 does.
func (b *builder) acceptingSchemas(spec SpecKind) []table.SchemaID {
	var out []table.SchemaID
	for _, d := range b.schemas {
		if inSpecs(d.specs, spec) {
			out = append(out, d.id)
		}
	}
	return out
}

// buildInternalForm adds the internal wire form's schema, which accepts
// the specs its base schema accepts.
func (b *builder) buildInternalForm() {
	f := b.raw.Extensions.InternalForm
	if f == nil {
		return
	}
	d := schemaDef{id: table.SchemaID(f.Schema), accepts: table.SchemaID(f.Accepts), title: f.Title, description: f.Description}
	for _, s := range b.schemas {
		if s.id == d.id {
			b.problems.Add(f.Pos, "internal form schema %q is already defined", f.Schema)
			return
		}
		if s.id == d.accepts {
			d.specs = s.specs
		}
	}
	if d.specs == nil {
		b.problems.Add(f.Pos, "internal form accepts %q, which no spec defines", f.Accepts)
		return
	}
	b.schemas = append(b.schemas, d)
}

func (b *builder) source(s load.StandardSource) *Source {
	src := &Source{URL: s.URL, SHA256: s.SHA256, OpenAPIVersion: s.OpenAPI, DocsURL: s.Docs}
	seen := map[string]bool{}
	for _, c := range s.Components {
		if seen[c.Name] {
			b.problems.Add(c.Pos, "published component %q listed twice", c.Name)
		}
		seen[c.Name] = true
		if !knownFieldLevel(c.Level) {
			b.problems.Add(c.Pos, "published component %q: unknown level %q", c.Name, c.Level)
		}
		src.Components = append(src.Components, SourceComponent{
			Name: c.Name, Level: table.Level(c.Level), QuestionType: table.QuestionType(c.QuestionType),
		})
	}
	return src
}

func (b *builder) buildNamedTypes() {
	for _, nt := range b.raw.Standard.NamedTypes {
		t, err := b.types.parse(nt.Type)
		if err != nil {
			b.problems.Add(nt.Pos, "named type %q: %v", nt.Name, err)
			continue
		}
		b.types.named[nt.Name] = t
		b.m.NamedTypes = append(b.m.NamedTypes, NamedType{Name: nt.Name, Spec: SpecStandard, Type: t, Description: nt.Description})
	}
}

func (b *builder) buildFamilies() {
	for _, f := range b.raw.Extensions.Families {
		if b.families[f.Name] {
			b.problems.Add(f.Pos, "family %q defined twice", f.Name)
			continue
		}
		b.families[f.Name] = true
		fam := Family{
			Name: table.Family(f.Name), Title: f.Title, RoleAware: f.RoleAware,
			Modalities: f.Modalities, SpanHeads: f.SpanHeads, CanonicalPresets: f.CanonicalPresets, Description: f.Description,
			QuestionTypes: b.questionTypes(f.QuestionTypes, f.Pos),
		}
		b.m.Families = append(b.m.Families, fam)
	}
}

// questionTypes checks a list of question type names and keeps the spec's
// order, which the reference docs show as written.
func (b *builder) questionTypes(names []string, pos load.Position) []table.QuestionType {
	var out []table.QuestionType
	for _, n := range names {
		qt := table.QuestionType(n)
		if indexOf(QuestionTypeOrder, qt) == len(QuestionTypeOrder) {
			b.problems.Add(pos, "unknown question type %q", n)
			continue
		}
		out = append(out, qt)
	}
	return out
}
