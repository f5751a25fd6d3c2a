package load

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// formatSchema is a JSON Schema of one of srgen's YAML formats. It supports
// the subset the two .schema.json files use; any other keyword is refused
// when the schema is compiled, so a schema never silently checks less than
// it says.
type formatSchema struct {
	file string
	root map[string]any
}

// supportedKeywords are the JSON Schema keywords the validator applies;
// annotations are accepted and ignored.
var supportedKeywords = map[string]bool{
	"$ref": true, "anyOf": true, "type": true, "const": true, "enum": true,
	"pattern": true, "minLength": true, "minimum": true, "maximum": true,
	"properties": true, "required": true, "additionalProperties": true,
	"propertyNames": true, "minProperties": true, "items": true, "minItems": true,
	"$schema": true, "$id": true, "$defs": true, "title": true, "description": true,
}

// compileFormatSchema parses a JSON Schema and checks it uses only
// supported keywords and resolvable references.
func compileFormatSchema(file string, data []byte) (*formatSchema, error) {
	var root map[string]any
	if err := json.Unmarshal(data, &root); err != nil {
		return nil, fmt.Errorf("%s: not valid JSON: %w", file, err)
	}
	fs := &formatSchema{file: file, root: root}
	var ps Problems
	fs.checkKeywords(root, "#", &ps)
	return fs, ps.Err()
}

func (fs *formatSchema) checkKeywords(s map[string]any, at string, ps *Problems) {
	for _, k := range sortedKeys(s) {
		if !supportedKeywords[k] {
			ps.Add(Position{File: fs.file}, "%s: unsupported JSON Schema keyword %q", at, k)
		}
	}
	if p, ok := s["pattern"].(string); ok {
		if _, err := regexp.Compile(p); err != nil {
			ps.Add(Position{File: fs.file}, "%s: bad pattern: %v", at, err)
		}
	}
	if ref, ok := s["$ref"].(string); ok {
		if fs.resolve(ref) == nil {
			ps.Add(Position{File: fs.file}, "%s: unresolvable $ref %q", at, ref)
		}
	}
	for _, k := range []string{"items", "additionalProperties", "propertyNames"} {
		if sub, ok := s[k].(map[string]any); ok {
			fs.checkKeywords(sub, at+"/"+k, ps)
		}
	}
	for _, k := range []string{"properties", "$defs"} {
		if m, ok := s[k].(map[string]any); ok {
			for _, name := range sortedKeys(m) {
				if sub, ok := m[name].(map[string]any); ok {
					fs.checkKeywords(sub, at+"/"+k+"/"+name, ps)
				}
			}
		}
	}
	if list, ok := s["anyOf"].([]any); ok {
		for i, item := range list {
			if sub, ok := item.(map[string]any); ok {
				fs.checkKeywords(sub, fmt.Sprintf("%s/anyOf/%d", at, i), ps)
			}
		}
	}
}

// resolve returns the schema a local reference ("#/$defs/x") names.
func (fs *formatSchema) resolve(ref string) map[string]any {
	const prefix = "#/$defs/"
	if !strings.HasPrefix(ref, prefix) {
		return nil
	}
	defs, _ := fs.root["$defs"].(map[string]any)
	s, _ := defs[strings.TrimPrefix(ref, prefix)].(map[string]any)
	return s
}

// validate checks the document node against the schema, adding one
// problem per violation at the offending node.
func (fs *formatSchema) validate(file string, n *yaml.Node, ps *Problems) {
	v := validation{fs: fs, file: file, ps: ps}
	v.node(fs.root, n, "")
}

type validation struct {
	fs   *formatSchema
	file string
	ps   *Problems
}

func (v validation) fail(n *yaml.Node, path, format string, args ...any) {
	where := path
	if where == "" {
		where = "document"
	}
	v.ps.Add(posOf(v.file, n), "%s: %s", where, fmt.Sprintf(format, args...))
}

func (v validation) node(s map[string]any, n *yaml.Node, path string) {
	if ref, ok := s["$ref"].(string); ok {
		s = v.fs.resolve(ref)
	}
	if alts, ok := s["anyOf"].([]any); ok {
		v.anyOf(alts, n, path)
		return
	}
	if !v.typeMatches(s, n, path) {
		return
	}
	v.value(s, n, path)
	switch n.Kind {
	case yaml.MappingNode:
		v.object(s, n, path)
	case yaml.SequenceNode:
		v.array(s, n, path)
	}
}

// anyOf passes when one alternative has no problems; otherwise it reports
// the problems of the first alternative whose type fits the node.
func (v validation) anyOf(alts []any, n *yaml.Node, path string) {
	var first Problems
	fitted := false
	for _, a := range alts {
		sub, _ := a.(map[string]any)
		var local Problems
		validation{fs: v.fs, file: v.file, ps: &local}.node(sub, n, path)
		if len(local) == 0 {
			return
		}
		if !fitted && !typeMismatchOnly(local, n) {
			first, fitted = local, true
		}
	}
	if fitted {
		*v.ps = append(*v.ps, first...)
		return
	}
	v.fail(n, path, "has the wrong type (%s)", nodeKind(n))
}

