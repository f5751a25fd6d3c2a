package jsonvalue

import (
	"bytes"
	"sync"
	"unsafe"
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
// result aliases data (scalar literals, raw names, and the names written
// without escapes), which the caller must not modify afterwards.
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

// decoder is one single-pass, recursive-descent read of a document into a
// pointer-free scratch form, turned into Values once the whole document is
// read (build), so that a document costs at most five allocations whatever
// its shape: one []Member for every object's members, one []Value for every
// array's items, one []container for every container, and, only when some
// member name is written with an escape, one string of the decoded names and
// one []string of those names as written (an unescaped name, like a scalar
// literal, aliases the input).
//
// While a container is open, its entries are stacked (stackMembers,
// stackItems); when it closes they move, as one block, to the done lists,
// which so hold every container's entries contiguously, children before
// parents. A container's node is the span of its block; the final slices
// have the done lists' layout, so a node's span is also where its members
// or items lie in them.
//
// Member names written with an escape are decoded into one arena (names),
// in document order; a member carries its name's span in it, or, for a name
// without escapes, in the input (nameOf).
type decoder struct {
	data     []byte
	pos      int
	maxDepth int

	stackMembers []memberNode
	stackItems   []node
	doneMembers  []memberNode
	doneItems    []node
	containers   int              // how many arrays and objects were read
	names        []byte           // the arena: the escaped member names, decoded
	seen         []map[uint64]int // per depth: name hashes of an object beyond linearLimit

	fault *SyntaxError
	path  []pathSegment // innermost first, recorded while unwinding

	borrow   bool     // build into kept (DecodeBorrowed)
	kept     keptTree // a borrowed document's containers
	borrowed Borrowed // what DecodeBorrowed returns, pooled with it
}

// node is one decoded value in scratch form: for a scalar, its literal is
// data[start:end]; for a container, its members or items are the done
// list's [start:end].
type node struct {
	kind       Kind
	start, end int
}

// memberNode is one decoded member in scratch form: its decoded name is
// name's span of the arena, or of the input when written without escapes
// (nameOf); its quoted name as written data[raw.start:raw.end].
type memberNode struct {
	name, raw span
	value     node
}

// span is a half-open range of offsets.
type span struct{ start, end int }

func (d *decoder) reset(data []byte, opts Options) {
	d.data, d.pos, d.containers = data, 0, 0
	d.maxDepth = opts.MaxDepth
	if d.maxDepth <= 0 {
		d.maxDepth = DefaultMaxDepth
	}
	d.maxDepth = min(d.maxDepth, MaxDepthLimit)
	d.fault, d.path = nil, nil
}

// release empties the scratch (it holds no pointers, so it keeps nothing
// alive) and drops the input, bounding what the pool keeps.
func (d *decoder) release() {
	d.stackMembers = trimScratch(d.stackMembers)
	d.stackItems = trimScratch(d.stackItems)
	d.doneMembers = trimScratch(d.doneMembers)
	d.doneItems = trimScratch(d.doneItems)
	d.names = d.names[:0]
	if cap(d.names) > maxPooledScratch*16 {
		d.names = nil
	}
	for _, m := range d.seen {
		clear(m)
	}
	d.data, d.fault, d.path = nil, nil, nil
}

// trimScratch empties s, and drops it when it grew beyond what the pool
// should keep.
func trimScratch[T any](s []T) []T {
	if cap(s) > maxPooledScratch {
		return nil
	}
	return s[:0]
}

// fail records the fault and returns false, for "return d.fail(...)".
func (d *decoder) fail(offset int, reason, detail string) bool {
	d.fault = &SyntaxError{Offset: int64(offset), Reason: reason, Detail: detail}
	return false
}

// failEnd records that the input ends inside a value.
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
	root, ok := d.value(0)
	if ok {
		d.skipSpace()
		if d.pos < len(d.data) {
			ok = d.fail(d.pos, ReasonTrailingData, "data after the value")
		}
	}
	if !ok {
		d.fault.Path = formatPath(d.path)
		return Value{}, false
	}
	return d.build(root), true
}

