package routerconfig

import (
	"cmp"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	yaml "go.yaml.in/yaml/v3"
)

// Placing a schema's errors: each at the node of the configuration it is
// about, with the key path and, where the loader has words for the same
// mistake, the loader's words, so a schema error reads like a loader
// problem and lands where the loader would put it.

// schemaError records one leaf error of the schema at its node, in the
// loader's words where the loader has words for it.
func (r *reader) schemaError(s *Schema, root *yaml.Node, e *jsonschema.ValidationError) {
	n, path := locate(root, e.InstanceLocation)
	switch k := e.ErrorKind.(type) {
	case *kind.Not:
		if r.notGiven(s, n, path, e.SchemaURL) {
			return
		}
		r.fail(n, path, "%s", e.ErrorKind.LocalizedString(schemaPrinter))
	case *kind.Required:
		// A key an if/then requires is placed at the key the if reads,
		// as the loader places it (rules.x: at its action).
		if parent, ok := strings.CutSuffix(e.SchemaURL, "/then"); ok {
			if when, value, ok := ifKey(s.at(parent)); ok {
				if kn := keyNode(n, when); kn != nil {
					for _, key := range k.Missing {
						r.fail(valueOf(resolve(n), kn), path, "missing required key %s: %s is %v", key, when, value)
					}
					return
				}
			}
		}
		for _, key := range k.Missing {
			r.fail(n, path, "missing required key %s", key)
		}
	case *kind.AdditionalProperties:
		for _, key := range k.Properties {
			at := n
			if kn := keyNode(n, key); kn != nil {
				at = kn
			}
			r.fail(at, join(path, key), "unknown key; the schema allows no such key")
		}
	case *kind.UniqueItems:
		item, itemPath := locate(n, []string{strconv.Itoa(k.Duplicates[1])})
		r.fail(item, path+itemPath, "is listed twice")
	case *kind.Type:
		r.fail(n, path, "must be %s, not %s", jsonTypes(k.Want), jsonTypes([]string{k.Got}))
	case *kind.Minimum:
		r.fail(n, path, "must be at least %s", ratText(k.Want))
	case *kind.Maximum:
		r.fail(n, path, "must be at most %s", ratText(k.Want))
	case *kind.Enum:
		words := make([]string, len(k.Want))
		for i, w := range k.Want {
			words[i] = fmt.Sprint(w)
		}
		r.fail(n, path, "must be one of %s", strings.Join(words, ", "))
	case *kind.Pattern:
		r.fail(n, path, "must match %s", k.Want)
	default:
		r.fail(n, path, "%s", e.ErrorKind.LocalizedString(schemaPrinter))
	}
}

// notGiven places a "not: {required: [...]}" error as the loader places
// the same mistake: one key not allowed (an else of an if: route without
// action route) at that key; keys not given together (api_key_env and
// api_key_file) at the last one's value. false when the not is of
// another form.
func (r *reader) notGiven(s *Schema, n *yaml.Node, path, url string) bool {
	not, _ := s.at(url)["not"].(map[string]any)
	if len(not) != 1 {
		return false
	}
	req, _ := not["required"].([]any)
	var keys []string
	for _, k := range req {
		if key, ok := k.(string); ok && keyNode(n, key) != nil {
			keys = append(keys, key)
		}
	}
	switch {
	case len(keys) == 0 || len(keys) != len(req):
		return false
	case len(keys) == 1:
		msg := "is not allowed here"
		if parent, ok := strings.CutSuffix(url, "/else"); ok {
			if when, value, ok := ifKey(s.at(parent)); ok {
				msg = fmt.Sprintf("is allowed only when %s is %v", when, value)
			}
		}
		r.fail(keyNode(n, keys[0]), join(path, keys[0]), "%s", msg)
	default:
		last := keys[len(keys)-1]
		r.fail(valueOf(resolve(n), keyNode(n, last)), join(path, last), "is not given with %s", strings.Join(keys[:len(keys)-1], ", "))
	}
	return true
}

