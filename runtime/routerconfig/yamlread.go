package routerconfig

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// reader walks a yaml.v3 node tree strictly and records every problem
// with the node's line and column, so one load reports all of them.
type reader struct {
	file     string
	problems []Problem
	// warnings are what the configuration should change but may keep:
	// they do not refuse the load.
	warnings []Problem
}

// fail records a problem at node n (nil: no position).
func (r *reader) fail(n *yaml.Node, path, format string, args ...any) {
	p := Problem{File: r.file, Path: path, Message: fmt.Sprintf(format, args...)}
	if n != nil {
		p.Line, p.Column = n.Line, n.Column
	}
	r.problems = append(r.problems, p)
}

type entry struct {
	Key   string
	KeyAt *yaml.Node
	Value *yaml.Node
}

// resolve follows an alias to the node it names.
func resolve(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

// kindName says what a node is, for wrong-type messages.
func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!null":
			return "null"
		case "!!int", "!!float":
			return "a number"
		case "!!bool":
			return "a boolean"
		}
		return "a string"
	}
	return "a document"
}

// mapping returns a mapping's entries in order; a duplicate key, a key
// that is not a string and a value that is not a mapping are problems.
// A null value reads as an empty mapping when nullOK.
func (r *reader) mapping(n *yaml.Node, path string, nullOK bool) ([]entry, bool) {
	n = resolve(n)
	if nullOK && isNull(n) {
		return nil, true
	}
	if n.Kind != yaml.MappingNode {
		r.fail(n, path, "must be a mapping, not %s", kindName(n))
		return nil, false
	}
	var out []entry
	seen := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := resolve(n.Content[i]), n.Content[i+1]
		if k.Kind != yaml.ScalarNode || k.Tag == "!!merge" {
			r.fail(k, path, "keys must be plain strings (no merge keys)")
			continue
		}
		if first, dup := seen[k.Value]; dup {
			r.fail(k, join(path, k.Value), "duplicate key (first at line %d)", first.Line)
			continue
		}
		seen[k.Value] = k
		out = append(out, entry{Key: k.Value, KeyAt: k, Value: resolve(v)})
	}
	return out, true
}

// section is a mapping with fixed keys, as fields read it: its entries
// by key, under its key path.
type section struct {
	r    *reader
	node *yaml.Node
	path string
	m    map[string]entry
}

// fields reads a mapping whose keys are fixed: an unknown key is a problem
// listing the known ones. removed maps a key that no longer exists to what
// replaces it. ok is false when n is not a mapping.
func (r *reader) fields(n *yaml.Node, path string, known []string, removed map[string]string) (section, bool) {
	entries, ok := r.mapping(n, path, false)
	if !ok {
		return section{}, false
	}
	s := section{r: r, node: n, path: path, m: map[string]entry{}}
	for _, e := range entries {
		if why, ok := removed[e.Key]; ok {
			r.fail(e.KeyAt, join(path, e.Key), "%s", why)
			continue
		}
		if !slices.Contains(known, e.Key) {
			r.fail(e.KeyAt, join(path, e.Key), "unknown key; allowed: %s", strings.Join(slices.Sorted(slices.Values(known)), ", "))
			continue
		}
		s.m[e.Key] = e
	}
	return s, true
}

// require records a problem for each required key that is absent.
func (s section) require(keys ...string) bool {
	ok := true
	for _, k := range keys {
		if _, has := s.m[k]; !has {
			s.r.fail(s.node, s.path, "missing required key %s", k)
			ok = false
		}
	}
	return ok
}

func (s section) value(key string) (*yaml.Node, bool) {
	e, ok := s.m[key]
	return e.Value, ok
}

func (s section) at(key string) string { return join(s.path, key) }

// fail records a problem at key's value, which is present.
func (s section) fail(key, format string, args ...any) {
	s.r.fail(s.m[key].Value, join(s.path, key), format, args...)
}

// warn records a warning at key's value, which is present.
func (s section) warn(key, format string, args ...any) {
	n := s.m[key].Value
	s.r.warnings = append(s.r.warnings, Problem{File: s.r.file, Line: n.Line, Column: n.Column,
		Path: join(s.path, key), Message: fmt.Sprintf(format, args...)})
}

