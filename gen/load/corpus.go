package load

import (
	"bytes"
	"fmt"
	"io/fs"
	"path"

	"go.yaml.in/yaml/v3"

	"github.com/vllm-sr/systemone/runtime/jsonvalue"
)

// CorpusFormat is the format line every corpus file starts with.
const CorpusFormat = "srgen-corpus/1"

// CorpusFile is one specs/corpus/*.yaml file as written.
type CorpusFile struct {
	// Path is repository-relative and slash-separated.
	Path string
	// ExtraForms are 4.0 forms the file's cases may name besides the
	// extension spec's removed forms.
	ExtraForms []CorpusForm
	Cases      []CorpusCase
}

// CorpusForm is a form a corpus file declares.
type CorpusForm struct {
	Name        string
	Description string
	Pos         Position
}

// CorpusCase is one case as written; gen/model checks its references.
type CorpusCase struct {
	Name        string
	Kind        string
	Family      string
	Form        string
	Endpoint    string
	Description string
	// Body is the request body, with member order and number literals as
	// written in the YAML.
	Body jsonvalue.Value
	Pos  Position
}

// CorpusGlob matches the corpus files, relative to the repository root.
const CorpusGlob = "specs/corpus/*.yaml"

// CorpusSchema is the JSON Schema of the corpus format.
const CorpusSchema = "specs/corpus.schema.json"

// LoadCorpus reads every file matching CorpusGlob in fsys, in path order.
// Every problem in every file is reported at once.
func LoadCorpus(fsys fs.FS) ([]CorpusFile, error) {
	paths, err := fs.Glob(fsys, CorpusGlob)
	if err != nil {
		return nil, err
	}
	var problems Problems
	schema := readFormatSchema(fsys, CorpusSchema, &problems)
	if len(paths) == 0 {
		problems.Add(Position{File: path.Dir(CorpusGlob)}, "no corpus files match %s", CorpusGlob)
	}
	var files []CorpusFile
	for _, p := range paths {
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			problems.Add(Position{File: p}, "cannot read corpus file: %v", err)
			continue
		}
		if schema != nil && !conformsTo(schema, p, data, &problems) {
			continue
		}
		if f, ok := ParseCorpus(p, data, &problems); ok {
			files = append(files, f)
		}
	}
	return files, problems.Err()
}

// conformsTo validates a corpus file against the format schema.
func conformsTo(schema *formatSchema, file string, data []byte, problems *Problems) bool {
	before := len(*problems)
	if root := parseYAML(file, data, problems); root != nil {
		schema.validate(file, root, problems)
	}
	return len(*problems) == before
}

// ParseCorpus parses one corpus file, adding what is wrong to problems. It
// reports false when the file could not be read at all.
func ParseCorpus(file string, data []byte, problems *Problems) (CorpusFile, bool) {
	var doc yaml.Node
	if err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&doc); err != nil {
		problems.Add(Position{File: file}, "not YAML: %v", err)
		return CorpusFile{}, false
	}
	r := corpusReader{path: file, problems: problems}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		problems.Add(Position{File: file}, "a corpus file is a mapping with format and cases")
		return CorpusFile{}, false
	}
	out := CorpusFile{Path: file}
	top := r.members(doc.Content[0], "format", "extra_forms", "cases")
	if format := r.text(top, doc.Content[0], "format", true); format != "" && format != CorpusFormat {
		r.add(top["format"], "format %q is not %q", format, CorpusFormat)
	}
	if n := top["extra_forms"]; n != nil {
		for _, item := range r.items(n) {
			m := r.members(item, "name", "description")
			out.ExtraForms = append(out.ExtraForms, CorpusForm{
				Name:        r.text(m, item, "name", true),
				Description: r.text(m, item, "description", true),
				Pos:         r.pos(item),
			})
		}
	}
	if n := top["cases"]; n != nil {
		for _, item := range r.items(n) {
			out.Cases = append(out.Cases, r.corpusCase(item))
		}
	} else {
		r.add(doc.Content[0], "missing cases")
	}
	return out, true
}

type corpusReader struct {
	path     string
	problems *Problems
}

func (r corpusReader) pos(n *yaml.Node) Position {
	return Position{File: r.path, Line: n.Line, Column: n.Column}
}

func (r corpusReader) add(n *yaml.Node, format string, args ...any) {
	r.problems.Add(r.pos(n), format, args...)
}

