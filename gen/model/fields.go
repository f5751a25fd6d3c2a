package model

import (
	"fmt"

	"github.com/vllm-sr/systemone/gen/load"
	"github.com/vllm-sr/systemone/runtime/table"
)

// memberLevels are the levels a YAML spec may put fields at; the rest of
// LevelOrder (endpoint, header) are described by their own sections.
func knownFieldLevel(l string) bool {
	lv := table.Level(l)
	return indexOf(LevelOrder, lv) < len(LevelOrder) && lv != table.LevelEndpoint && lv != table.LevelHeader
}

func (b *builder) buildStandardFields() {
	for _, lf := range b.raw.Standard.Fields {
		if !knownFieldLevel(lf.Level) {
			b.problems.Add(lf.Pos, "unknown level %q", lf.Level)
			continue
		}
		for _, e := range lf.Fields {
			f := b.yamlField(SpecStandard, table.Level(lf.Level), e)
			f.Since = sinceOf(b.raw.Standard.Schema)
			f.Disposition = table.DispositionStandard
			f.DocumentedIn = b.docSources(e.DocumentedIn, e.Pos)
			if (f.OpenAPI != nil || f.Criteria != nil && f.Criteria.OpenAPI != nil) && indexOf(f.DocumentedIn, DocOpenAPI) == len(f.DocumentedIn) {
				b.problems.Add(e.Pos, "field %s.%s has an openapi reading but is not documented_in openapi", lf.Level, e.Name)
			}
			b.m.Fields = append(b.m.Fields, f)
		}
	}
}

func (b *builder) buildExtensionFields() {
	// Answer members a question type declares follow the spec's own
	// answer fields, so the listed ones keep the seed's order.
	var declared []Field
	for _, lf := range b.raw.Extensions.Fields {
		if !knownFieldLevel(lf.Level) {
			b.problems.Add(lf.Pos, "unknown level %q", lf.Level)
			continue
		}
		for _, e := range lf.Fields {
			f := b.yamlField(SpecExtensions, table.Level(lf.Level), e)
			f.Since = e.Since
			f.Families, f.FamiliesText = b.resolveFamilies(e.Families, e.Pos)
			f.Disposition = dispositionOf[e.OnSystemOne02]
			if f.Disposition == "" {
				b.problems.Add(e.Pos, "field %s.%s: unknown disposition %q", lf.Level, e.Name, e.OnSystemOne02)
			}
			f.DocumentedIn = []DocSource{DocExtension}
			b.checkFamiliesAnswer(f)
			b.m.Fields = append(b.m.Fields, f)
			declared = append(declared, b.declaredAnswerMembers(f, e.AnswerMembers)...)
		}
	}
	b.m.Fields = append(b.m.Fields, declared...)
}

// declaredAnswerMembers turns the answer members a question type entry
// declares into answer fields of that question type. They belong to the
// type's definition, so they take its version and families; a standard
// server answers no extension question type, so it never sends them.
func (b *builder) declaredAnswerMembers(qt Field, members []load.AnswerMemberEntry) []Field {
	if len(members) > 0 && qt.Level != table.LevelQuestionType {
		b.problems.Add(members[0].Pos, "answer_members belong only to a question_type entry")
		return nil
	}
	out := make([]Field, 0, len(members))
	for _, am := range members {
		f := Field{
			Spec: qt.Spec, Level: table.LevelAnswer, Name: am.Name, TypeText: am.TypeText,
			Since: qt.Since, Families: qt.Families, FamiliesText: qt.FamiliesText,
			QuestionTypes: []table.QuestionType{table.QuestionType(qt.Name)},
			Disposition:   table.DispositionNeverSent,
			Description:   am.Description, DocumentedIn: qt.DocumentedIn,
			Schemas: qt.Schemas, DeclaredBy: table.QuestionType(qt.Name), Pos: am.Pos,
		}
		t, err := b.types.parse(am.Type)
		if err != nil {
			b.problems.Add(am.Pos, "answer member %s of question type %s: %v", am.Name, qt.Name, err)
		}
		f.Type = t
		if f.TypeText == "" {
			f.TypeText = am.Type
		}
		out = append(out, f)
	}
	return out
}

