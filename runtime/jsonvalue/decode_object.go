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
		m, ok := d.memberName()
		if !ok {
			return node{}, false
		}
		if seen, ok = d.checkUnique(m.name, base, depth, seen); !ok {
			d.fail(m.raw.start, ReasonDuplicateMember, "a member name repeats in its object")
			d.path = append(d.path, pathSegment{name: string(d.names[m.name.start:m.name.end])})
			return node{}, false
		}
		if ok = d.colon(); ok {
			if m.value, ok = d.value(depth); ok {
				d.stackMembers = append(d.stackMembers, m)
			}
		}
		if !ok {
			d.path = append(d.path, pathSegment{name: string(d.names[m.name.start:m.name.end])})
			return node{}, false
		}
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

// memberName reads a member's name, leaves d.pos just past it, and decodes
// it into the arena. The member's value is left to the caller.
func (d *decoder) memberName() (m memberNode, ok bool) {
	if d.pos >= len(d.data) {
		return m, d.failEnd()
	}
	if d.data[d.pos] != '"' {
		return m, d.fail(d.pos, ReasonInvalidSyntax, "expected a member name")
	}
	m.raw.start = d.pos
	escaped, ok := d.str()
	if !ok {
		return m, false
	}
	m.raw.end = d.pos
	m.name.start = len(d.names)
	if escaped {
		d.names = appendUnquoted(d.names, d.data[m.raw.start:m.raw.end])
	} else {
		d.names = append(d.names, d.data[m.raw.start+1:m.raw.end-1]...)
	}
	m.name.end = len(d.names)
	return m, true
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

// checkUnique reports whether the decoded name at name is new among the
// members stacked from base: by comparison for the first linearLimit
// members, then by a set of name hashes kept per depth (built on first need
// and returned for the next calls), confirmed by comparison on a hit.
func (d *decoder) checkUnique(name span, base, depth int, seen map[uint64]int) (map[uint64]int, bool) {
	text := d.names[name.start:name.end]
	stacked := d.stackMembers[base:]
	if len(stacked) < linearLimit {
		return seen, !d.nameIn(text, stacked)
	}
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
			s := stacked[i].name
			seen[maphash.Bytes(hashSeed, d.names[s.start:s.end])]++
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
		s := members[i].name
		if s.end-s.start == len(text) && bytes.Equal(d.names[s.start:s.end], text) {
			return true
		}
	}
	return false
}
