package load

import (
	"errors"
	"fmt"
	"reflect"
	"strings"

	"go.yaml.in/yaml/v3"
)

// decodeNode decodes a node that has passed its format schema into v, a
// pointer to a struct whose fields carry yaml tags, and then sets the
// positions the struct keeps (see place). yaml.v3 copies the values; the
// schema has already refused every unknown key, missing key and wrong
// kind, so a decode error is a schema that says less than the struct needs.
func decodeNode(file string, n *yaml.Node, v any, ps *Problems) bool {
	if err := n.Decode(v); err != nil {
		var te *yaml.TypeError
		if !errors.As(err, &te) {
			te = &yaml.TypeError{Errors: []string{err.Error()}}
		}
		for _, msg := range te.Errors {
			ps.Add(posOf(file, nodeOfDecodeError(n, msg)), "the format schema accepts what srgen cannot decode: %s", msg)
		}
		return false
	}
	place(file, n, reflect.ValueOf(v).Elem())
	return true
}

// nodeOfDecodeError finds the scalar a yaml.v3 decode error ("line 12:
// cannot unmarshal !!float `1e30` into int64") is about: the first on that
// line with that text, else n.
func nodeOfDecodeError(n *yaml.Node, msg string) *yaml.Node {
	var line int
	var value string
	if _, err := fmt.Sscanf(msg, "line %d:", &line); err != nil {
		return n
	}
	if _, quoted, ok := strings.Cut(msg, "`"); ok {
		value, _, _ = strings.Cut(quoted, "`")
	}
	var found *yaml.Node
	var walk func(c *yaml.Node)
	walk = func(c *yaml.Node) {
		if found != nil {
			return
		}
		if c.Kind == yaml.ScalarNode && c.Line == line && c.Value == value {
			found = c
		}
		for _, cc := range c.Content {
			walk(cc)
		}
	}
	walk(n)
	if found == nil {
		return n
	}
	return found
}

var positionType = reflect.TypeFor[Position]()

// placer is a decoded type that sets its own positions, for a shape place
// does not follow (an ordered mapping read into a list).
type placer interface {
	place(file string, n *yaml.Node)
}

// place walks a value decoded from node n alongside n and sets every
// Position in it:
//   - a struct's field Pos is the position of the node the struct was
//     decoded from;
//   - a Position field tagged at:"key" is the position of member key's value;
//   - a field tagged yaml:"name" is placed from member name, a slice's
//     items from the sequence's items, a pointer's target from n.
//
// A node the spec left out (n nil) gives positions that name only the file.
func place(file string, n *yaml.Node, v reflect.Value) {
	if v.CanAddr() {
		if p, ok := v.Addr().Interface().(placer); ok {
			p.place(file, n)
			return
		}
	}
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			place(file, n, v.Elem())
		}
	case reflect.Slice:
		for i, item := range seq(n) {
			if i < v.Len() {
				place(file, item, v.Index(i))
			}
		}
	case reflect.Struct:
		placeStruct(file, n, v)
	}
}

func placeStruct(file string, n *yaml.Node, v reflect.Value) {
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		switch {
		case f.Type == positionType && f.Name == "Pos":
			v.Field(i).Set(reflect.ValueOf(posOf(file, n)))
		case f.Type == positionType && f.Tag.Get("at") != "":
			v.Field(i).Set(reflect.ValueOf(posOf(file, member(n, f.Tag.Get("at")))))
		default:
			name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
			if name != "" && name != "-" {
				place(file, member(n, name), v.Field(i))
			}
		}
	}
}

// seq returns a sequence node's items, or nil for any other node.
func seq(n *yaml.Node) []*yaml.Node {
	if n == nil || n.Kind != yaml.SequenceNode {
		return nil
	}
	return n.Content
}

// decodeOrdered reads an ordered mapping into a list, each item built
// from its key and value node: for the mappings whose order the spec means
// (levels, properties, components), which a Go map would lose.
func decodeOrdered[T any](n *yaml.Node, item func(key string, v *yaml.Node) (T, error)) ([]T, error) {
	var out []T
	var errs []error
	pairs(n, func(k, v *yaml.Node) {
		it, err := item(k.Value, v)
		errs = append(errs, err)
		out = append(out, it)
	})
	return out, errors.Join(errs...)
}

// placeOrdered places the first count items of a list decodeOrdered read
// from n: at(i) gives item i's Pos, set to its key's position, and the
// part decoded from its value node, placed from that node.
func placeOrdered(file string, n *yaml.Node, count int, at func(i int) (*Position, reflect.Value)) {
	i := 0
	pairs(n, func(k, v *yaml.Node) {
		if i < count {
			pos, value := at(i)
			*pos = posOf(file, k)
			place(file, v, value)
		}
		i++
	})
}