// ifKey reads an if of the form {properties: {KEY: {const: VALUE}}}.
func ifKey(parent map[string]any) (string, any, bool) {
	cond, _ := parent["if"].(map[string]any)
	props, _ := cond["properties"].(map[string]any)
	if len(props) != 1 {
		return "", nil, false
	}
	for key, p := range props {
		if c, ok := p.(map[string]any)["const"]; ok {
			return key, c, true
		}
	}
	return "", nil, false
}

// jsonTypes names JSON types as the loader names YAML kinds.
func jsonTypes(types []string) string {
	names := map[string]string{"object": "a mapping", //vocab:not-spec JSON Schema's type names "array": "a list", "string": "a string", "integer": "an integer",
		"number": "a number", "boolean": "true or false", "null": "null"}
	out := make([]string, len(types))
	for i, t := range types {
		out[i] = cmp.Or(names[t], t)
	}
	return strings.Join(out, " or ")
}

// ratText is a bound as written: 3600000, 0.5.
func ratText(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	return strings.TrimRight(r.FloatString(9), "0")
}

// locate follows a JSON pointer's tokens from root and returns the node
// they reach (the deepest one found) and its key path, as the loader
// spells it (listeners[0].apis.systemone).
func locate(root *yaml.Node, tokens []string) (*yaml.Node, string) {
	n, path := root, ""
	for _, tok := range tokens {
		n = resolve(n)
		switch n.Kind {
		case yaml.MappingNode:
			k := keyNode(n, tok)
			if k == nil {
				return n, join(path, tok)
			}
			n, path = valueOf(n, k), join(path, tok)
		case yaml.SequenceNode:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(n.Content) {
				return n, path
			}
			n, path = n.Content[i], fmt.Sprintf("%s[%d]", path, i)
		default:
			return n, path
		}
	}
	return resolve(n), path
}

// keyNode is the first key node of mapping n spelled key; nil for none.
func keyNode(n *yaml.Node, key string) *yaml.Node {
	n = resolve(n)
	if n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := resolve(n.Content[i]); k.Value == key {
			return k
		}
	}
	return nil
}

func valueOf(n, key *yaml.Node) *yaml.Node {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if resolve(n.Content[i]) == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// nodeValue is a YAML node as the JSON value a schema checks: a mapping's
// first value for a key it repeats (the loader refuses the repeat
// itself), aliases followed (one that holds itself is null there), a
// scalar by its resolved tag.
func nodeValue(n *yaml.Node) any { return valueIn(n, map[*yaml.Node]bool{}) }

func valueIn(n *yaml.Node, open map[*yaml.Node]bool) any {
	n = resolve(n)
	if open[n] {
		return nil
	}
	open[n] = true
	defer delete(open, n)
	switch n.Kind {
	case yaml.MappingNode:
		m := map[string]any{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := resolve(n.Content[i]).Value
			if _, dup := m[k]; !dup {
				m[k] = valueIn(n.Content[i+1], open)
			}
		}
		return m
	case yaml.SequenceNode:
		out := []any{}
		for _, c := range n.Content {
			out = append(out, valueIn(c, open))
		}
		return out
	}
	var v any
	switch n.Tag {
	case "!!null":
		return nil
	case "!!bool", "!!int", "!!float":
		// A number JSON cannot hold (.inf, .nan) stays its text.
		if n.Decode(&v) == nil {
			if f, isFloat := v.(float64); !isFloat || !math.IsInf(f, 0) && !math.IsNaN(f) {
				return v
			}
		}
	}
	return n.Value
}

// propertyNamesText says which keys a mapping allows, from the
// propertyNames schema's enum when it has one.
func propertyNamesText(s *Schema, e *jsonschema.ValidationError) string {
	names, _ := s.at(e.SchemaURL)["propertyNames"].(map[string]any)
	if enum, ok := names["enum"].([]any); ok {
		words := make([]string, len(enum))
		for i, w := range enum {
			words[i] = fmt.Sprint(w)
		}
		return "unknown key; allowed: " + strings.Join(words, ", ")
	}
	return "unknown key; " + e.ErrorKind.LocalizedString(schemaPrinter)
}
