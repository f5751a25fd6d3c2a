package emit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// This file writes Python literals for python.go: data only, one top-level
// entry a line, so a diff of the generated module reads row by row.

// pyDict is a Python dict literal in insertion order.
type pyDict []pyItem

type pyItem struct {
	key   string
	value any
}

// pyTuple is a Python tuple literal.
type pyTuple []any

// pyLiteral writes v on one line. Strings use JSON's escaping, which is
// valid Python; v holds only string, int, int64, bool, nil, pyDict and
// pyTuple.
func pyLiteral(b *bytes.Buffer, v any) error {
	switch x := v.(type) {
	case nil:
		b.WriteString("None")
	case bool:
		if x {
			b.WriteString("True")
		} else {
			b.WriteString("False")
		}
	case int:
		b.WriteString(strconv.Itoa(x))
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case string:
		pyString(b, x)
	case pyTuple:
		b.WriteByte('(')
		for i, item := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			if err := pyLiteral(b, item); err != nil {
				return err
			}
		}
		if len(x) == 1 {
			b.WriteByte(',')
		}
		b.WriteByte(')')
	case pyDict:
		b.WriteByte('{')
		for i, item := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			pyString(b, item.key)
			b.WriteString(": ")
			if err := pyLiteral(b, item.value); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	default:
		return fmt.Errorf("no Python literal for %T", v)
	}
	return nil
}

func pyString(b *bytes.Buffer, s string) {
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a Go string always encodes
	b.Write(bytes.TrimSuffix(out.Bytes(), []byte("\n")))
}

// pyAssign writes NAME = value; a tuple or dict value puts one entry a line.
func pyAssign(b *bytes.Buffer, name, doc string, v any) error {
	fmt.Fprintf(b, "\n# %s\n%s = ", doc, name)
	open, close, entries := "", "", []any(nil)
	switch x := v.(type) {
	case pyTuple:
		open, close = "(", ")"
		entries = x
	case pyDict:
		open, close = "{", "}"
		for _, item := range x {
			entries = append(entries, item)
		}
	default:
		if err := pyLiteral(b, v); err != nil {
			return err
		}
		b.WriteByte('\n')
		return nil
	}
	b.WriteString(open + "\n")
	for _, e := range entries {
		b.WriteString("    ")
		if item, ok := e.(pyItem); ok {
			pyString(b, item.key)
			b.WriteString(": ")
			e = item.value
		}
		if err := pyLiteral(b, e); err != nil {
			return err
		}
		b.WriteString(",\n")
	}
	b.WriteString(close + "\n")
	return nil
}

func pyStrings[T ~string](xs []T) pyTuple {
	out := make(pyTuple, len(xs))
	for i, x := range xs {
		out[i] = string(x)
	}
	return out
}
