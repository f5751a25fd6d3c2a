package emit

import (
	"github.com/vllm-sr/systemone/gen/model"
)

// One JSON value as a JSON Schema 2020-12 (OpenAPI 3.1) schema. Both sides
// of the document build an oasValue: the request side from the
// validator's ValueCheck (so the document refuses what the generated
// validator refuses), the response side from the message's Type.

// oasValue is what one JSON value may be.
type oasValue struct {
	kinds    []model.Kind // empty: any kind
	nullable bool
	// enum as written; typed by the kinds (numbers stay numbers).
	enum               []string
	minimum, maximum   *float64
	minCount, maxCount *int
	// ref is the component of the object kind, "" when the object is free.
	ref string
	// items and values are the schemas of array items and of the members
	// of an object used as a map; nil: free.
	items, values *ymap
}

const componentsPrefix = "#/components/schemas/"

func refSchema(component string) *ymap { return newYMap().put("$ref", componentsPrefix+component) }

// schema writes the value. A reference to a component stands alone when
// the object is the only kind; with other kinds (the standard's detail is
// a string, an object or an array) each kind is one branch of an anyOf,
// since the keywords beside a $ref would apply to every kind.
func (v oasValue) schema() *ymap {
	if v.ref == "" {
		return v.plain()
	}
	var branches ylist
	for _, k := range v.kinds {
		switch k {
		case model.KindObject:
			branches = append(branches, refSchema(v.ref))
		default:
			one := v
			one.kinds, one.nullable, one.ref = []model.Kind{k}, false, ""
			branches = append(branches, one.plain())
		}
	}
	if v.nullable {
		branches = append(branches, newYMap().put("type", "null"))
	}
	if len(branches) == 1 {
		return branches[0].(*ymap)
	}
	return newYMap().put("anyOf", branches)
}

// plain writes a value with no component reference.
func (v oasValue) plain() *ymap {
	s := newYMap()
	if t := v.typeList(); t != nil {
		s.put("type", t)
	}
	if len(v.enum) > 0 {
		s.put("enum", v.enumList())
	}
	if v.minimum != nil {
		s.put("minimum", numText(*v.minimum))
	}
	if v.maximum != nil {
		s.put("maximum", numText(*v.maximum))
	}
	if v.has(model.KindObject) {
		s.putIf(v.values != nil, "additionalProperties", v.values)
		putCount(s, "minProperties", v.minCount)
		putCount(s, "maxProperties", v.maxCount)
	}
	if v.has(model.KindArray) {
		s.putIf(v.items != nil, "items", v.items)
		putCount(s, "minItems", v.minCount)
		putCount(s, "maxItems", v.maxCount)
	}
	return s
}

func putCount(s *ymap, key string, n *int) {
	if n != nil {
		s.put(key, *n)
	}
}

func (v oasValue) has(k model.Kind) bool {
	for _, x := range v.kinds {
		if x == k {
			return true
		}
	}
	return false
}

// typeList is the type keyword: one name, or a list with "null" last when
// the value may be null. Every kind (the validation item's input) is no
// type keyword at all.
func (v oasValue) typeList() any {
	if len(v.kinds) == 0 || len(v.kinds) == len(model.KindOrder) {
		return nil
	}
	names := make(yflow, 0, len(v.kinds)+1)
	for _, k := range v.kinds {
		names = append(names, string(k))
	}
	if v.nullable {
		names = append(names, "null")
	}
	if len(names) == 1 {
		return names[0]
	}
	return names
}

// enumList types each value by the kinds: a numeric-only value's enum is
// numbers (rate is 1 or 2, not "1" or "2"). A nullable value's enum
// lists null too, since JSON Schema checks enum against null as well.
func (v oasValue) enumList() ylist {
	numeric := len(v.kinds) > 0
	for _, k := range v.kinds {
		numeric = numeric && (k == model.KindInteger || k == model.KindNumber)
	}
	out := make(ylist, 0, len(v.enum)+1)
	for _, e := range v.enum {
		if numeric {
			out = append(out, ynum(e))
		} else {
			out = append(out, e)
		}
	}
	if v.nullable {
		out = append(out, ynum("null"))
	}
	return out
}
