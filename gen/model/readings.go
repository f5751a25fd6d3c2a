package model

import (
	"slices"

	"github.com/vllm-sr/systemone/gen/load"
)

// OpenAPIReading is how the standard's published OpenAPI document writes a
// field, or a question type's criteria, where it differs from the spec's
// entry, which says what this project follows. srgen drift expects the
// document to say what the reading says and the rest as the entry is
// written; the reading never changes what the project accepts.
type OpenAPIReading struct {
	// Type is the document's type in place of the entry's (fields only).
	Type *Type `json:"type,omitempty"`
	// Required is the document's required flag.
	Required *bool `json:"required,omitempty"`
	// Nullable is whether the document lets the criteria be null
	// (criteria only).
	Nullable *bool `json:"nullable,omitempty"`
	// Enum, Minimum, Maximum, MinCount and MaxCount are the document's
	// values of the entry's constraints of the same names.
	Enum     []string `json:"enum,omitempty"`
	Minimum  *float64 `json:"minimum,omitempty"`
	Maximum  *float64 `json:"maximum,omitempty"`
	MinCount *int     `json:"min_count,omitempty"`
	MaxCount *int     `json:"max_count,omitempty"`
	// Unset names the entry's constraints the document does not state
	// (enum, minimum, maximum, min_count, max_count), in the order written.
	Unset []string `json:"unset,omitempty"`
	// Conflict is the topic of the recorded conflict the difference comes
	// from; empty: the prose docs add what the entry says beyond the
	// document (a bound, or kinds other statuses' bodies take).
	Conflict string `json:"conflict,omitempty"`
}

// Unsets reports whether the reading says the document states no such
// constraint (a key of the spec format: "min_count", "maximum", ...).
func (r *OpenAPIReading) Unsets(key string) bool {
	return r != nil && slices.Contains(r.Unset, key)
}

// constraintsSet are the constraint keys an entry itself sets; a reading
// may unset only those, since unsetting anything else would say nothing.
type constraintsSet map[string]bool

func fieldConstraints(e load.FieldEntry) constraintsSet {
	return constraintsSet{
		"enum": len(e.Enum) > 0, "minimum": e.Minimum != nil, "maximum": e.Maximum != nil,
		"min_count": e.MinCount != nil, "max_count": e.MaxCount != nil,
	}
}

func criteriaConstraints(e load.CriteriaEntry) constraintsSet {
	return constraintsSet{"min_count": e.MinCount != nil, "max_count": e.MaxCount != nil}
}

// reading resolves an openapi reading of an entry; nil for none. It checks
// what the format cannot: the type parses, the conflict is recorded, and
// each null key unsets a constraint the entry has.
func (b *builder) reading(r *load.OpenAPIReadingEntry, set constraintsSet, what string) *OpenAPIReading {
	if r == nil {
		return nil
	}
	out := &OpenAPIReading{
		Required: r.Required, Nullable: r.Nullable, Enum: r.Enum,
		Minimum: r.Minimum, Maximum: r.Maximum, MinCount: r.MinCount, MaxCount: r.MaxCount,
		Unset: r.Unset, Conflict: r.Conflict,
	}
	if r.Type != "" {
		t, err := b.types.parse(r.Type)
		if err != nil {
			b.problems.Add(r.Pos, "%s: openapi type: %v", what, err)
		}
		out.Type = &t
	}
	for _, key := range r.Unset {
		if !set[key] {
			b.problems.Add(r.Pos, "%s: openapi unsets %s, which the entry does not set", what, key)
		}
	}
	if r.Conflict != "" && !slices.ContainsFunc(b.raw.Standard.Conflicts, func(c load.ConflictEntry) bool { return c.Topic == r.Conflict }) {
		b.problems.Add(r.Pos, "%s: openapi names conflict %q, which the conflicts section does not record", what, r.Conflict)
	}
	return out
}
