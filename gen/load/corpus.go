package load

import (
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
	Path string `yaml:"-"`
	// ExtraForms are 4.0 forms the file's cases may name besides the
	// extension spec's removed forms.
	ExtraForms []CorpusForm `yaml:"extra_forms"`
	Cases      []CorpusCase `yaml:"cases"`
}

// CorpusForm is a form a corpus file declares.
type CorpusForm struct {
	Name        string   `yaml:"name"`
	Description string   `yaml:"description"`
	Pos         Position `yaml:"-"`
}

// CorpusCase is one case as written; gen/model checks its references.
type CorpusCase struct {
	Name        string `yaml:"name"`
	Kind        string `yaml:"kind"`
	Family      string `yaml:"family"`
	Form        string `yaml:"form"`
	Endpoint    string `yaml:"endpoint"`
	Description string `yaml:"description"`
	// Body is the request body, with member order and number literals as
	// written in the YAML.
	Body jsonvalue.Value `yaml:"-"`
	Pos  Position        `yaml:"-"`
}

// CorpusGlob matches the corpus files, relative to the repository root.
const CorpusGlob = "specs/corpus/*.yaml"

// CorpusSchema is the JSON Schema of the corpus format.
const CorpusSchema = "specs/corpus.schema.json"

// LoadCorpus reads every file matching CorpusGlob in fsys, in path order,
// validating each against CorpusSchema before it is decoded. Every problem
// in every file is reported at once.
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
		f, ok := readFile(fsys, p, &problems)
		if !ok || schema == nil {
			continue
		}
		if root := checkYAML(f, schema, &problems); root != nil {
			if cf, ok := decodeCorpus(p, root, &problems); ok {
				files = append(files, cf)
			}
		}
	}
	return files, problems.Err()
}

// ParseCorpus parses one corpus file that conforms to the corpus format
// schema (LoadCorpus checks it first), adding what is wrong with its
// bodies to problems. It reports false when the file could not be read.
func ParseCorpus(file string, data []byte, problems *Problems) (CorpusFile, bool) {
	root := parseYAML(file, data, problems)
	if root == nil {
		return CorpusFile{}, false
	}
	return decodeCorpus(file, root, problems)
}

// decodeCorpus decodes the file's tagged members and reads each case's
// body as JSON, which the format schema checks only for being an object.
func decodeCorpus(file string, root *yaml.Node, problems *Problems) (CorpusFile, bool) {
	out := CorpusFile{Path: file}
	if !decodeNode(file, root, &out, problems) {
		return CorpusFile{}, false
	}
	r := corpusReader{path: file, problems: problems}
	for i, item := range seq(member(root, "cases")) {
		c := &out.Cases[i]
		switch body := member(item, "body"); {
		case body == nil:
			r.add(item, "case %q: missing body", c.Name)
		case body.Kind != yaml.MappingNode:
			r.add(body, "case %q: body must be an object", c.Name)
		default:
			c.Body = r.value(body)
		}
	}
	return out, true
}

type corpusReader struct {
	path     string
	problems *Problems
}

func (r corpusReader) add(n *yaml.Node, format string, args ...any) {
	r.problems.Add(posOf(r.path, n), format, args...)
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
