package model

import (
	"strings"

	"github.com/vllm-sr/systemone/gen/load"
	"github.com/vllm-sr/systemone/runtime/table"
)

// buildOverrides resolves the extension set's overrides, which apply to
// every schema that includes the extension set or to those of them the
// override lists, then the internal form's, which apply to it alone. Each
// must name a field the schemas define and, with within, a map member whose
// values are the field's level.
func (b *builder) buildOverrides() {
	ext := b.raw.Extensions
	var withExtensions []table.SchemaID
	for _, d := range b.schemas {
		if inSpecs(d.specs, SpecExtensions) {
			withExtensions = append(withExtensions, d.id)
		}
	}
	for _, o := range ext.Overrides {
		b.addOverride(o, b.overrideSchemas(o, withExtensions))
	}
	if f := ext.InternalForm; f != nil {
		for _, o := range f.Overrides {
			if len(o.Schemas) > 0 {
				b.problems.Add(o.Pos, "override of %s: an internal form override applies to the internal form alone and lists no schemas", o.Field)
			}
			b.addOverride(o, []table.SchemaID{table.SchemaID(f.Schema)})
		}
	}
}

// overrideSchemas is the schemas an extension-set override applies to:
// those it lists, each one that includes the extension set, in schema
// order; every such schema when it lists none.
func (b *builder) overrideSchemas(o load.OverrideEntry, withExtensions []table.SchemaID) []table.SchemaID {
	if len(o.Schemas) == 0 {
		return withExtensions
	}
	var out []table.SchemaID
	for _, id := range withExtensions {
		if indexOf(o.Schemas, string(id)) < len(o.Schemas) {
			out = append(out, id)
		}
	}
	for _, id := range o.Schemas {
		if indexOf(withExtensions, table.SchemaID(id)) == len(withExtensions) {
			b.problems.Add(o.Pos, "override of %s: schema %q does not include the extension set", o.Field, id)
		}
	}
	return out
}

func (b *builder) addOverride(e load.OverrideEntry, schemas []table.SchemaID) {
	level, name, _ := strings.Cut(e.Field, ".")
	o := Override{
		Level: table.Level(level), Name: name, Required: e.Required, Nullable: e.Nullable, Allowed: e.Allowed,
		QuestionTypes: b.questionTypes(e.QuestionTypes, e.Pos), Schemas: schemas, Reason: e.Reason, Pos: e.Pos,
	}
	if b.definingField(o.Level, name) == nil {
		b.problems.Add(e.Pos, "override of %s: no spec defines that field", e.Field)
		return
	}
	if e.Within != "" {
		container, member, _ := strings.Cut(e.Within, ".")
		o.WithinLevel, o.WithinMember = table.Level(container), member
		f := b.definingField(o.WithinLevel, member)
		if f == nil || entryLevel(f.Type) != o.Level {
			b.problems.Add(e.Pos, "override of %s within %s: that member is not a map or array of %s", e.Field, e.Within, level)
			return
		}
	}
	if e.Allowed == nil && e.Required == nil && e.Nullable == nil && e.QuestionTypes == nil {
		b.problems.Add(e.Pos, "override of %s changes nothing: it needs required, nullable, allowed or question_types", e.Field)
	}
	if e.QuestionTypes != nil && o.Level != table.LevelQuestion && o.Level != table.LevelAnswer {
		b.problems.Add(e.Pos, "override of %s: question_types apply only to question and answer members", e.Field)
	}
	if e.Allowed != nil && (e.Required != nil || e.Nullable != nil || e.QuestionTypes != nil) {
		b.problems.Add(e.Pos, "override of %s: a member that is not allowed takes no other setting", e.Field)
	}
	if e.Allowed != nil && e.Within == "" {
		b.problems.Add(e.Pos, "override of %s: allowed needs within; a member allowed nowhere is one the spec should not define", e.Field)
	}
	b.m.Overrides = append(b.m.Overrides, o)
}

// definingField is the first spec's field at a level and name, or nil.
func (b *builder) definingField(level table.Level, name string) *Field {
	for i := range b.m.Fields {
		if f := &b.m.Fields[i]; f.Level == level && f.Name == name {
			return f
		}
	}
	return nil
}

// entryLevel is the level a map's or array's entries are; "" for any other
// type.
func entryLevel(t Type) table.Level {
	switch {
	case t.Values != nil:
		return table.Level(t.Values.Ref)
	case t.Items != nil:
		return table.Level(t.Items.Ref)
	}
	return ""
}

// applyOverrides changes the schema's messages by its overrides without
// within, then builds an entry message for each map that overrides name
// with within.
func (b *builder) applyOverrides(s *Schema) {
	for _, o := range b.m.Overrides {
		if o.WithinLevel != "" || indexOf(o.Schemas, s.ID) == len(o.Schemas) {
			continue
		}
		if msg := s.Message(o.Level); msg != nil {
			msg.Members = overridden(msg.Members, o)
		}
	}
	for _, o := range b.m.Overrides {
		if o.WithinLevel == "" || indexOf(o.Schemas, s.ID) == len(o.Schemas) {
			continue
		}
		entry := s.entry(o.WithinLevel, o.WithinMember)
		if entry == nil {
			msg := s.Message(o.Level)
			if msg == nil || s.Message(o.WithinLevel) == nil {
				continue
			}
			s.Entries = append(s.Entries, EntryMessage{
				Container: o.WithinLevel, Member: o.WithinMember,
				Message: Message{Level: msg.Level, Members: append([]Member(nil), msg.Members...)},
			})
			entry = &s.Entries[len(s.Entries)-1]
		}
		entry.Message.Members = overridden(entry.Message.Members, o)
	}
}

// overridden returns members with o applied to its member: left out when
// not allowed, else with its required flag or nullability replaced.
func overridden(members []Member, o Override) []Member {
	out := make([]Member, 0, len(members))
	for _, m := range members {
		if m.Name != o.Name {
			out = append(out, m)
			continue
		}
		if o.Allowed != nil && !*o.Allowed {
			continue
		}
		if o.Required != nil {
			m.Required = *o.Required
			if !m.Required {
				m.RequiredUnless = nil
			}
		}
		if o.Nullable != nil {
			m.Type.Nullable = *o.Nullable
		}
		if o.QuestionTypes != nil {
			m.QuestionTypes = o.QuestionTypes
		}
		out = append(out, m)
	}
	return out
}

// entry returns the schema's entry message of a container's member, or nil.
func (s *Schema) entry(container table.Level, member string) *EntryMessage {
	for i := range s.Entries {
		if s.Entries[i].Container == container && s.Entries[i].Member == member {
			return &s.Entries[i]
		}
	}
	return nil
}

// Entry returns the message the entries of a container's map member
// follow under the schema, or nil where they follow their level's own.
func (s *Schema) Entry(container table.Level, member string) *Message {
	if e := s.entry(container, member); e != nil {
		return &e.Message
	}
	return nil
}