// yamlField resolves what both YAML formats share.
func (b *builder) yamlField(spec SpecKind, level table.Level, e load.FieldEntry) Field {
	f := Field{
		Spec: spec, Level: level, Name: e.Name, TypeText: e.TypeText, Required: e.Required, Passive: e.Passive,
		Description: e.Description, Schemas: b.acceptingSchemas(spec), Pos: e.Pos,
		QuestionTypes: b.questionTypes(e.QuestionTypes, e.Pos),
		Formats:       e.Formats,
	}
	t, err := b.types.parse(e.Type)
	if err != nil {
		b.problems.Add(e.Pos, "field %s.%s: %v", level, e.Name, err)
	}
	applyEnum(&t, e.Enum)
	applyBounds(&t, e.Minimum, e.Maximum)
	t.MinCount, t.MaxCount = e.MinCount, e.MaxCount
	f.Type = t
	if f.TypeText == "" {
		f.TypeText = e.Type
	}
	what := fmt.Sprintf("field %s.%s", level, e.Name)
	f.OpenAPI = b.reading(e.OpenAPI, fieldConstraints(e), what)
	if e.Criteria != nil {
		if level != table.LevelQuestionType {
			b.problems.Add(e.Criteria.Pos, "criteria belong only to a question_type entry")
		}
		f.Criteria = b.criteria(*e.Criteria)
		f.Criteria.OpenAPI = b.reading(e.Criteria.OpenAPI, criteriaConstraints(*e.Criteria), what+" criteria")
	} else if level == table.LevelQuestionType {
		b.problems.Add(e.Pos, "question type %q has no criteria shape", e.Name)
	}
	if len(e.Formats) > 0 && level != table.LevelAssetType {
		b.problems.Add(e.Pos, "formats belong only to an asset_type entry")
	}
	if e.AnswersAs != "" {
		if level != table.LevelQuestionType {
			b.problems.Add(e.Pos, "answers_as belongs only to a question_type entry")
		}
		f.AnswersAs = table.QuestionType(e.AnswersAs)
	}
	if level == table.LevelQuestionType && indexOf(QuestionTypeOrder, table.QuestionType(e.Name)) == len(QuestionTypeOrder) {
		b.problems.Add(e.Pos, "unknown question type %q", e.Name)
	}
	return f
}

// applyEnum puts an enum on the scalar values of a type: a map's or an
// array's members when the type is only that container, else the type.
func applyEnum(t *Type, enum []string) {
	if len(enum) == 0 {
		return
	}
	switch {
	case t.Values != nil && len(t.Kinds) == 1:
		applyEnum(t.Values, enum)
	case t.Items != nil && len(t.Kinds) == 1:
		applyEnum(t.Items, enum)
	default:
		t.Enum = append([]string(nil), enum...)
	}
}

// applyBounds sets a type's minimum and maximum where applyEnum puts an
// enum: on its numbers, a map's values or an array's items for a type
// that is only a map or an array (map<number>).
func applyBounds(t *Type, minimum, maximum *float64) {
	switch {
	case t.Values != nil && len(t.Kinds) == 1:
		applyBounds(t.Values, minimum, maximum)
	case t.Items != nil && len(t.Kinds) == 1:
		applyBounds(t.Items, minimum, maximum)
	default:
		t.Minimum, t.Maximum = minimum, maximum
	}
}

var criteriaKinds = map[string]CriteriaKind{
	"none": CriteriaNone, "options": CriteriaOptions, "noul": CriteriaNoul,
	"levels": CriteriaLevels, "labels": CriteriaLabels,
}

