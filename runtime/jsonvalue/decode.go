package jsonvalue

import (
	"bytes"
	"sync"
)

// DefaultMaxDepth is the nesting limit when Options.MaxDepth is 0.
const DefaultMaxDepth = 64

// MaxDepthLimit caps Options.MaxDepth: the decoder recurses once per level,
// so the limit also bounds its stack.
const MaxDepthLimit = 10000

// Options tune Decode.
type Options struct {
	// MaxDepth is the deepest nesting of arrays and objects accepted; the
	// top-level container is at depth 1 and scalars add none. 0 means
	// DefaultMaxDepth; values above MaxDepthLimit mean MaxDepthLimit.
	MaxDepth int
}

// Decode reads exactly one JSON value from data, with optional whitespace
// around it. It keeps member order and every scalar's exact bytes, and the
// result aliases data, which the caller must not modify afterwards.
//
// It refuses, with a *SyntaxError, anything RFC 8259 refuses (leading zeros,
// control characters in strings, bad escapes, NaN and Infinity, trailing
// commas, a byte order mark) and also:
//   - invalid UTF-8, including an escaped lone surrogate such as "\ud800":
//     it is no Unicode text, so neither Python (whose UTF-8 output cannot
//     hold it) nor the canonical encoder could write it back;
//   - two members of one object with the same decoded name, which every
//     reader resolves differently (Python keeps the last, some the first);
//   - nesting deeper than Options.MaxDepth, and anything after the value.
func Decode(data []byte, opts Options) (Value, error) {
	d := decoderPool.Get().(*decoder)
	d.reset(data, opts)
	v, ok := d.document()
	var err error
	if !ok {
		err = d.fault
		v = Value{}
	}
	d.release()
	decoderPool.Put(d)
	return v, err
}

// linearLimit is how many members of one object are checked for duplicates
// by comparing names; from there on a map is used.
const linearLimit = 16

// maxPooledScratch bounds the scratch a pooled decoder keeps (in entries).
const maxPooledScratch = 1 << 14

var decoderPool = sync.Pool{New: func() any { return new(decoder) }}

// decoder is one single-pass, recursive-descent read of a document. The
// members and items of the containers being read are stacked in members and
// items; each container, once closed, copies its own entries into a slice
// of the exact size, so every container costs one allocation.
//
// Member names are decoded into one arena, in document order, and the
// stacked members carry their name's span in it (spans, parallel to
// members). Once the document is read, the arena becomes one string and
// every member's Name a substring of it (nameMembers), so names cost one
// allocation per document.
type decoder struct {
	data     []byte
	pos      int
	maxDepth int

	members   []Member
	spans     []nameSpan // the stacked members' names in the arena
	items     []Value
	membersHW int // high-water marks, to clear the scratch on release
	itemsHW   int
	names     []byte           // the arena: every member name, decoded
	nameEnds  []int            // where each name ends in the arena, in document order
	seen      []map[uint64]int // per depth: name hashes of an object beyond linearLimit

	fault *SyntaxError
	path  []pathSegment // innermost first, recorded while unwinding
}

func (d *decoder) reset(data []byte, opts Options) {
	d.data, d.pos = data, 0
	d.names, d.nameEnds, d.spans = d.names[:0], d.nameEnds[:0], d.spans[:0]
	d.maxDepth = opts.MaxDepth
	if d.maxDepth <= 0 {
		d.maxDepth = DefaultMaxDepth
	}
	d.maxDepth = min(d.maxDepth, MaxDepthLimit)
	d.fault, d.path = nil, nil
}

// release drops every reference to the input so the pooled decoder does not
// keep it alive.
func (d *decoder) release() {
	// A refused document leaves entries above the high-water marks.
	clear(d.members[:max(d.membersHW, len(d.members))])
	clear(d.items[:max(d.itemsHW, len(d.items))])
	d.members, d.items = d.members[:0], d.items[:0]
	if cap(d.members) > maxPooledScratch {
		d.members = nil
	}
	if cap(d.items) > maxPooledScratch {
		d.items = nil
	}
	d.membersHW, d.itemsHW = 0, 0
	for _, m := range d.seen {
		clear(m)
	}
	if cap(d.names) > maxPooledScratch*16 {
		d.names = nil
	}
	if cap(d.nameEnds) > maxPooledScratch {
		d.nameEnds, d.spans = nil, nil
	}
	d.data, d.fault, d.path = nil, nil, nil
}

// fail records the fault and returns false, for "return d.fail(...)".
func (d *decoder) fail(offset int, reason, detail string) bool {
	d.fault = &SyntaxError{Offset: int64(offset), Reason: reason, Detail: detail}
	return false
}

