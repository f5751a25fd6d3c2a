package routerconfig

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
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
