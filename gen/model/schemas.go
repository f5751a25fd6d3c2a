package model

import (
	"github.com/vllm-sr/systemone/runtime/table"
)

// legacyCriteriaMembers are the 4.0 question members that carried
// criteria, with the criteria kind each had.
var legacyCriteriaMembers = map[string]CriteriaKind{
	"choices": CriteriaOptions,
	"levels":  CriteriaLevels,
	"labels":  CriteriaLabels,
}

// buildSchemas computes the message shapes of each schema ID.
func (b *builder) buildSchemas() {
	for _, d := range b.schemas {
		id := d.id
		s := Schema{ID: id, Accepts: d.accepts, Title: d.title, Description: d.description, Specs: d.specs}
		s.QuestionTypes = b.questionTypeShapes(s.Specs)
		s.AssetTypes = b.assetTypeShapes(s.Specs)
		s.Messages = b.messages(s)
		b.applyOverrides(&s)
		b.fillQuestionTypeMembers(&s)
		for _, e := range b.m.Endpoints {
			name := e.Method + " " + e.Path
			if indexOf(e.Schemas, id) < len(e.Schemas) && indexOf(s.Endpoints, name) == len(s.Endpoints) {
				s.Endpoints = append(s.Endpoints, name)
			}
		}
		b.m.Schemas = append(b.m.Schemas, s)
	}
	b.checkContractQuestionTypes()
}

func inSpecs(specs []SpecKind, s SpecKind) bool { return indexOf(specs, s) < len(specs) }

// messages merges the fields of the schema's specs level by level. A name
// defined by two specs is one member (checkCrossSpecMeaning proved they
// mean the same); it is required only if every spec requires it, and then
// excused by what excuses it in any of them (the weaker requirement).
func (b *builder) messages(s Schema) []Message {
	var out []Message
	for _, level := range LevelOrder {
		if typeLevels[level] {
			continue
		}
		msg := Message{Level: level}
		for _, f := range b.m.Fields {
			if f.Level != level || !inSpecs(s.Specs, f.Spec) {
				continue
			}
			if i := memberIndex(msg.Members, f.Name); i >= 0 {
				mergeRequired(&msg.Members[i], f)
				continue
			}
			msg.Members = append(msg.Members, Member{
				Name: f.Name, Spec: f.Spec, Type: f.Type, Required: f.Required,
				RequiredUnless: append([]string(nil), f.RequiredUnless...),
				QuestionTypes:  f.QuestionTypes, Removed: b.isRemoved(s, f),
				Passive: f.Passive,
			})
		}
		if len(msg.Members) == 0 {
			continue
		}
		b.relaxAcrossGroups(s, &msg)
		b.specialiseMembers(s, &msg)
		out = append(out, msg)
	}
	return out
}

// relaxAcrossGroups: a schema that accepts both the 4.0 contract and the
// 5.0 forms accepts a message written either way, so a member one side
// requires is optional when the other side defines the same level without
// it (a 4.0 listing has data, a 5.0 listing has models).
func (b *builder) relaxAcrossGroups(s Schema, msg *Message) {
	if !inSpecs(s.Specs, SpecContract40) {
		return
	}
	side := func(spec SpecKind) bool { return spec == SpecContract40 }
	defines := map[bool]map[string]bool{true: {}, false: {}}
	for _, f := range b.m.Fields {
		if f.Level == msg.Level && inSpecs(s.Specs, f.Spec) {
			defines[side(f.Spec)][f.Name] = true
		}
	}
	for i := range msg.Members {
		m := &msg.Members[i]
		for _, contract := range []bool{true, false} {
			if len(defines[contract]) > 0 && !defines[contract][m.Name] {
				m.Required, m.RequiredUnless = false, nil
			}
		}
	}
}

// mergeRequired folds another spec's definition of a member into it: a
// message either spec's way is valid, so the member is required only when
// both require it, and excused by either's alternatives.
func mergeRequired(m *Member, f Field) {
	m.Required = m.Required && f.Required
	if !m.Required {
		m.RequiredUnless = nil
		return
	}
	for _, alt := range f.RequiredUnless {
		if indexOf(m.RequiredUnless, alt) == len(m.RequiredUnless) {
			m.RequiredUnless = append(m.RequiredUnless, alt)
		}
	}
}

func memberIndex(ms []Member, name string) int {
	for i, m := range ms {
		if m.Name == name {
			return i
		}
	}
	return -1
}

// isRemoved: a 4.0-only member named by a removed form.
func (b *builder) isRemoved(s Schema, f Field) bool {
	if f.Spec != SpecContract40 {
		return false
	}
	for _, r := range b.m.RemovedForms {
		if r.Level == f.Level && r.Form == f.Name {
			return true
		}
	}
	return false
}

// specialiseMembers writes the schema's own question and asset types into
// the members that name them, so a validator reads them from the message.
func (b *builder) specialiseMembers(s Schema, msg *Message) {
	for i := range msg.Members {
		m := &msg.Members[i]
		switch {
		case msg.Level == table.LevelQuestion && m.Name == "type":
			m.Type.Enum = nil
			for _, qt := range s.QuestionTypes {
				m.Type.Enum = append(m.Type.Enum, string(qt.Type))
			}
		case msg.Level == table.LevelQuestion && m.Name == "criteria":
			m.QuestionTypes = nil
			for _, qt := range s.QuestionTypes {
				if qt.Criteria.Kind != CriteriaNone {
					m.QuestionTypes = append(m.QuestionTypes, qt.Type)
				}
			}
		case msg.Level == table.LevelAnswer && m.Name == "type":
			// An answer's type is its question's answer type: span answers
			// as noul, every other type as itself.
			m.Type.Enum = nil
			for _, qt := range s.QuestionTypes {
				t := string(qt.Type)
				if qt.AnswersAs != "" {
					t = string(qt.AnswersAs)
				}
				if indexOf(m.Type.Enum, t) == len(m.Type.Enum) {
					m.Type.Enum = append(m.Type.Enum, t)
				}
			}
		case msg.Level == table.LevelAsset && m.Name == "type":
			m.Type.Enum = nil
			for _, at := range s.AssetTypes {
				m.Type.Enum = append(m.Type.Enum, at.Type)
			}
		}
	}
}

