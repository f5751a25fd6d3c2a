package model

import (
	"bytes"
	"encoding/json"

	"github.com/vllm-sr/systemone/runtime/table"
)

// JSON returns the model as canonical JSON: struct members in declaration
// order, slices in model order, two-space indent, a trailing newline.
// Positions are left out so the dump changes only when meaning does.
func (m *Model) JSON() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(m); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Spec returns the spec of a kind, or nil.
func (m *Model) Spec(kind SpecKind) *Spec {
	for i := range m.Specs {
		if m.Specs[i].Kind == kind {
			return &m.Specs[i]
		}
	}
	return nil
}

// Field returns the field a spec defines at a level, or nil.
func (m *Model) Field(spec SpecKind, level table.Level, name string) *Field {
	for i := range m.Fields {
		f := &m.Fields[i]
		if f.Spec == spec && f.Level == level && f.Name == name {
			return f
		}
	}
	return nil
}

// FieldsAt returns every spec's fields at a level, in model order.
func (m *Model) FieldsAt(level table.Level) []Field {
	var out []Field
	for _, f := range m.Fields {
		if f.Level == level {
			out = append(out, f)
		}
	}
	return out
}

// SpecFields returns one spec's fields, in model order.
func (m *Model) SpecFields(spec SpecKind) []Field {
	var out []Field
	for _, f := range m.Fields {
		if f.Spec == spec {
			out = append(out, f)
		}
	}
	return out
}

// Schema returns the shapes of a schema ID, or nil.
func (m *Model) Schema(id table.SchemaID) *Schema {
	for i := range m.Schemas {
		if m.Schemas[i].ID == id {
			return &m.Schemas[i]
		}
	}
	return nil
}

// Message returns the schema's message at a level, or nil.
func (s *Schema) Message(level table.Level) *Message {
	for i := range s.Messages {
		if s.Messages[i].Level == level {
			return &s.Messages[i]
		}
	}
	return nil
}

// QuestionType returns the schema's shape of a question type, or nil.
func (s *Schema) QuestionType(qt table.QuestionType) *QuestionTypeShape {
	for i := range s.QuestionTypes {
		if s.QuestionTypes[i].Type == qt {
			return &s.QuestionTypes[i]
		}
	}
	return nil
}

// Member returns a message's member, or nil.
func (msg *Message) Member(name string) *Member {
	for i := range msg.Members {
		if msg.Members[i].Name == name {
			return &msg.Members[i]
		}
	}
	return nil
}

// Family returns a family, or nil.
func (m *Model) Family(name table.Family) *Family {
	for i := range m.Families {
		if m.Families[i].Name == name {
			return &m.Families[i]
		}
	}
	return nil
}

// ImplicitRole returns 4.0's implicit role of a state key.
func (r ImplicitRoles) ImplicitRole(key string) string {
	for _, p := range r.Parts {
		if p.Key == key {
			return p.Role
		}
	}
	return r.Default
}
