package routerconfig

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	yaml "go.yaml.in/yaml/v4"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// Schema is a JSON Schema a configuration is checked against besides the
// loader's own checks: router.yaml's published schema
// (docs/reference/router-config.schema.json), or a deployment's own that
// narrows it (a policy: every upstream has a key, every endpoint is
// https), compiled with santhosh-tekuri/jsonschema.
type Schema struct {
	schema *jsonschema.Schema
	// docs are the schema documents compiled, by URL: an error's schema
	// location is looked up in them to place it as the loader would.
	docs map[string]any
}

// CompileSchema compiles the JSON Schema at path; a $ref to a file
// beside it resolves.
func CompileSchema(path string) (*Schema, error) {
	docs := map[string]any{}
	c := jsonschema.NewCompiler()
	c.UseLoader(recordingLoader(docs))
	s, err := c.Compile(path)
	if err != nil {
		return nil, fmt.Errorf("schema %s: %w", path, err)
	}
	return &Schema{schema: s, docs: docs}, nil
}

// recordingLoader loads schema files and keeps each document by URL.
type recordingLoader map[string]any

func (l recordingLoader) Load(url string) (any, error) {
	doc, err := jsonschema.FileLoader{}.Load(url)
	if err == nil {
		l[url] = doc
	}
	return doc, err
}

// at returns the schema at url (document#pointer), nil if not found.
func (s *Schema) at(url string) map[string]any {
	doc, frag, _ := strings.Cut(url, "#")
	v := s.docs[doc]
	for _, tok := range strings.Split(strings.TrimPrefix(frag, "/"), "/") {
		if tok == "" {
			continue
		}
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch c := v.(type) {
		case map[string]any:
			v = c[tok]
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(c) {
				return nil
			}
			v = c[i]
		default:
			return nil
		}
	}
	m, _ := v.(map[string]any)
	return m
}

var schemaPrinter = message.NewPrinter(language.English)

// Problems validates data, the configuration read from file, and returns
// each error the schema finds as a Problem at the line and column of the
// value it is about (of the key, for a key the schema does not allow;
// of the mapping, for a key it misses), sorted by position. YAML the
// loader cannot parse is one problem; the loader reports it the same way.
func (s *Schema) Problems(file string, data []byte) []Problem {
	r := &reader{file: file}
	root := parse(r, data)
	if root == nil {
		return r.problems
	}
	raw, err := json.Marshal(nodeValue(root))
	if err == nil {
		var v any
		if v, err = jsonschema.UnmarshalJSON(bytes.NewReader(raw)); err == nil {
			err = s.schema.Validate(v)
		}
	}
	var ve *jsonschema.ValidationError
	switch {
	case err == nil:
		return nil
	case !errors.As(err, &ve):
		r.fail(root, "", "%v", err)
		return r.problems
	}
	var walk func(e *jsonschema.ValidationError, parent []string)
	walk = func(e *jsonschema.ValidationError, parent []string) {
		if k, ok := e.ErrorKind.(*kind.PropertyNames); ok {
			// A key the mapping may not have: at the key, as the loader
			// places it, whatever the name's own schema says. The
			// mapping is where the enclosing error is: jsonschema v6.0.3
			// gives a propertyNames error another value's location.
			n, path := locate(root, parent)
			r.fail(cmp.Or(keyNode(n, k.Property), n), join(path, k.Property), "%s", propertyNamesText(s, e))
			return
		}
		if len(e.Causes) == 0 {
			r.schemaError(s, root, e)
		}
		for _, c := range e.Causes {
			walk(c, e.InstanceLocation)
		}
	}
	walk(ve, nil)
	slices.SortStableFunc(r.problems, func(a, b Problem) int {
		return cmp.Or(a.Line-b.Line, a.Column-b.Column, strings.Compare(a.Message, b.Message))
	})
	return slices.CompactFunc(r.problems, func(a, b Problem) bool { return a == b })
}

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

// MergeProblems adds to the loader's problems the schema's that the
// loader does not report at the same place (SamePlace), sorted by
// position: checked against router.yaml's own schema, nothing is
// reported twice; against a narrower one, its own rules are added.
func MergeProblems(loaded, schema []Problem) []Problem {
	out := slices.Clone(loaded)
	for _, p := range schema {
		if !slices.ContainsFunc(loaded, func(l Problem) bool { return SamePlace(l, p) }) {
			out = append(out, p)
		}
	}
	slices.SortStableFunc(out, func(a, b Problem) int { return cmp.Or(a.Line-b.Line, a.Column-b.Column) })
	return out
}

// SamePlace reports whether two problems are about the same mistake: on
// one line, at one column (a list's item, which the loader may name by
// the list) or at one key path (a key and its value).
func SamePlace(a, b Problem) bool {
	return a.Line == b.Line && (a.Column == b.Column || a.Path == b.Path)
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