// str reads key as a non-empty string; false when absent or not one.
func (s section) str(key string) (string, bool) {
	n, ok := s.value(key)
	if !ok {
		return "", false
	}
	return s.r.str(n, s.at(key))
}

// oneOf reads key as a string that must be one of values (a wrong one is
// returned too, after the problem is recorded).
func (s section) oneOf(key string, values []string) (string, bool) {
	v, ok := s.str(key)
	if ok && !slices.Contains(values, v) {
		s.fail(key, "must be one of %s", strings.Join(values, ", "))
	}
	return v, ok
}

func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.Tag == "!!null" }

// str reads a non-empty string scalar.
func (r *reader) str(n *yaml.Node, path string) (string, bool) {
	n = resolve(n)
	if n.Kind != yaml.ScalarNode || n.Tag != "!!str" {
		r.fail(n, path, "must be a string, not %s", kindName(n))
		return "", false
	}
	if n.Value == "" {
		r.fail(n, path, "must not be empty")
		return "", false
	}
	return n.Value, true
}

// integer reads an integer scalar within [min, max].
func (r *reader) integer(n *yaml.Node, path string, min, max int64) (int64, bool) {
	n = resolve(n)
	var v int64
	if n.Kind != yaml.ScalarNode || n.Tag != "!!int" || n.Decode(&v) != nil {
		r.fail(n, path, "must be an integer, not %s", kindName(n))
		return 0, false
	}
	if v < min || v > max {
		r.fail(n, path, "must be between %d and %d", min, max)
		return 0, false
	}
	return v, true
}

// number reads an integer or float scalar that is finite.
func (r *reader) number(n *yaml.Node, path string) (float64, bool) {
	n = resolve(n)
	var v float64
	if n.Kind != yaml.ScalarNode || (n.Tag != "!!int" && n.Tag != "!!float") || n.Decode(&v) != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		r.fail(n, path, "must be a finite number, not %s", kindName(n))
		return 0, false
	}
	return v, true
}

// strList reads a list of distinct non-empty strings, with each item's node.
func (r *reader) strList(n *yaml.Node, path string) ([]string, []*yaml.Node, bool) {
	n = resolve(n)
	if n.Kind != yaml.SequenceNode {
		r.fail(n, path, "must be a list of strings, not %s", kindName(n))
		return nil, nil, false
	}
	var out []string
	var at []*yaml.Node
	ok := true
	for i, item := range n.Content {
		p := fmt.Sprintf("%s[%d]", path, i)
		s, good := r.str(item, p)
		switch {
		case !good:
			ok = false
		case slices.Contains(out, s):
			r.fail(item, p, "is listed twice")
			ok = false
		default:
			out = append(out, s)
			at = append(at, resolve(item))
		}
	}
	return out, at, ok
}

// items reads a list of distinct strings with strList, refusing an empty
// one with the problem empty, and calls each with every item, its node
// and its key path.
func (r *reader) items(n *yaml.Node, path, empty string, each func(item string, at *yaml.Node, path string)) ([]string, bool) {
	list, at, ok := r.strList(n, path)
	if !ok {
		return nil, false
	}
	if len(list) == 0 {
		r.fail(n, path, "%s", empty)
	}
	for i, item := range list {
		each(item, at[i], fmt.Sprintf("%s[%d]", path, i))
	}
	return list, true
}

// join is path with key appended, dot-separated. A key that has to be
// escaped to be printed (a control character, a quote) is quoted, so a
// problem's location stays on one line.
func join(path, key string) string {
	if q := strconv.Quote(key); q[1:len(q)-1] != key {
		key = q
	}
	if path == "" {
		return key
	}
	return path + "." + key
}

// dump writes n as block YAML indented by two spaces, lines never
// wrapped; compactSeq writes a list under a key at the key's indent.
func dump(n *yaml.Node, compactSeq bool) ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if compactSeq {
		enc.CompactSeqIndent()
	}
	if err := enc.Encode(n); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
