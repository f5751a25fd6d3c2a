package load

import (
	"fmt"
	"strconv"

	"go.yaml.in/yaml/v3"
)

// parseYAML parses one YAML document into its root node, and reports
// duplicate mapping keys and aliases, which yaml.v3 leaves to decoding.
func parseYAML(file string, data []byte, ps *Problems) *yaml.Node {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		ps.Add(Position{File: file}, "not valid YAML: %v", err)
		return nil
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		ps.Add(Position{File: file}, "expected exactly one YAML document")
		return nil
	}
	checkNodes(file, doc.Content[0], ps)
	return doc.Content[0]
}

// checkNodes reports duplicate keys and aliases anywhere under n. Aliases
// are refused so that every value has exactly one position.
func checkNodes(file string, n *yaml.Node, ps *Problems) {
	switch n.Kind {
	case yaml.AliasNode:
		ps.Add(posOf(file, n), "YAML aliases are not allowed")
	case yaml.MappingNode:
		seen := map[string]int{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if line, ok := seen[k.Value]; ok {
				ps.Add(posOf(file, k), "duplicate key %q (first at line %d)", k.Value, line)
			} else {
				seen[k.Value] = k.Line
			}
			checkNodes(file, n.Content[i+1], ps)
		}
	case yaml.SequenceNode:
		for _, c := range n.Content {
			checkNodes(file, c, ps)
		}
	}
}

func posOf(file string, n *yaml.Node) Position {
	if n == nil {
		return Position{File: file}
	}
	return Position{File: file, Line: n.Line, Column: n.Column}
}

// member returns the value node of key in mapping n, or nil.
func member(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// pairs calls fn for each key and value of mapping n, in document order.
func pairs(n *yaml.Node, fn func(k, v *yaml.Node)) {
	if n == nil || n.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		fn(n.Content[i], n.Content[i+1])
	}
}

// nodeKind is the JSON kind of a node: string, integer, number, boolean,
// null, object or array.
func nodeKind(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "object"
	case yaml.SequenceNode:
		return "array"
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!int":
			return "integer"
		case "!!float":
			return "number"
		case "!!bool":
			return "boolean"
		case "!!null":
			return "null"
		default:
			return "string"
		}
	}
	return "unknown"
}

// scalarString is a scalar's text; "" for other nodes.
func scalarString(n *yaml.Node) string {
	if n == nil || n.Kind != yaml.ScalarNode {
		return ""
	}
	return n.Value
}

// pathJoin appends a key or index to a dotted path.
func pathJoin(path string, key any) string {
	switch k := key.(type) {
	case int:
		return fmt.Sprintf("%s[%d]", path, k)
	default:
		if path == "" {
			return fmt.Sprint(k)
		}
		return fmt.Sprintf("%s.%v", path, k)
	}
}

// jsonOf is the JSON value a node stands for, as the schema validator
// takes it: a scalar by its resolved tag (a timestamp or any other tag is
// its text, as JSON has no such kind), and the first of repeated keys, as
// member reads it (checkNodes reports the repeat).
func jsonOf(n *yaml.Node) any {
	switch n.Kind {
	case yaml.MappingNode:
		obj := make(map[string]any, len(n.Content)/2)
		pairs(n, func(k, v *yaml.Node) {
			if _, seen := obj[k.Value]; !seen {
				obj[k.Value] = jsonOf(v)
			}
		})
		return obj
	case yaml.SequenceNode:
		items := make([]any, len(n.Content))
		for i, c := range n.Content {
			items[i] = jsonOf(c)
		}
		return items
	case yaml.ScalarNode:
		return scalarJSON(n)
	}
	return nil // an alias: parseYAML has refused it
}

func scalarJSON(n *yaml.Node) any {
	switch nodeKind(n) {
	case "integer":
		var i int64
		if n.Decode(&i) == nil {
			return i
		}
		var f float64
		if n.Decode(&f) == nil {
			return f
		}
	case "number":
		var f float64
		if n.Decode(&f) == nil {
			return f
		}
	case "boolean":
		var b bool
		if n.Decode(&b) == nil {
			return b
		}
	case "null":
		return nil
	}
	return n.Value
}

// locate follows a JSON instance location (keys and indexes) from root to
// its node, and spells it as a dotted path; where the location leaves the
// tree it stops at the last node found.
func locate(root *yaml.Node, loc []string) (*yaml.Node, string) {
	n, path := root, ""
	for _, tok := range loc {
		var next *yaml.Node
		switch n.Kind {
		case yaml.MappingNode:
			next, path = member(n, tok), pathJoin(path, tok)
		case yaml.SequenceNode:
			if i, err := strconv.Atoi(tok); err == nil && i >= 0 && i < len(n.Content) {
				next, path = n.Content[i], pathJoin(path, i)
			}
		}
		if next == nil {
			return n, path
		}
		n = next
	}
	return n, path
}

// memberKey returns the key node of key in mapping n, or n itself.
func memberKey(n *yaml.Node, key string) *yaml.Node {
	if n != nil && n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == key {
				return n.Content[i]
			}
		}
	}
	return n
}