func (b *builder) criteria(e load.CriteriaEntry) *Criteria {
	c := &Criteria{
		Kind: criteriaKinds[e.Kind], Required: e.Required, Nullable: e.Nullable,
		Keys: e.Keys, MinCount: e.MinCount, MaxCount: e.MaxCount,
	}
	if c.Kind == "" {
		b.problems.Add(e.Pos, "unknown criteria kind %q", e.Kind)
	}
	if e.Values != "" {
		t, err := b.types.parse(e.Values)
		if err != nil {
			b.problems.Add(e.Pos, "criteria values: %v", err)
		}
		c.Values = &t
	}
	if c.Kind == CriteriaNone && (e.Values != "" || e.Required || len(e.Keys) > 0) {
		b.problems.Add(e.Pos, "criteria of kind none take no other settings")
	}
	return c
}

// resolveFamilies expands "all" to every family; "the Router" names no
// family; a list is checked against the extension spec's families.
func (b *builder) resolveFamilies(fs load.Families, pos load.Position) ([]table.Family, string) {
	if fs.Text == "all" {
		out := make([]table.Family, 0, len(b.m.Families))
		for _, f := range b.m.Families {
			out = append(out, f.Name)
		}
		return out, fs.Text
	}
	if fs.Text != "" {
		return nil, fs.Text
	}
	var out []table.Family
	for _, n := range fs.List {
		if !b.families[n] {
			b.problems.Add(pos, "unknown family %q", n)
			continue
		}
		out = append(out, table.Family(n))
	}
	order := make([]table.Family, 0, len(b.m.Families))
	for _, f := range b.m.Families {
		order = append(order, f.Name)
	}
	sortByOrder(out, order)
	return out, ""
}

// checkFamiliesAnswer: a family that honours a question-type field must
// answer at least one of its question types (or, at level question_type,
// the type itself).
func (b *builder) checkFamiliesAnswer(f Field) {
	types := f.QuestionTypes
	if f.Level == table.LevelQuestionType {
		types = []table.QuestionType{table.QuestionType(f.Name)}
	}
	if len(types) == 0 {
		return
	}
	for _, name := range f.Families {
		fam := b.family(name)
		if fam == nil {
			continue
		}
		answers := false
		for _, qt := range types {
			answers = answers || indexOf(fam.QuestionTypes, qt) < len(fam.QuestionTypes)
		}
		if !answers {
			b.problems.Add(f.Pos, "field %s.%s: family %s answers none of its question types %v", f.Level, f.Name, name, types)
		}
	}
}

func (b *builder) family(name table.Family) *Family {
	for i := range b.m.Families {
		if b.m.Families[i].Name == name {
			return &b.m.Families[i]
		}
	}
	return nil
}

func (b *builder) docSources(names []string, pos load.Position) []DocSource {
	var out []DocSource
	for _, n := range names {
		d := DocSource(n)
		if indexOf(DocSourceOrder, d) == len(DocSourceOrder) {
			b.problems.Add(pos, "unknown documentation source %q", n)
			continue
		}
		out = append(out, d)
	}
	sortByOrder(out, DocSourceOrder)
	return out
}

// sinceOf is the version part of a schema ID ("systemone/0.2" → "0.2").
func sinceOf(id string) string {
	for i := len(id) - 1; i >= 0; i-- {
		if id[i] == '/' {
			return id[i+1:]
		}
	}
	return id
}

// checkDuplicateFields: within one spec, a level and name is defined once.
func (b *builder) checkDuplicateFields() {
	seen := map[string]load.Position{}
	for _, f := range b.m.Fields {
		key := fmt.Sprintf("%s\x00%s\x00%s", f.Spec, f.Level, f.Name)
		if at, dup := seen[key]; dup {
			b.problems.Add(f.Pos, "field %s.%s is already defined at %s", f.Level, f.Name, at)
			continue
		}
		seen[key] = f.Pos
	}
}
