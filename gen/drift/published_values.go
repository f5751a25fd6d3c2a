package drift

import (
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/vllm-sr/systemone/gen/model"
)

// typeNames reads a type keyword: a name or a list (OpenAPI 3.1); null
// is reported as nullable, not as a kind.
func typeNames(t any) ([]model.Kind, bool, error) {
	var names []any
	switch v := t.(type) {
	case nil:
		return nil, false, nil
	case string:
		names = []any{v}
	case []any:
		names = v
	default:
		return nil, false, fmt.Errorf("type must be a name or a list of names")
	}
	var kinds []model.Kind
	nullable := false
	for _, x := range names {
		name := fmt.Sprint(x)
		if name == "null" {
			nullable = true
			continue
		}
		if !slices.Contains(model.KindOrder, model.Kind(name)) {
			return nil, false, fmt.Errorf("unknown type %q", name)
		}
		kinds = appendKind(kinds, model.Kind(name))
	}
	return kinds, nullable, nil
}

func appendKind(kinds []model.Kind, k model.Kind) []model.Kind {
	if k == "" || slices.Contains(kinds, k) {
		return kinds
	}
	return append(kinds, k)
}

// enumValues are a schema's enum, or its const as a one-value enum.
func enumValues(s map[string]any) ([]any, bool) {
	if c, ok := s["const"]; ok {
		return []any{c}, true
	}
	if e, ok := s["enum"].([]any); ok {
		return e, true
	}
	return nil, false
}

func kindOfValue(v any) model.Kind {
	switch x := v.(type) {
	case string:
		return model.KindString
	case bool:
		return model.KindBoolean
	case float64:
		if x == float64(int64(x)) {
			return model.KindInteger
		}
		return model.KindNumber
	case int, int64, uint64:
		return model.KindInteger
	case map[string]any:
		return model.KindObject
	case []any:
		return model.KindArray
	}
	return ""
}

// valueText writes an enum value as the spec does: a string unquoted, a
// number in decimal.
func valueText(v any) string {
	if f, ok := toFloat(v); ok {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return fmt.Sprint(v)
}

func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case uint64:
		return float64(x), true
	}
	return 0, false
}

func floatOf(v any) *float64 {
	if f, ok := toFloat(v); ok {
		return &f
	}
	return nil
}

func intOf(v any) *int {
	if f, ok := toFloat(v); ok {
		i := int(f)
		return &i
	}
	return nil
}

// cloneShape copies what settle and a nullable union may change in place,
// so an inlined component's Shape is never changed through a use of it.
func cloneShape(s *Shape) *Shape {
	c := *s
	c.Refs = slices.Clone(s.Refs)
	c.Scalars = maps.Clone(s.Scalars)
	c.Mapping = maps.Clone(s.Mapping)
	return &c
}