// failEnd records that the input ended inside a value.
func (d *decoder) failEnd() bool {
	return d.fail(len(d.data), ReasonUnexpectedEnd, "the input ends inside a value")
}

// document reads the whole input: one value and nothing but whitespace.
func (d *decoder) document() (Value, bool) {
	d.skipSpace()
	if d.pos >= len(d.data) {
		d.fail(d.pos, ReasonEmptyInput, "no JSON value")
		d.fault.Path = "$"
		return Value{}, false
	}
	v, ok := d.value(0)
	if ok && len(d.nameEnds) > 0 {
		arena, next := string(d.names), 0
		nameMembers(&v, arena, d.nameEnds, &next)
	}
	if ok {
		d.skipSpace()
		if d.pos < len(d.data) {
			ok = d.fail(d.pos, ReasonTrailingData, "data after the value")
		}
	}
	if !ok {
		d.fault.Path = formatPath(d.path)
	}
	return v, ok
}

func (d *decoder) skipSpace() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\n', '\r', '\t':
			d.pos++
		default:
			return
		}
	}
}

// value reads the value starting at d.pos, which is inside the input and
// not whitespace. depth is the nesting of the enclosing containers.
func (d *decoder) value(depth int) (Value, bool) {
	switch c := d.data[d.pos]; c {
	case '{':
		return d.object(depth + 1)
	case '[':
		return d.array(depth + 1)
	case '"':
		start := d.pos
		if _, ok := d.str(); !ok {
			return Value{}, false
		}
		return Value{kind: KindString, raw: d.data[start:d.pos]}, true
	case 't':
		return d.literal(litTrue, KindBool)
	case 'f':
		return d.literal(litFalse, KindBool)
	case 'n':
		return d.literal(litNull, KindNull)
	default:
		if c == '-' || isDigit(c) {
			return d.number()
		}
		return Value{}, d.fail(d.pos, ReasonInvalidSyntax, "not the start of a JSON value")
	}
}

func (d *decoder) literal(lit []byte, kind Kind) (Value, bool) {
	rest := d.data[d.pos:]
	if bytes.HasPrefix(rest, lit) {
		d.pos += len(lit)
		return Value{kind: kind, raw: lit}, true
	}
	if len(rest) < len(lit) && bytes.HasPrefix(lit, rest) {
		return Value{}, d.failEnd()
	}
	return Value{}, d.fail(d.pos, ReasonInvalidSyntax, "invalid literal")
}

func (d *decoder) number() (Value, bool) {
	end, fault := scanNumber(d.data, d.pos)
	switch fault {
	case numberTruncated:
		return Value{}, d.failEnd()
	case numberMalformed:
		return Value{}, d.fail(end, ReasonInvalidSyntax, "invalid number")
	case numberLeadingZero:
		return Value{}, d.fail(end, ReasonInvalidSyntax, "leading zero in number")
	}
	raw := d.data[d.pos:end]
	d.pos = end
	return Value{kind: KindNumber, raw: raw}, true
}

// checkDepth refuses a container opened at depth beyond the limit.
func (d *decoder) checkDepth(depth int) bool {
	if depth > d.maxDepth {
		return d.fail(d.pos, ReasonTooDeep, "nesting deeper than the limit")
	}
	return true
}

func (d *decoder) array(depth int) (Value, bool) {
	if !d.checkDepth(depth) {
		return Value{}, false
	}
	d.pos++ // '['
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == ']' {
		d.pos++
		return Value{kind: KindArray, items: []Value{}}, true
	}
	base := len(d.items)
	for index := 0; ; index++ {
		if d.pos >= len(d.data) {
			return Value{}, d.failEnd()
		}
		v, ok := d.value(depth)
		if !ok {
			d.path = append(d.path, pathSegment{index: index, isIndex: true})
			return Value{}, false
		}
		d.items = append(d.items, v)
		d.skipSpace()
		if d.pos >= len(d.data) {
			return Value{}, d.failEnd()
		}
		switch d.data[d.pos] {
		case ',':
			d.pos++
			d.skipSpace()
			continue
		case ']':
			d.pos++
		default:
			return Value{}, d.fail(d.pos, ReasonInvalidSyntax, "expected ',' or ']' after an array item")
		}
		break
	}
	d.itemsHW = max(d.itemsHW, len(d.items))
	items := make([]Value, len(d.items)-base)
	copy(items, d.items[base:])
	d.items = d.items[:base]
	return Value{kind: KindArray, items: items}, true
}