func typeMismatchOnly(ps Problems, n *yaml.Node) bool {
	return len(ps) == 1 && ps[0].Pos.Line == n.Line && ps[0].Pos.Column == n.Column &&
		strings.Contains(ps[0].Msg, "must be ")
}

func (v validation) typeMatches(s map[string]any, n *yaml.Node, path string) bool {
	want := typeList(s["type"])
	if len(want) == 0 {
		return true
	}
	got := nodeKind(n)
	for _, w := range want {
		if w == got || (w == "number" && got == "integer") {
			return true
		}
	}
	v.fail(n, path, "must be %s, not %s", strings.Join(want, " or "), got)
	return false
}

func typeList(t any) []string {
	switch t := t.(type) {
	case string:
		return []string{t}
	case []any:
		out := make([]string, 0, len(t))
		for _, x := range t {
			out = append(out, fmt.Sprint(x))
		}
		return out
	}
	return nil
}

// value applies the scalar keywords.
func (v validation) value(s map[string]any, n *yaml.Node, path string) {
	if c, ok := s["const"]; ok && !scalarEquals(n, c) {
		v.fail(n, path, "must be %v", c)
	}
	if e, ok := s["enum"].([]any); ok && !inEnum(n, e) {
		v.fail(n, path, "must be one of %s", enumText(e))
	}
	if n.Kind != yaml.ScalarNode {
		return
	}
	if p, ok := s["pattern"].(string); ok && nodeKind(n) == "string" {
		if !regexp.MustCompile(p).MatchString(n.Value) {
			v.fail(n, path, "does not match the pattern %s", p)
		}
	}
	if m, ok := s["minLength"].(float64); ok && nodeKind(n) == "string" && float64(len([]rune(n.Value))) < m {
		v.fail(n, path, "must have at least %v characters", m)
	}
	f, err := strconv.ParseFloat(n.Value, 64)
	numeric := err == nil && (nodeKind(n) == "integer" || nodeKind(n) == "number")
	if m, ok := s["minimum"].(float64); ok && numeric && f < m {
		v.fail(n, path, "must be at least %v", m)
	}
	if m, ok := s["maximum"].(float64); ok && numeric && f > m {
		v.fail(n, path, "must be at most %v", m)
	}
}

func (v validation) object(s map[string]any, n *yaml.Node, path string) {
	props, _ := s["properties"].(map[string]any)
	if m, ok := s["minProperties"].(float64); ok && float64(len(n.Content)/2) < m {
		v.fail(n, path, "must have at least %v members", m)
	}
	present := map[string]bool{}
	pairs(n, func(k, val *yaml.Node) {
		present[k.Value] = true
		sub := pathJoin(path, k.Value)
		if pn, ok := s["propertyNames"].(map[string]any); ok {
			v.node(pn, k, sub)
		}
		if ps, ok := props[k.Value].(map[string]any); ok {
			v.node(ps, val, sub)
			return
		}
		switch ap := s["additionalProperties"].(type) {
		case bool:
			if !ap {
				v.fail(k, sub, "unknown key")
			}
		case map[string]any:
			v.node(ap, val, sub)
		}
	})
	req, _ := s["required"].([]any)
	for _, r := range req {
		if name := fmt.Sprint(r); !present[name] {
			v.fail(n, path, "missing required key %q", name)
		}
	}
}

func (v validation) array(s map[string]any, n *yaml.Node, path string) {
	if m, ok := s["minItems"].(float64); ok && float64(len(n.Content)) < m {
		v.fail(n, path, "must have at least %v items", m)
	}
	items, ok := s["items"].(map[string]any)
	if !ok {
		return
	}
	for i, c := range n.Content {
		v.node(items, c, pathJoin(path, i))
	}
}

func scalarEquals(n *yaml.Node, want any) bool {
	if n.Kind != yaml.ScalarNode {
		return false
	}
	switch w := want.(type) {
	case string:
		return nodeKind(n) == "string" && n.Value == w
	case float64:
		f, err := strconv.ParseFloat(n.Value, 64)
		return err == nil && nodeKind(n) != "string" && math.Abs(f-w) == 0
	case bool:
		return nodeKind(n) == "boolean" && scalarBool(n) == w
	}
	return false
}

func inEnum(n *yaml.Node, e []any) bool {
	for _, x := range e {
		if scalarEquals(n, x) {
			return true
		}
	}
	return false
}

func enumText(e []any) string {
	parts := make([]string, len(e))
	for i, x := range e {
		parts[i] = fmt.Sprint(x)
	}
	return strings.Join(parts, ", ")
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
