package jsonvalue

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// Kind is the JSON type of a Value.
type Kind uint8

const (
	KindInvalid Kind = iota // the zero Value: absent, not JSON null
	KindNull
	KindBool
	KindNumber
	KindString
	KindArray
	KindObject
)

var kindNames = [...]string{"invalid", "null", "boolean", "number", "string", "array", "object"}

// String names the kind as JSON Schema does ("object", "number", ...).
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Value is one JSON value. The zero Value is KindInvalid and stands for
// "absent"; JSON null is KindNull.
//
// A Value is a string and a pointer (24 bytes on 64-bit), so every Member and
// every IR type holding Values is smaller: the kind is not stored but read
// from what is (a container's entries, a scalar's first byte). Its fields
// are a string and a pointer to plain slices, so reflect.DeepEqual compares
// Values by content, as it did when raw was a []byte.
type Value struct {
	// raw holds a scalar's exact source bytes: a string with its quotes and
	// escapes as written, a number literal, true, false or null. It aliases
	// the decoded input (or a buffer a constructor filled and nothing else
	// holds); nothing writes through it. Empty for containers and the zero
	// Value; never empty for a scalar.
	raw string
	// c holds a container's members or items; nil for scalars and the zero
	// Value. Keeping both slices behind one pointer keeps a Value small; a
	// decoded document's containers are one allocation.
	c *container
}

// container is a container's entries: members for KindObject (in order,
// never nil), items for KindArray (never nil). Which of the two is non-nil
// is the container's kind.
type container struct {
	members []Member
	items   []Value
}

// scalarKinds maps a scalar literal's first byte to its kind.
var scalarKinds = [256]Kind{
	'"': KindString, 't': KindBool, 'f': KindBool, 'n': KindNull, '-': KindNumber,
	'0': KindNumber, '1': KindNumber, '2': KindNumber, '3': KindNumber, '4': KindNumber,
	'5': KindNumber, '6': KindNumber, '7': KindNumber, '8': KindNumber, '9': KindNumber,
}

// scalarOf is the Value of a scalar literal, aliasing lit, which nothing may
// write to afterwards.
func scalarOf(lit []byte) Value {
	if len(lit) == 0 {
		return Value{}
	}
	return Value{raw: unsafe.String(&lit[0], len(lit))}
}

// Member is one name/value pair of an object (48 bytes on 64-bit).
//
// A decoded Member's Name must not be changed in place: its recorded
// spelling would no longer match. Build a new Member instead.
type Member struct {
	// Name is the decoded member name.
	Name string
	// raw is how the name is written: nil for the standard quoting of Name
	// (a member built without a raw name), plainQuoted for '"' + Name +
	// '"' as it stands (every name the decoder read without an escape:
	// the decoder refuses control characters and invalid UTF-8 in names,
	// so that is also its standard quoting, written without a scan), else
	// the quoted name as written, escapes kept. A pointer, not a string
	// or slice, keeps a Member at 48 bytes; escaped names are rare.
	raw   *string
	Value Value
}

// plainQuoted is the raw of a Member whose name is written as '"' + Name +
// '"' with no escaping; only its address is used.
var plainQuoted = new(string)

// RawName returns the quoted name as written when it differs from '"' +
// Name + '"' (that is, when it holds an escape), and nil otherwise: for
// every decoded name written without an escape and every member built
// without a raw name, whose name is written as its standard quoting.
// Callers must not modify the result.
func (m Member) RawName() []byte {
	if m.raw == nil || m.raw == plainQuoted {
		return nil
	}
	return unsafe.Slice(unsafe.StringData(*m.raw), len(*m.raw))
}

// Equal reports whether m and o are the same JSON member: the same decoded
// name and Equal values, as Equal compares an object's members (how the
// name was written is not compared). go-cmp uses it for Members, whose
// raw name it could not otherwise read.
func (m Member) Equal(o Member) bool { return m.Name == o.Name && Equal(m.Value, o.Value) }

// Kind returns the value's JSON type.
func (v Value) Kind() Kind {
	if v.c != nil {
		if v.c.members != nil {
			return KindObject
		}
		return KindArray
	}
	if len(v.raw) == 0 {
		return KindInvalid
	}
	return scalarKinds[v.raw[0]]
}

// IsValid reports whether the value is present (not the zero Value).
func (v Value) IsValid() bool { return v.c != nil || len(v.raw) > 0 }

