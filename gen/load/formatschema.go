package load

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"go.yaml.in/yaml/v3"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// formatSchema is the compiled JSON Schema of one of srgen's YAML formats.
// santhosh-tekuri/jsonschema does the validating (every keyword of the
// schema's draft, the schema itself checked against its meta-schema); this
// file only turns the spec's YAML into the JSON value it validates and maps
// each error's instance location back to the YAML node, so a problem
// carries file:line:column and the dotted path.
type formatSchema struct {
	schema *jsonschema.Schema
}

// compileFormatSchema parses and compiles a JSON Schema. A schema the
// library refuses (not valid against its meta-schema, an unresolvable
// $ref, a bad pattern) is an error naming the file.
func compileFormatSchema(file string, data []byte) (*formatSchema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: not valid JSON: %w", file, err)
	}
	// The URL only names the resource to the compiler: the schema is
	// never fetched, and its local references resolve within doc.
	url := "mem:///" + file
	c := jsonschema.NewCompiler()
	if err := c.AddResource(url, doc); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	s, err := c.Compile(url)
	if err != nil {
		return nil, fmt.Errorf("%s: not a usable JSON Schema: %w", file, err)
	}
	return &formatSchema{schema: s}, nil
}

// validate checks the document node against the schema, adding one
// problem per violation at the offending node.
func (fs *formatSchema) validate(file string, root *yaml.Node, ps *Problems) {
	err := fs.schema.Validate(jsonOf(root))
	var ve *jsonschema.ValidationError
	switch {
	case err == nil:
	case errors.As(err, &ve):
		schemaReport{file: file, root: root, ps: ps}.report(ve, nil)
	default:
		ps.Add(posOf(file, root), "%v", err)
	}
}

// schemaReport writes a validation error tree as problems in srgen's
// words: "<path>: <what is wrong>" at the node the error is about.
type schemaReport struct {
	file string
	root *yaml.Node
	ps   *Problems
}

// printer renders the library's own words for an error kind this file
// does not word itself.
var printer = message.NewPrinter(language.English)

func (r schemaReport) add(n *yaml.Node, path, format string, args ...any) {
	if path == "" {
		path = "document"
	}
	r.ps.Add(posOf(r.file, n), "%s: %s", path, fmt.Sprintf(format, args...))
}

// report adds the problems of e and its causes. enclosing is the
// instance location of the nearest error above e.
func (r schemaReport) report(e *jsonschema.ValidationError, enclosing []string) {
	n, path := locate(r.root, e.InstanceLocation)
	switch k := e.ErrorKind.(type) {
	case *kind.AnyOf:
		r.anyOf(e, n, path)
	case *kind.AdditionalProperties:
		for _, name := range k.Properties {
			r.add(memberKey(n, name), pathJoin(path, name), "unknown key")
		}
	case *kind.Required:
		for _, name := range k.Missing {
			r.add(n, path, "missing required key %q", name)
		}
	case *kind.PropertyNames:
		// The causes are about the name itself: report them at the key.
		n, path = r.propertyNamesObject(enclosing, len(e.InstanceLocation), k.Property)
		key := memberKey(n, k.Property)
		for _, leaf := range leaves(e.Causes) {
			r.add(key, pathJoin(path, k.Property), "%s", words(leaf.ErrorKind, key))
		}
	default:
		if len(e.Causes) == 0 {
			r.add(n, path, "%s", words(e.ErrorKind, n))
		}
		for _, c := range e.Causes {
			r.report(c, e.InstanceLocation)
		}
	}
}

// propertyNamesObject finds the object a propertyNames error is about.
// jsonschema v6.0.3 stores that error's instance location without copying
// it, so the validation of later siblings overwrites its tokens; only its
// length holds. The enclosing error's location is copied and is a prefix
// of the true one: the object is the first mapping (in document order)
// that far below it with a key of that name.
func (r schemaReport) propertyNamesObject(enclosing []string, depth int, name string) (*yaml.Node, string) {
	n, path := locate(r.root, enclosing)
	if found, sub, ok := mappingWithKey(n, path, depth-len(enclosing), name); ok {
		return found, sub
	}
	return n, path
}

// mappingWithKey searches depth levels below n for a mapping that has key.
func mappingWithKey(n *yaml.Node, path string, depth int, key string) (*yaml.Node, string, bool) {
	if depth == 0 {
		return n, path, n.Kind == yaml.MappingNode && memberKey(n, key) != n
	}
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			if found, sub, ok := mappingWithKey(n.Content[i+1], pathJoin(path, n.Content[i].Value), depth-1, key); ok {
				return found, sub, true
			}
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			if found, sub, ok := mappingWithKey(c, pathJoin(path, i), depth-1, key); ok {
				return found, sub, true
			}
		}
	}
	return nil, "", false
}

// anyOf reports the errors of the first alternative that fits the node's
// type (its errors are not just a type mismatch at the node itself), or
// that no alternative's type fits.
func (r schemaReport) anyOf(e *jsonschema.ValidationError, n *yaml.Node, path string) {
	for _, alt := range e.Causes {
		ls := leaves([]*jsonschema.ValidationError{alt})
		if len(ls) == 1 && isTypeError(ls[0]) && slices.Equal(ls[0].InstanceLocation, e.InstanceLocation) {
			continue
		}
		r.report(alt, e.InstanceLocation)
		return
	}
	r.add(n, path, "has the wrong type (%s)", nodeKind(n))
}

func isTypeError(e *jsonschema.ValidationError) bool {
	_, ok := e.ErrorKind.(*kind.Type)
	return ok
}

// leaves are the errors without causes under es, in order.
func leaves(es []*jsonschema.ValidationError) []*jsonschema.ValidationError {
	var out []*jsonschema.ValidationError
	for _, e := range es {
		if len(e.Causes) == 0 {
			out = append(out, e)
			continue
		}
		out = append(out, leaves(e.Causes)...)
	}
	return out
}

// words says what is wrong with node n for one error kind, in the words
// srgen's loader has always used; a kind the specs' schemas do not use
// keeps the library's words.
func words(k jsonschema.ErrorKind, n *yaml.Node) string {
	switch k := k.(type) {
	case *kind.Type:
		return fmt.Sprintf("must be %s, not %s", strings.Join(nullLast(k.Want), " or "), nodeKind(n))
	case *kind.Const:
		return fmt.Sprintf("must be %v", k.Want)
	case *kind.Enum:
		return "must be one of " + joinValues(k.Want)
	case *kind.Pattern:
		return "does not match the pattern " + k.Want
	case *kind.MinLength:
		return fmt.Sprintf("must have at least %d characters", k.Want)
	case *kind.Minimum:
		f, _ := k.Want.Float64()
		return fmt.Sprintf("must be at least %v", f)
	case *kind.Maximum:
		f, _ := k.Want.Float64()
		return fmt.Sprintf("must be at most %v", f)
	case *kind.MinProperties:
		return fmt.Sprintf("must have at least %d members", k.Want)
	case *kind.MinItems:
		return fmt.Sprintf("must have at least %d items", k.Want)
	}
	return k.LocalizedString(printer)
}

func joinValues(vs []any) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = fmt.Sprint(v)
	}
	return strings.Join(parts, ", ")
}

// nullLast orders a type list as the specs' schemas write it: the library
// lists types in a fixed order that starts with null, the schemas name the
// type first and null after it.
func nullLast(types []string) []string {
	out := make([]string, 0, len(types))
	null := false
	for _, t := range types {
		if t == "null" {
			null = true
			continue
		}
		out = append(out, t)
	}
	if null {
		out = append(out, "null")
	}
	return out
}
