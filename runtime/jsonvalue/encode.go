package jsonvalue

// AppendCompact appends v in the wire form: no whitespace, members in order,
// every scalar and member name written from the exact bytes it was read
// from (a name read without an escape is its standard quoting), so a
// compact input decodes and re-encodes byte for byte. A string or
// name built by a constructor is written with the standard escaping (see
// quote.go: the escaping of Python's json.dumps with ensure_ascii=False).
// The zero Value, which a decoded value never holds, is written as null.
func AppendCompact(dst []byte, v Value) []byte {
	switch v.Kind() {
	case KindObject:
		dst = append(dst, '{')
		for i := range v.c.members {
			m := &v.c.members[i]
			if i > 0 {
				dst = append(dst, ',')
			}
			switch m.raw {
			case nil:
				dst = AppendString(dst, m.Name)
			case plainQuoted:
				dst = append(append(append(dst, '"'), m.Name...), '"')
			default:
				dst = append(dst, *m.raw...)
			}
			dst = append(dst, ':')
			dst = AppendCompact(dst, m.Value)
		}
		return append(dst, '}')
	case KindArray:
		dst = append(dst, '[')
		for i := range v.c.items {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = AppendCompact(dst, v.c.items[i])
		}
		return append(dst, ']')
	case KindInvalid:
		return append(dst, litNull...)
	}
	return append(dst, v.raw...)
}

// Compact returns v in the wire form of AppendCompact, in one allocation
// for a decoded value (whose names need no escape or keep their raw bytes).
func Compact(v Value) []byte {
	return AppendCompact(make([]byte, 0, compactSize(v)), v)
}

// compactSize is the length of v's compact form, counting a name without
// raw bytes at its decoded length plus quotes (exact unless the name needs
// escaping, then a lower bound).
func compactSize(v Value) int {
	switch v.Kind() {
	case KindObject:
		n := 1 + len(v.c.members) // '{', the commas and '}'
		for i := range v.c.members {
			m := &v.c.members[i]
			if m.raw != nil && m.raw != plainQuoted {
				n += len(*m.raw)
			} else {
				n += len(m.Name) + 2
			}
			n += 1 + compactSize(m.Value)
		}
		return max(n, 2)
	case KindArray:
		n := 1 + len(v.c.items)
		for i := range v.c.items {
			n += compactSize(v.c.items[i])
		}
		return max(n, 2)
	case KindInvalid:
		return len(litNull)
	}
	return len(v.raw)
}

// AppendPython appends v byte for byte as Python 3 writes
// json.dumps(json.loads(text), ensure_ascii=False) for the text v was read
// from: separators ", " and ": ", strings written from their decoded text
// in the standard escaping (which is Python's), integer literals as Python
// ints (exactly, "-0" as "0") and every other number literal as
// repr(float) (Infinity and -Infinity beyond float64). The zero Value is
// written as null.
//
// Python refuses integer literals of more than 4300 digits by default
// (sys.set_int_max_str_digits); AppendPython writes them exactly, as Python
// does with that limit lifted.
func AppendPython(dst []byte, v Value) []byte {
	switch v.Kind() {
	case KindObject:
		dst = append(dst, '{')
		for i := range v.c.members {
			m := &v.c.members[i]
			if i > 0 {
				dst = append(dst, ',', ' ')
			}
			// A name written with an escape is requoted: Python does not
			// keep escapes.
			if m.raw == plainQuoted {
				dst = append(append(append(dst, '"'), m.Name...), '"')
			} else {
				dst = AppendString(dst, m.Name)
			}
			dst = append(dst, ':', ' ')
			dst = AppendPython(dst, m.Value)
		}
		return append(dst, '}')
	case KindArray:
		dst = append(dst, '[')
		for i := range v.c.items {
			if i > 0 {
				dst = append(dst, ',', ' ')
			}
			dst = AppendPython(dst, v.c.items[i])
		}
		return append(dst, ']')
	case KindString:
		return appendRequoted(dst, v.Raw())
	case KindNumber:
		return appendPythonNumber(dst, v.Raw())
	case KindInvalid:
		return append(dst, litNull...)
	}
	return append(dst, v.raw...)
}

// Python returns v in the form of AppendPython.
func Python(v Value) []byte {
	return AppendPython(make([]byte, 0, compactSize(v)*9/8), v)
}

// Equal reports whether a and b are the same JSON value: the same kinds,
// members in the same order with the same decoded names, items in the same
// order, strings with the same decoded text (\u00e9 equals é), and numbers
// with the same literal (1.0 does not equal 1).
func Equal(a, b Value) bool {
	kind := a.Kind()
	if kind != b.Kind() {
		return false
	}
	switch kind {
	case KindObject:
		if len(a.c.members) != len(b.c.members) {
			return false
		}
		for i := range a.c.members {
			am, bm := &a.c.members[i], &b.c.members[i]
			if am.Name != bm.Name || !Equal(am.Value, bm.Value) {
				return false
			}
		}
		return true
	case KindArray:
		if len(a.c.items) != len(b.c.items) {
			return false
		}
		for i := range a.c.items {
			if !Equal(a.c.items[i], b.c.items[i]) {
				return false
			}
		}
		return true
	case KindString:
		return a.raw == b.raw || unquote(a.Raw()) == unquote(b.Raw())
	}
	return a.raw == b.raw
}