// build turns the scratch form into Values: it allocates the document's
// members, items and containers once (and, if any name holds an escape,
// the escaped names' text and their written forms) and fills them from the
// done lists, whose layout members and items share.
func (d *decoder) build(root node) Value {
	if root.kind != KindObject && root.kind != KindArray {
		return scalarOf(d.data[root.start:root.end])
	}
	t := d.newTree()
	var escapedNames string // the arena as a string, made on first need
	var rawNames []string   // escaped names as written, made on first need
	// Fields are written one by one into the zeroed slots: a whole-struct
	// store of a Member is a typed copy, which while the garbage collector
	// runs goes through the bulk write barrier (about a twentieth of a
	// listener read's CPU); single pointer stores take the buffered one.
	for i := range d.doneMembers {
		m := &d.doneMembers[i]
		dst := &t.members[i]
		if n := m.name.end - m.name.start; n == m.raw.end-m.raw.start-2 {
			// No escape (every escape decodes shorter than it is
			// written): the name is the quoted bytes, aliased.
			if n > 0 {
				dst.Name = unsafe.String(&d.data[m.name.start], n)
			}
			dst.raw = plainQuoted
		} else {
			if escapedNames == "" {
				escapedNames = string(d.names)
				rawNames = make([]string, 0, d.escapedFrom(i))
			}
			dst.Name = escapedNames[m.name.start:m.name.end]
			// An escaped name keeps its written form; rawNames is sized
			// for every escaped name left, so they are one allocation.
			rawNames = append(rawNames, unsafe.String(&d.data[m.raw.start], m.raw.end-m.raw.start))
			dst.raw = &rawNames[len(rawNames)-1]
		}
		// Scalars, most entries, are filled here rather than by a call
		// (KindArray and KindObject are the last two kinds).
		if v := m.value; v.kind >= KindArray {
			d.fill(&dst.Value, v, &t)
		} else {
			dst.Value.raw = unsafe.String(&d.data[v.start], v.end-v.start)
		}
	}
	for i, n := range d.doneItems {
		if n.kind >= KindArray {
			d.fill(&t.items[i], n, &t)
		} else {
			t.items[i].raw = unsafe.String(&d.data[n.start], n.end-n.start)
		}
	}
	var v Value
	d.fill(&v, root, &t)
	return v
}

// escapedFrom counts the done members from i on whose names hold an escape
// (their decoded name is shorter than the quoted bytes minus the quotes).
func (d *decoder) escapedFrom(i int) int {
	n := 0
	for _, m := range d.doneMembers[i:] {
		if m.name.end-m.name.start != m.raw.end-m.raw.start-2 {
			n++
		}
	}
	return n
}

// tree is a document's final members and items, laid out as the done
// lists are, and its containers, handed out in turn (every container node
// is met once: in a done list or as the root).
type tree struct {
	members    []Member
	items      []Value
	containers []container
	next       int // the next container to hand out
}

// fill writes the final Value of n into dst, a zero Value, field by field
// (see build).
func (d *decoder) fill(dst *Value, n node, t *tree) {
	switch n.kind {
	case KindObject:
		c := &t.containers[t.next]
		t.next++
		c.members = t.members[n.start:n.end:n.end]
		dst.c = c
	case KindArray:
		c := &t.containers[t.next]
		t.next++
		c.items = t.items[n.start:n.end:n.end]
		dst.c = c
	default:
		dst.raw = unsafe.String(&d.data[n.start], n.end-n.start)
	}
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
func (d *decoder) value(depth int) (node, bool) {
	switch c := d.data[d.pos]; c {
	case '{':
		return d.object(depth + 1)
	case '[':
		return d.array(depth + 1)
	case '"':
		start := d.pos
		if _, ok := d.str(); !ok {
			return node{}, false
		}
		return node{kind: KindString, start: start, end: d.pos}, true
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
		return node{}, d.fail(d.pos, ReasonInvalidSyntax, "not the start of a JSON value")
	}
}

func (d *decoder) literal(lit []byte, kind Kind) (node, bool) {
	rest := d.data[d.pos:]
	if bytes.HasPrefix(rest, lit) {
		start := d.pos
		d.pos += len(lit)
		return node{kind: kind, start: start, end: d.pos}, true
	}
	if len(rest) < len(lit) && bytes.HasPrefix(lit, rest) {
		return node{}, d.failEnd()
	}
	return node{}, d.fail(d.pos, ReasonInvalidSyntax, "invalid literal")
}

func (d *decoder) number() (node, bool) {
	end, fault := scanNumber(d.data, d.pos)
	switch fault {
	case numberTruncated:
		return node{}, d.failEnd()
	case numberMalformed:
		return node{}, d.fail(end, ReasonInvalidSyntax, "invalid number")
	case numberLeadingZero:
		return node{}, d.fail(end, ReasonInvalidSyntax, "leading zero in number")
	}
	start := d.pos
	d.pos = end
	return node{kind: KindNumber, start: start, end: end}, true
}

// checkDepth refuses a container opened at depth beyond the limit.
func (d *decoder) checkDepth(depth int) bool {
	if depth > d.maxDepth {
		return d.fail(d.pos, ReasonTooDeep, "nesting deeper than the limit")
	}
	return true
}
