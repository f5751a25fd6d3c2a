package jsonvalue

import (
	"bytes"
	"hash/maphash"
)

// hashSeed keys the name hashes that find duplicates in large objects.
var hashSeed = maphash.MakeSeed()

func (d *decoder) array(depth int) (node, bool) {
	if !d.checkDepth(depth) {
		return node{}, false
	}
	d.containers++
	d.pos++ // '['
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == ']' {
		d.pos++
		return node{kind: KindArray, start: len(d.doneItems), end: len(d.doneItems)}, true
	}
	base := len(d.stackItems)
	for index := 0; ; index++ {
		if d.pos >= len(d.data) {
			return node{}, d.failEnd()
		}
		v, ok := d.value(depth)
		if !ok {
			d.path = append(d.path, pathSegment{index: index, isIndex: true})
			return node{}, false
		}
		d.stackItems = append(d.stackItems, v)
		d.skipSpace()
		if d.pos >= len(d.data) {
			return node{}, d.failEnd()
		}
		switch d.data[d.pos] {
		case ',':
			d.pos++
			d.skipSpace()
			continue
		case ']':
			d.pos++
		default:
			return node{}, d.fail(d.pos, ReasonInvalidSyntax, "expected ',' or ']' after an array item")
		}
		break
	}
	start := len(d.doneItems)
	d.doneItems = append(d.doneItems, d.stackItems[base:]...)
	d.stackItems = d.stackItems[:base]
	return node{kind: KindArray, start: start, end: len(d.doneItems)}, true
}

func (d *decoder) object(depth int) (node, bool) {
	if !d.checkDepth(depth) {
		return node{}, false
	}
	d.containers++
	d.pos++ // '{'
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == '}' {
		d.pos++
		return node{kind: KindObject, start: len(d.doneMembers), end: len(d.doneMembers)}, true
	}
	base := len(d.stackMembers)
	var seen map[uint64]int
	for {
		// The member is read into its stack slot, not copied there: the
		// slot's index stays valid while value stacks nested members above
		// it (they are popped before it returns), its address may not.
		k := len(d.stackMembers)
		d.stackMembers = append(d.stackMembers, memberNode{})
		m := &d.stackMembers[k]
		if !d.memberName(m) {
			return node{}, false
		}
		// Small objects, nearly all, compare names inline (no call).
		var ok bool
		if k-base < linearLimit {
			ok = !d.nameIn(d.nameOf(m), d.stackMembers[base:k])
		} else {
			seen, ok = d.checkUnique(m, base, k, depth, seen)
		}
		if !ok {
			d.fail(m.raw.start, ReasonDuplicateMember, "a member name repeats in its object")
			d.path = append(d.path, pathSegment{name: string(d.nameOf(m))})
			return node{}, false
		}
		// The common compact ":" followed by the value's first byte is
		// taken inline; anything else goes through colon.
		if d.pos+1 < len(d.data) && d.data[d.pos] == ':' && d.data[d.pos+1] > ' ' {
			d.pos++
			ok = true
		} else {
			ok = d.colon()
		}
		var v node
		if ok {
			v, ok = d.value(depth)
		}
		m = &d.stackMembers[k]
		if !ok {
			d.path = append(d.path, pathSegment{name: string(d.nameOf(m))})
			return node{}, false
		}
		m.value = v
		d.skipSpace()
		if d.pos >= len(d.data) {
			return node{}, d.failEnd()
		}
		switch d.data[d.pos] {
		case ',':
			d.pos++
			d.skipSpace()
			continue
		case '}':
			d.pos++
		default:
			return node{}, d.fail(d.pos, ReasonInvalidSyntax, "expected ',' or '}' after a member")
		}
		break
	}
	start := len(d.doneMembers)
	d.doneMembers = append(d.doneMembers, d.stackMembers[base:]...)
	d.stackMembers = d.stackMembers[:base]
	return node{kind: KindObject, start: start, end: len(d.doneMembers)}, true
}

// memberName reads a member's name into m, leaves d.pos just past it, and
// decodes it into the arena when it holds an escape. The member's value is
// left to the caller.
func (d *decoder) memberName(m *memberNode) bool {
	if d.pos >= len(d.data) {
		return d.failEnd()
	}
	if d.data[d.pos] != '"' {
		return d.fail(d.pos, ReasonInvalidSyntax, "expected a member name")
	}
	m.raw.start = d.pos
	escaped, ok := d.str()
	if !ok {
		return false
	}
	m.raw.end = d.pos
	if !escaped {
		// The name is the quoted bytes' inside: no copy (see nameOf).
		m.name = span{m.raw.start + 1, m.raw.end - 1}
		return true
	}
	m.name.start = len(d.names)
	d.names = appendUnquoted(d.names, d.data[m.raw.start:m.raw.end], false)
	m.name.end = len(d.names)
	return true
}

// nameOf is m's decoded name. A name written without escapes spans the
// input (its quoted bytes' inside), an escaped one the arena; they are told
// apart by length, as every escape decodes shorter than it is written.
func (d *decoder) nameOf(m *memberNode) []byte {
	if m.name.end-m.name.start == m.raw.end-m.raw.start-2 {
		return d.data[m.name.start:m.name.end]
	}
	return d.names[m.name.start:m.name.end]
}

// colon reads the ':' after a member name, with the whitespace around it,
// and leaves d.pos at the member's value.
func (d *decoder) colon() bool {
	d.skipSpace()
	if d.pos >= len(d.data) {
		return d.failEnd()
	}
	if d.data[d.pos] != ':' {
		return d.fail(d.pos, ReasonInvalidSyntax, "expected ':' after a member name")
	}
	d.pos++
	d.skipSpace()
	if d.pos >= len(d.data) {
		return d.failEnd()
	}
	return true
}

// checkUnique reports whether m's decoded name is new among the members
// stacked in [base, end), at least linearLimit of them (object compares
// fewer itself): by a set of name hashes kept per depth (built on first
// need and returned for the next calls), confirmed by comparison on a hit.
func (d *decoder) checkUnique(m *memberNode, base, end, depth int, seen map[uint64]int) (map[uint64]int, bool) {
	text := d.nameOf(m)
	stacked := d.stackMembers[base:end]
	if seen == nil {
		for len(d.seen) <= depth {
			d.seen = append(d.seen, nil)
		}
		if d.seen[depth] == nil {
			d.seen[depth] = make(map[uint64]int, 2*linearLimit)
		}
		seen = d.seen[depth]
		clear(seen)
		for i := range stacked {
			seen[maphash.Bytes(hashSeed, d.nameOf(&stacked[i]))]++
		}
	}
	h := maphash.Bytes(hashSeed, text)
	if seen[h] > 0 && d.nameIn(text, stacked) {
		return seen, false
	}
	seen[h]++
	return seen, true
}

// nameIn reports whether text is the decoded name of one of members.
func (d *decoder) nameIn(text []byte, members []memberNode) bool {
	for i := range members {
		m := &members[i]
		if m.name.end-m.name.start == len(text) && bytes.Equal(d.nameOf(m), text) {
			return true
		}
	}
	return false
}
