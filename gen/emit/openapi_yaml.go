package emit

import (
	"bytes"
	"fmt"
	"strconv"

	"go.yaml.in/yaml/v3"
)

// The OpenAPI artifact's YAML: an ordered tree the builders fill in the
// order they want it read, then one encoding. No Go map is ever ranged
// over, so the same model gives the same bytes.

// ymap is a YAML mapping whose keys keep the order they were put in.
type ymap struct {
	keys []string
	vals []any
}

func newYMap() *ymap { return &ymap{} }

// put appends key with its value and returns m. A key put twice is an
// emitter bug; encode reports it rather than writing a document whose
// second value silently wins.
func (m *ymap) put(key string, val any) *ymap {
	m.keys = append(m.keys, key)
	m.vals = append(m.vals, val)
	return m
}

// putIf puts key only when ok.
func (m *ymap) putIf(ok bool, key string, val any) *ymap {
	if ok {
		m.put(key, val)
	}
	return m
}

func (m *ymap) len() int { return len(m.keys) }

// get returns the value of key, or nil.
func (m *ymap) get(key string) any {
	for i, k := range m.keys {
		if k == key {
			return m.vals[i]
		}
	}
	return nil
}

// ynum is a number as decimal text, written untagged so YAML reads it as
// an integer or a float as written.
type ynum string

// yflow is a list of strings written on one line: required lists, enums,
// type lists.
type yflow []string

// ylist is a list written one item a line.
type ylist []any

func numText(f float64) ynum { return ynum(strconv.FormatFloat(f, 'f', -1, 64)) }

// encodeYAML writes header (comment lines, each with its "# ") then the
// tree, indented by two spaces.
func encodeYAML(header []string, root *ymap) ([]byte, error) {
	node, err := yamlNode(root)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	for _, h := range header {
		b.WriteString("# " + h + "\n")
	}
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{node}}); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func scalar(tag, value string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: value}
}

// yamlNode converts one value of the tree. Strings are always tagged
// strings, so "true" or "1" as a key or an enum value stays a string.
func yamlNode(v any) (*yaml.Node, error) {
	switch v := v.(type) {
	case string:
		return scalar("!!str", v), nil
	case bool:
		return scalar("!!bool", strconv.FormatBool(v)), nil
	case int:
		return scalar("!!int", strconv.Itoa(v)), nil
	case ynum:
		n := &yaml.Node{Kind: yaml.ScalarNode, Value: string(v)}
		return n, nil
	case yflow:
		n := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
		for _, s := range v {
			n.Content = append(n.Content, scalar("!!str", s))
		}
		return n, nil
	case ylist:
		n := &yaml.Node{Kind: yaml.SequenceNode}
		if allScalars(v) {
			n.Style = yaml.FlowStyle
		}
		for _, item := range v {
			c, err := yamlNode(item)
			if err != nil {
				return nil, err
			}
			n.Content = append(n.Content, c)
		}
		return n, nil
	case *ymap:
		n := &yaml.Node{Kind: yaml.MappingNode}
		seen := map[string]bool{}
		for i, k := range v.keys {
			if seen[k] {
				return nil, fmt.Errorf("key %q written twice in one mapping", k)
			}
			seen[k] = true
			c, err := yamlNode(v.vals[i])
			if err != nil {
				return nil, fmt.Errorf("%s: %w", k, err)
			}
			n.Content = append(n.Content, scalar("!!str", k), c)
		}
		return n, nil
	}
	return nil, fmt.Errorf("no YAML for a %T", v)
}

// allScalars: a list of scalars is written on one line.
func allScalars(items ylist) bool {
	for _, item := range items {
		switch item.(type) {
		case *ymap, ylist, yflow:
			return false
		}
	}
	return true
}