// IsNull reports whether the value is JSON null.
func (v Value) IsNull() bool { return v.raw == "null" }

// Raw returns a scalar's exact literal bytes (strings quoted, escapes as
// written). It is nil for arrays, objects and the zero Value. Callers must
// not modify the result: it aliases the decoded input, or a constant.
func (v Value) Raw() []byte {
	if len(v.raw) == 0 {
		return nil
	}
	return unsafe.Slice(unsafe.StringData(v.raw), len(v.raw))
}

// Members returns an object's members in order; nil for any other kind.
// Callers must not modify the result.
func (v Value) Members() []Member {
	if v.c == nil {
		return nil
	}
	return v.c.members
}

// Items returns an array's items in order; nil for any other kind. Callers
// must not modify the result.
func (v Value) Items() []Value {
	if v.c == nil {
		return nil
	}
	return v.c.items
}

// Len is the number of members or items of a container, else 0.
func (v Value) Len() int {
	if v.c == nil {
		return 0
	}
	return len(v.c.members) + len(v.c.items)
}

// Get returns the member named name and whether it is present.
func (v Value) Get(name string) (Value, bool) {
	members := v.Members()
	for i := range members {
		if members[i].Name == name {
			return members[i].Value, true
		}
	}
	return Value{}, false
}

// Bool returns the value of a JSON boolean, and false for anything else.
func (v Value) Bool() bool { return v.raw == "true" }

// Str returns the decoded text of a JSON string, and "" for anything else.
// A string written without escapes costs no copy: its text shares the
// literal's bytes (for a decoded Value, the input's).
func (v Value) Str() string {
	if v.Kind() != KindString {
		return ""
	}
	if text := v.raw[1 : len(v.raw)-1]; strings.IndexByte(text, '\\') < 0 {
		return text // no escape: the text is the literal's inside, shared
	}
	return unquote(v.Raw())
}

// Float returns a number as float64 and whether it is a finite number that
// parsed without error.
func (v Value) Float() (float64, bool) {
	if v.Kind() != KindNumber {
		return 0, false
	}
	f, err := strconv.ParseFloat(v.raw, 64)
	return f, err == nil
}

// Int returns a number as int64 when its literal is an integer that fits
// (1.0 and 1e3 are not integers here: the literal is what counts).
func (v Value) Int() (int64, bool) {
	if v.Kind() != KindNumber {
		return 0, false
	}
	n, err := strconv.ParseInt(v.raw, 10, 64)
	return n, err == nil
}

// Null is JSON null.
func Null() Value { return Value{raw: "null"} }

// Bool builds a JSON boolean.
func Bool(b bool) Value {
	if b {
		return Value{raw: "true"}
	}
	return Value{raw: "false"}
}

// String builds a JSON string from text, escaped as the compact encoder
// escapes. Invalid UTF-8 is replaced by U+FFFD, as JSON cannot carry it.
func String(s string) Value {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	return scalarOf(AppendString(nil, s))
}

// Int builds a JSON number from an integer.
func Int(n int64) Value {
	return Value{raw: strconv.FormatInt(n, 10)}
}

// Float builds a JSON number from a finite float64 in Go's shortest form.
// It returns the zero Value for NaN and infinities, which JSON cannot carry.
func Float(f float64) Value {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return Value{}
	}
	return Value{raw: strconv.FormatFloat(f, 'g', -1, 64)}
}

// Number builds a JSON number from a literal, and reports false when lit is
// not a valid JSON number literal.
func Number(lit string) (Value, bool) {
	if end, fault := scanNumber([]byte(lit), 0); fault != numberOK || end != len(lit) {
		return Value{}, false
	}
	return Value{raw: lit}, true
}

// Array builds an array of items, in order.
func Array(items ...Value) Value {
	if items == nil {
		items = []Value{}
	}
	return Value{c: &container{items: items}}
}

// Object builds an object from members, in order. It reports false when two
// members share a name or a member's value is the zero Value.
func Object(members ...Member) (Value, bool) {
	for i := range members {
		if !members[i].Value.IsValid() {
			return Value{}, false
		}
		for j := 0; j < i; j++ {
			if members[j].Name == members[i].Name {
				return Value{}, false
			}
		}
	}
	if members == nil {
		members = []Member{}
	}
	return Value{c: &container{members: members}}, true
}

var (
	litNull  = []byte("null")
	litTrue  = []byte("true")
	litFalse = []byte("false")
)
