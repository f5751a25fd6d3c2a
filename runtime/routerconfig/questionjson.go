package routerconfig

import (
	"fmt"
	"math"
	"slices"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/vllm-sr/systemone/generated/catalog"
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/modelcheck"
	"github.com/vllm-sr/systemone/runtime/table"
)

// Bounds on one question's YAML: aliases can make a tree recursive or
// exponentially wide, and a question is small.
const (
	maxQuestionDepth = 32
	maxQuestionNodes = 10_000
)

// jsonOf converts a YAML value into JSON content, recording the node of
// each JSON Pointer in at, so a validator's problem can be placed at its
// line and column. A value JSON cannot hold is a problem, and so is a
// question nested deeper than maxQuestionDepth or larger than
// maxQuestionNodes (at holds every node visited, so it counts them).
func (r *reader) jsonOf(n *yaml.Node, path, pointer string, at map[string]*yaml.Node) (jsonvalue.Value, bool) {
	n = resolve(n)
	if depth := strings.Count(pointer, "/"); depth > maxQuestionDepth || len(at) >= maxQuestionNodes {
		r.fail(n, path, "the question is nested deeper than %d or holds more than %d values", maxQuestionDepth, maxQuestionNodes)
		return jsonvalue.Null(), false
	}
	at[pointer] = n
	switch n.Kind {
	case yaml.MappingNode:
		entries, ok := r.mapping(n, path, false)
		members := make([]jsonvalue.Member, 0, len(entries))
		for _, e := range entries {
			v, good := r.jsonOf(e.Value, join(path, e.Key), pointer+"/"+escapePointer(e.Key), at)
			if !good {
				return jsonvalue.Null(), false
			}
			members = append(members, jsonvalue.Member{Name: e.Key, Value: v})
		}
		obj, _ := jsonvalue.Object(members...)
		return obj, ok
	case yaml.SequenceNode:
		items := make([]jsonvalue.Value, len(n.Content))
		for i, item := range n.Content {
			v, good := r.jsonOf(item, fmt.Sprintf("%s[%d]", path, i), fmt.Sprintf("%s/%d", pointer, i), at)
			if !good {
				return jsonvalue.Null(), false
			}
			items[i] = v
		}
		return jsonvalue.Array(items...), true
	case yaml.ScalarNode:
		return r.scalarJSON(n, path)
	}
	r.fail(n, path, "must be a JSON value")
	return jsonvalue.Null(), false
}

// scalarJSON converts a scalar by its resolved YAML tag.
func (r *reader) scalarJSON(n *yaml.Node, path string) (jsonvalue.Value, bool) {
	switch n.Tag {
	case "!!str":
		return jsonvalue.String(n.Value), true
	case "!!null":
		return jsonvalue.Null(), true
	case "!!bool":
		var b bool
		_ = n.Decode(&b)
		return jsonvalue.Bool(b), true
	case "!!int":
		var v int64
		if n.Decode(&v) == nil {
			return jsonvalue.Int(v), true
		}
	case "!!float":
		var f float64
		if n.Decode(&f) == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
			return jsonvalue.Float(f), true
		}
	}
	r.fail(n, path, "is not a value JSON can hold (%s)", strings.TrimPrefix(n.Tag, "!!"))
	return jsonvalue.Null(), false
}

// escapePointer escapes one JSON Pointer segment (RFC 6901).
func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// withPreset completes a question that names a catalogued preset from
// the preset's canonical text, as modelcheck.ExpandPreset does in the IR:
// its type when it has none, its instructions and criteria when absent or
// null. So every rule question is a complete standard question, and the
// generated validator checks it whole. An unknown preset, or a type the
// preset does not answer, is reported.
func (r *reader) withPreset(q jsonvalue.Value, n *yaml.Node, path string) jsonvalue.Value {
	name, ok := q.Get(vocab.QuestionPreset)
	if !ok || name.Kind() != jsonvalue.KindString {
		return q
	}
	p, known := catalog.Preset(name.Str())
	if !known {
		r.fail(n, join(path, vocab.QuestionPreset), "unknown preset; the catalogue has: %s", strings.Join(presetNames(), ", "))
		return q
	}
	if typ, has := q.Get(vocab.QuestionType); has && typ.Kind() == jsonvalue.KindString && typ.Str() != string(p.Type) {
		r.fail(n, join(path, vocab.QuestionType), "the preset answers a %s question", p.Type)
		return q
	}
	members := append([]jsonvalue.Member(nil), q.Members()...)
	fill := func(key string, v jsonvalue.Value) {
		for i := range members {
			if members[i].Name == key {
				if members[i].Value.IsNull() {
					members[i].Value = v
				}
				return
			}
		}
		members = append(members, jsonvalue.Member{Name: key, Value: v})
	}
	fill(vocab.QuestionType, jsonvalue.String(string(p.Type)))
	fill(vocab.QuestionInstructions, jsonvalue.String(p.Instructions))
	fill(vocab.QuestionCriteria, presetCriteria(&p))
	out, _ := jsonvalue.Object(members...)
	return out
}

// presetCriteria writes a preset's canonical criteria (the IR's,
// modelcheck.PresetCriteria) in 5.0 form: a score's levels as an array,
// lowest first; any other type's keyed criteria as an object.
func presetCriteria(p *table.Preset) jsonvalue.Value {
	c := modelcheck.PresetCriteria(p)
	if c.Form == ir.CriteriaLevels {
		return jsonvalue.Array(c.Levels...)
	}
	obj, _ := jsonvalue.Object(c.Keyed...)
	return obj
}

func presetNames() []string {
	ps := catalog.Presets()
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Name
	}
	slices.Sort(out)
	return out
}
