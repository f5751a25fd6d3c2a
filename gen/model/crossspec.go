package model

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/vllm-sr/systemone/runtime/table"
)

// checkCrossSpecMeaning: a level and name defined by two specs must mean
// the same (same kinds, nullability and named type), and be passive in
// both or in neither (the runtime binds a member name at a level once),
// or the build fails. A member the extension set defines again over the
// standard's must mean exactly what the standard says (restatedMeaning).
func (b *builder) checkCrossSpecMeaning() {
	first := map[FieldKey]*Field{}
	for i := range b.m.Fields {
		f := &b.m.Fields[i]
		prev, ok := first[f.Key()]
		if !ok {
			first[f.Key()] = f
			continue
		}
		if prev.Spec != f.Spec && !sameMeaning(prev.Type, f.Type) {
			b.problems.Add(f.Pos, "field %s.%s is %s here but %s in %s (%s): two specifications give it different meanings",
				f.Level, f.Name, f.Type, prev.Type, prev.Spec, prev.Pos)
		}
		if prev.Passive != f.Passive {
			b.problems.Add(f.Pos, "field %s.%s is passive in one specification and bound in another (%s)", f.Level, f.Name, prev.Spec)
		}
		if prev.Spec == SpecStandard && f.Spec == SpecExtensions {
			for _, d := range restatedMeaning(prev, f) {
				b.problems.Add(f.Pos, "field %s.%s: %s; two specifications give it different meanings (the standard's definition: %s)",
					f.Level, f.Name, d, prev.Pos)
			}
		}
	}
}

// restatedMeaning lists how the extension set's definition ext of a
// member changes the standard's definition std, one line each: whether it
// is required, the question types it applies to, its enum values and
// bounds (at every depth of its type), and what a systemone/0.2 target
// gets. vllm-sr/5.0 is the standard plus its extensions, so a standard
// member keeps the standard's meaning: the generated readers, writers and
// strip lists take both definitions, and a difference would change what
// every standard request or answer means (stripping the standard's
// question.instructions would drop every question's instructions on the
// way to a systemone/0.2 target). The type itself is compared by
// sameMeaning for every pair of specs.
func restatedMeaning(std, ext *Field) []string {
	var out []string
	if std.Required != ext.Required {
		out = append(out, fmt.Sprintf("required is %t here but %t in the standard", ext.Required, std.Required))
	}
	if !slices.Equal(std.QuestionTypes, ext.QuestionTypes) {
		out = append(out, fmt.Sprintf("question_types are %s here but %s in the standard", listText(ext.QuestionTypes), listText(std.QuestionTypes)))
	}
	out = append(out, constraintDiffs("", std.Type, ext.Type)...)
	switch ext.Disposition {
	case table.DispositionStripped:
		out = append(out, "on_systemone_0_2: stripped would strip a member the standard defines from everything sent to a systemone/0.2 target")
	case table.DispositionRefusedAtLoad:
		out = append(out, "on_systemone_0_2: refused_at_load would refuse a member the standard defines for a systemone/0.2 target")
	case table.DispositionNeverSent:
		out = append(out, "on_systemone_0_2: never_sent says a standard server never sends a member the standard defines")
	}
	return out
}

// constraintDiffs compares the enum values and bounds of two types of the
// same shape (sameMeaning), and of their items and map values; at names
// the depth ("", " of items", " of values").
func constraintDiffs(at string, std, ext Type) []string {
	var out []string
	if !sameSet(std.Enum, ext.Enum) {
		out = append(out, fmt.Sprintf("enum%s is %s here but %s in the standard", at, listText(ext.Enum), listText(std.Enum)))
	}
	bound := func(name string, s, e *float64) {
		if !sameBound(s, e) {
			out = append(out, fmt.Sprintf("%s%s is %s here but %s in the standard", name, at, boundText(e), boundText(s)))
		}
	}
	bound("minimum", std.Minimum, ext.Minimum)
	bound("maximum", std.Maximum, ext.Maximum)
	bound("min_count", intBound(std.MinCount), intBound(ext.MinCount))
	bound("max_count", intBound(std.MaxCount), intBound(ext.MaxCount))
	if std.Items != nil && ext.Items != nil {
		out = append(out, constraintDiffs(at+" of items", *std.Items, *ext.Items)...)
	}
	if std.Values != nil && ext.Values != nil {
		out = append(out, constraintDiffs(at+" of values", *std.Values, *ext.Values)...)
	}
	return out
}

// sameSet: the same values, in any order (an enum's order carries no
// meaning).
func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for _, v := range a {
		if !slices.Contains(b, v) {
			return false
		}
	}
	for _, v := range b {
		if !slices.Contains(a, v) {
			return false
		}
	}
	return true
}

func sameBound(a, b *float64) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func intBound(p *int) *float64 {
	if p == nil {
		return nil
	}
	v := float64(*p)
	return &v
}

func boundText(p *float64) string {
	if p == nil {
		return "unset"
	}
	return strconv.FormatFloat(*p, 'g', -1, 64)
}

func listText[T ~string](l []T) string {
	if len(l) == 0 {
		return "unset"
	}
	return fmt.Sprint(l)
}