func (r corpusReader) corpusCase(item *yaml.Node) CorpusCase {
	m := r.members(item, "name", "kind", "family", "form", "endpoint", "description", "body")
	c := CorpusCase{
		Name:        r.text(m, item, "name", true),
		Kind:        r.text(m, item, "kind", true),
		Family:      r.text(m, item, "family", false),
		Form:        r.text(m, item, "form", false),
		Endpoint:    r.text(m, item, "endpoint", true),
		Description: r.text(m, item, "description", true),
		Pos:         r.pos(item),
	}
	if body := m["body"]; body == nil {
		r.add(item, "case %q: missing body", c.Name)
	} else if body.Kind != yaml.MappingNode {
		r.add(body, "case %q: body must be an object", c.Name)
	} else {
		c.Body = r.value(body)
	}
	return c
}

// members returns a mapping's members by name, reporting unknown and
// repeated names.
func (r corpusReader) members(n *yaml.Node, known ...string) map[string]*yaml.Node {
	out := map[string]*yaml.Node{}
	if n.Kind != yaml.MappingNode {
		r.add(n, "expected a mapping")
		return out
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, val := n.Content[i], n.Content[i+1]
		switch {
		case !contains(known, key.Value):
			r.add(key, "unknown member %q (known: %v)", key.Value, known)
		case out[key.Value] != nil:
			r.add(key, "member %q repeated", key.Value)
		default:
			out[key.Value] = val
		}
	}
	return out
}

func (r corpusReader) text(m map[string]*yaml.Node, parent *yaml.Node, name string, required bool) string {
	n := m[name]
	if n == nil {
		if required {
			r.add(parent, "missing %s", name)
		}
		return ""
	}
	if n.Kind != yaml.ScalarNode || n.Tag != "!!str" || n.Value == "" {
		r.add(n, "%s must be a non-empty string", name)
		return ""
	}
	return n.Value
}

func (r corpusReader) items(n *yaml.Node) []*yaml.Node {
	if n.Kind != yaml.SequenceNode {
		r.add(n, "expected a sequence")
		return nil
	}
	return n.Content
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// value converts a YAML node to JSON by its resolved tag: member order is
// kept, and a number keeps its literal, which must be a JSON number (so
// 1.0 stays 1.0, and 0x1F or .inf are refused rather than rewritten).
func (r corpusReader) value(n *yaml.Node) jsonvalue.Value {
	switch n.Kind {
	case yaml.MappingNode:
		return r.object(n)
	case yaml.SequenceNode:
		items := make([]jsonvalue.Value, 0, len(n.Content))
		for _, item := range n.Content {
			items = append(items, r.value(item))
		}
		return jsonvalue.Array(items...)
	case yaml.ScalarNode:
		return r.scalar(n)
	}
	r.add(n, "aliases and anchors are not allowed in a body; write the value out")
	return jsonvalue.Null()
}

func (r corpusReader) object(n *yaml.Node) jsonvalue.Value {
	members := make([]jsonvalue.Member, 0, len(n.Content)/2)
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, val := n.Content[i], n.Content[i+1]
		if key.Kind != yaml.ScalarNode || key.Tag != "!!str" {
			r.add(key, "member name %q is not a string in YAML; quote it", key.Value)
			continue
		}
		if seen[key.Value] {
			r.add(key, "member %q repeated", key.Value)
			continue
		}
		seen[key.Value] = true
		members = append(members, jsonvalue.Member{Name: key.Value, Value: r.value(val)})
	}
	obj, ok := jsonvalue.Object(members...)
	if !ok {
		r.add(n, "object cannot be built")
		return jsonvalue.Null()
	}
	return obj
}

func (r corpusReader) scalar(n *yaml.Node) jsonvalue.Value {
	switch n.Tag {
	case "!!str":
		return jsonvalue.String(n.Value)
	case "!!null":
		return jsonvalue.Null()
	case "!!bool":
		switch n.Value {
		case "true":
			return jsonvalue.Bool(true)
		case "false":
			return jsonvalue.Bool(false)
		}
		r.add(n, "boolean %q must be written true or false", n.Value)
	case "!!int", "!!float":
		if v, ok := jsonvalue.Number(n.Value); ok {
			return v
		}
		r.add(n, "number %q is not a JSON number literal", n.Value)
	default:
		r.add(n, "%s", fmt.Sprintf("scalar of tag %s cannot be JSON", n.Tag))
	}
	return jsonvalue.Null()
}