// questionTypeShapes are the question types the schema's specs define,
// with the extension set's limits applied where the schema includes it.
func (b *builder) questionTypeShapes(specs []SpecKind) []QuestionTypeShape {
	var out []QuestionTypeShape
	for _, f := range b.m.Fields {
		if f.Level != table.LevelQuestionType || !inSpecs(specs, f.Spec) || f.Criteria == nil {
			continue
		}
		qt := QuestionTypeShape{Type: table.QuestionType(f.Name), Spec: f.Spec, Criteria: *f.Criteria, AnswersAs: f.AnswersAs}
		// The published document's reading belongs to the standard's entry,
		// not to what a schema accepts.
		qt.Criteria.OpenAPI = nil
		if inSpecs(specs, SpecExtensions) {
			b.applyLimits(&qt)
		}
		if inSpecs(specs, SpecContract40) {
			qt.LegacyCriteria = b.legacyCriteria(qt.Type)
		}
		if qt.LegacyCriteria != nil {
			// A type with two spellings of its criteria (the standard's and
			// 4.0's) is valid with either, so neither is required alone; and
			// 4.0's contract requires neither, for its preset-only questions.
			qt.Criteria.Required = false
		}
		out = append(out, qt)
	}
	sortShapes(out)
	return out
}

func sortShapes(qs []QuestionTypeShape) {
	order := make([]table.QuestionType, len(qs))
	for i, q := range qs {
		order[i] = q.Type
	}
	sortByOrder(order, QuestionTypeOrder)
	sorted := make([]QuestionTypeShape, 0, len(qs))
	for _, t := range order {
		for _, q := range qs {
			if q.Type == t {
				sorted = append(sorted, q)
			}
		}
	}
	copy(qs, sorted)
}

func (b *builder) applyLimits(qt *QuestionTypeShape) {
	for _, l := range b.m.Limits {
		if indexOf(l.QuestionTypes, qt.Type) == len(l.QuestionTypes) {
			continue
		}
		qt.Criteria.MinCount = intPtr(l.Min)
		qt.Criteria.MaxCount = intPtr(l.Max)
	}
}

func intPtr(p *int64) *int {
	if p == nil {
		return nil
	}
	v := int(*p)
	return &v
}

// legacyCriteria is the 4.0 member that carried a question type's
// criteria: choices (a noul's with the keys true and false), levels or
// labels.
func (b *builder) legacyCriteria(qt table.QuestionType) *LegacyCriteria {
	for _, f := range b.m.Fields {
		kind, ok := legacyCriteriaMembers[f.Name]
		if f.Spec != SpecContract40 || f.Level != table.LevelQuestion || !ok || indexOf(f.QuestionTypes, qt) == len(f.QuestionTypes) {
			continue
		}
		c := Criteria{Kind: kind, Values: f.Type.Values, MinCount: f.Type.MinCount, MaxCount: f.Type.MaxCount}
		if f.Type.Items != nil {
			c.Values = f.Type.Items
		}
		if qt == table.QuestionNoul {
			c.Kind, c.Keys, c.MinCount, c.MaxCount = CriteriaNoul, []string{"true", "false"}, nil, nil
		}
		return &LegacyCriteria{Member: f.Name, Criteria: c}
	}
	return nil
}

func (b *builder) assetTypeShapes(specs []SpecKind) []AssetTypeShape {
	var out []AssetTypeShape
	for _, f := range b.m.Fields {
		if f.Level == table.LevelAssetType && inSpecs(specs, f.Spec) {
			out = append(out, AssetTypeShape{Type: f.Name, Spec: f.Spec, Formats: f.Formats})
		}
	}
	return out
}

// fillQuestionTypeMembers lists, per question type, the question members
// and the answer members that apply to it.
func (b *builder) fillQuestionTypeMembers(s *Schema) {
	question, answer := s.Message(table.LevelQuestion), s.Message(table.LevelAnswer)
	for i := range s.QuestionTypes {
		qt := &s.QuestionTypes[i]
		qt.Members = membersFor(question, qt.Type)
		answerType := qt.Type
		if qt.AnswersAs != "" {
			answerType = qt.AnswersAs
		}
		qt.AnswerMembers = membersFor(answer, answerType)
	}
}

func membersFor(msg *Message, qt table.QuestionType) []string {
	if msg == nil {
		return nil
	}
	var out []string
	for _, m := range msg.Members {
		if len(m.QuestionTypes) == 0 || indexOf(m.QuestionTypes, qt) < len(m.QuestionTypes) {
			out = append(out, m.Name)
		}
	}
	return out
}

// checkContractQuestionTypes: every question type the contract's question
// type enum names is one the standard or the extension set defines.
func (b *builder) checkContractQuestionTypes() {
	known := map[string]bool{}
	for _, f := range b.m.Fields {
		if f.Level == table.LevelQuestionType {
			known[f.Name] = true
		}
	}
	for _, f := range b.m.Fields {
		if f.Spec != SpecContract40 || f.Level != table.LevelQuestion || f.Name != "type" {
			continue
		}
		for _, v := range f.Type.Enum {
			if !known[v] {
				b.problems.Add(f.Pos, "4.0 question type %q is not defined by the standard or the extension set", v)
			}
		}
	}
}
