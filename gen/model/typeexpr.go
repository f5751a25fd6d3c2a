package model

import (
	"fmt"
	"strings"
)

// A type expression is the specs' machine type notation:
//
//	expr  = alt { "|" alt }
//	alt   = "null" | "any" | kind | name | "map<" expr ">" | "array<" expr ">"
//	kind  = "string" | "number" | "integer" | "boolean" | "object" | "array"
//	name  = a named type (content) or a level (question, asset, ...)
//
// "null" makes the type nullable; "any" is every kind and null.

// typeResolver knows the names a type expression may use.
type typeResolver struct {
	named  map[string]Type
	levels map[string]bool
}

func (r typeResolver) parse(expr string) (Type, error) {
	alts, err := splitAlternatives(expr)
	if err != nil {
		return Type{}, err
	}
	var t Type
	for _, alt := range alts {
		one, err := r.parseAlt(alt)
		if err != nil {
			return Type{}, err
		}
		if err := merge(&t, one); err != nil {
			return Type{}, fmt.Errorf("type %q: %w", expr, err)
		}
	}
	sortByOrder(t.Kinds, KindOrder)
	return t, nil
}

func (r typeResolver) parseAlt(alt string) (Type, error) {
	for _, wrap := range []string{"map", "array"} {
		if inner, ok := strings.CutPrefix(alt, wrap+"<"); ok && strings.HasSuffix(inner, ">") {
			elem, err := r.parse(strings.TrimSuffix(inner, ">"))
			if err != nil {
				return Type{}, err
			}
			if wrap == "map" {
				return Type{Kinds: []Kind{KindObject}, Values: &elem}, nil
			}
			return Type{Kinds: []Kind{KindArray}, Items: &elem}, nil
		}
	}
	switch alt {
	case "null":
		return Type{Nullable: true}, nil
	case "any":
		return Type{Kinds: append([]Kind(nil), KindOrder...), Nullable: true}, nil
	}
	for _, k := range KindOrder {
		if string(k) == alt {
			return Type{Kinds: []Kind{k}}, nil
		}
	}
	if nt, ok := r.named[alt]; ok {
		return Type{Kinds: append([]Kind(nil), nt.Kinds...), Ref: alt}, nil
	}
	if r.levels[alt] {
		return Type{Kinds: []Kind{KindObject}, Ref: alt}, nil
	}
	return Type{}, fmt.Errorf("unknown type name %q", alt)
}

// splitAlternatives splits at the top-level "|".
func splitAlternatives(expr string) ([]string, error) {
	var out []string
	depth, start := 0, 0
	for i, c := range expr {
		switch c {
		case '<':
			depth++
		case '>':
			depth--
			if depth < 0 {
				return nil, fmt.Errorf("unbalanced > in type %q", expr)
			}
		case '|':
			if depth == 0 {
				out = append(out, expr[start:i])
				start = i + 1
			}
		}
	}
	if depth != 0 {
		return nil, fmt.Errorf("unbalanced < in type %q", expr)
	}
	out = append(out, expr[start:])
	for _, a := range out {
		if a == "" {
			return nil, fmt.Errorf("empty alternative in type %q", expr)
		}
	}
	return out, nil
}

// merge adds one alternative to a union. A union holds at most one Ref,
// one Items and one Values, so its meaning stays unambiguous.
func merge(t *Type, alt Type) error {
	for _, k := range alt.Kinds {
		if indexOf(t.Kinds, k) == len(t.Kinds) {
			t.Kinds = append(t.Kinds, k)
		}
	}
	t.Nullable = t.Nullable || alt.Nullable
	if alt.Ref != "" {
		if t.Ref != "" {
			return fmt.Errorf("two named types in one union")
		}
		t.Ref = alt.Ref
	}
	if alt.Items != nil {
		if t.Items != nil {
			return fmt.Errorf("two array element types in one union")
		}
		t.Items = alt.Items
	}
	if alt.Values != nil {
		if t.Values != nil {
			return fmt.Errorf("two map member types in one union")
		}
		t.Values = alt.Values
	}
	return nil
}

// String renders the type in the expression notation, such as
// "map<content|null>". A Ref with no element types stands for all of the
// type's kinds (a named type such as content, or a level's object);
// otherwise it stands for the object kind.
func (t Type) String() string {
	var alts []string
	if t.Ref != "" && t.Items == nil && t.Values == nil {
		alts = append(alts, t.Ref)
	} else {
		for _, k := range t.Kinds {
			switch {
			case k == KindObject && t.Ref != "":
				alts = append(alts, t.Ref)
			case k == KindObject && t.Values != nil:
				alts = append(alts, "map<"+t.Values.String()+">")
			case k == KindArray && t.Items != nil:
				alts = append(alts, "array<"+t.Items.String()+">")
			default:
				alts = append(alts, string(k))
			}
		}
	}
	if t.Nullable {
		alts = append(alts, "null")
	}
	if len(alts) == 0 {
		return "null"
	}
	return strings.Join(alts, "|")
}

// sameMeaning reports whether two types mean the same: the same kinds,
// nullability and named type, recursively. Enums and bounds may differ
// between specs; the JSON shape may not.
func sameMeaning(a, b Type) bool {
	if a.Nullable != b.Nullable || a.Ref != b.Ref || len(a.Kinds) != len(b.Kinds) {
		return false
	}
	for i := range a.Kinds {
		if a.Kinds[i] != b.Kinds[i] {
			return false
		}
	}
	return sameOptional(a.Items, b.Items) && sameOptional(a.Values, b.Values)
}

func sameOptional(a, b *Type) bool {
	if a == nil || b == nil {
		return a == b
	}
	return sameMeaning(*a, *b)
}
