package jsonvalue

import (
	"bytes"
	"hash/maphash"
)

// nameSpan is where one member's decoded name lies in the decoder's arena.
type nameSpan struct{ start, end int }

// hashSeed keys the name hashes that find duplicates in large objects.
var hashSeed = maphash.MakeSeed()

func (d *decoder) object(depth int) (Value, bool) {
	if !d.checkDepth(depth) {
		return Value{}, false
	}
	d.pos++ // '{'
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == '}' {
		d.pos++
		return Value{kind: KindObject, members: []Member{}}, true
	}
	base := len(d.members)
	var seen map[uint64]int
	for {
		rawName, span, ok := d.memberName()
		if !ok {
			return Value{}, false
		}
		if seen, ok = d.checkUnique(span, base, depth, seen); !ok {
			d.fail(d.pos-len(rawName), ReasonDuplicateMember, "a member name repeats in its object")
			d.path = append(d.path, pathSegment{name: string(d.names[span.start:span.end])})
			return Value{}, false
		}
		if ok = d.colon(); ok {
			var v Value
			if v, ok = d.value(depth); ok {
				// Name is set once the document is read (nameMembers).
				d.members = append(d.members, Member{RawName: rawName, Value: v})
				d.spans = append(d.spans, span)
			}
		}
		if !ok {
			d.path = append(d.path, pathSegment{name: string(d.names[span.start:span.end])})
			return Value{}, false
		}
		d.skipSpace()
		if d.pos >= len(d.data) {
			return Value{}, d.failEnd()
		}
		switch d.data[d.pos] {
		case ',':
			d.pos++
			d.skipSpace()
			continue
		case '}':
			d.pos++
		default:
			return Value{}, d.fail(d.pos, ReasonInvalidSyntax, "expected ',' or '}' after a member")
		}
		break
	}
	d.membersHW = max(d.membersHW, len(d.members))
	members := make([]Member, len(d.members)-base)
	copy(members, d.members[base:])
	d.members = d.members[:base]
	d.spans = d.spans[:base]
	return Value{kind: KindObject, members: members}, true
}

// memberName reads a member's name, leaves d.pos just past it, and decodes
// it into the arena.
func (d *decoder) memberName() (raw []byte, span nameSpan, ok bool) {
	if d.pos >= len(d.data) {
		return nil, span, d.failEnd()
	}
	if d.data[d.pos] != '"' {
		return nil, span, d.fail(d.pos, ReasonInvalidSyntax, "expected a member name")
	}
	start := d.pos
	escaped, ok := d.str()
	if !ok {
		return nil, span, false
	}
	raw = d.data[start:d.pos]
	span.start = len(d.names)
	if escaped {
		d.names = appendUnquoted(d.names, raw)
	} else {
		d.names = append(d.names, raw[1:len(raw)-1]...)
	}
	span.end = len(d.names)
	d.nameEnds = append(d.nameEnds, span.end)
	return raw, span, true
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

// checkUnique reports whether the name at span is new among the members
// stacked from base: by comparison for the first linearLimit members, then
// by a set of name hashes kept per depth (built on first need and returned
// for the next calls), confirmed by comparison on a hit.
func (d *decoder) checkUnique(span nameSpan, base, depth int, seen map[uint64]int) (map[uint64]int, bool) {
	name := d.names[span.start:span.end]
	stacked := d.spans[base:]
	if len(stacked) < linearLimit {
		return seen, !d.nameIn(name, stacked)
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
		for _, s := range stacked {
			seen[maphash.Bytes(hashSeed, d.names[s.start:s.end])]++
		}
	}
	h := maphash.Bytes(hashSeed, name)
	if seen[h] > 0 && d.nameIn(name, stacked) {
		return seen, false
	}
	seen[h]++
	return seen, true
}

// nameIn reports whether name equals one of the names at spans.
func (d *decoder) nameIn(name []byte, spans []nameSpan) bool {
	for _, s := range spans {
		if bytes.Equal(d.names[s.start:s.end], name) {
			return true
		}
	}
	return false
}

// nameMembers gives every member of v, in document order, its name from
// arena, where ends[*next] ends the next one (it starts where the one
// before ends).
func nameMembers(v *Value, arena string, ends []int, next *int) {
	switch v.kind {
	case KindObject:
		for i := range v.members {
			m := &v.members[i]
			start := 0
			if *next > 0 {
				start = ends[*next-1]
			}
			m.Name = arena[start:ends[*next]]
			*next++
			nameMembers(&m.Value, arena, ends, next)
		}
	case KindArray:
		for i := range v.items {
			if k := v.items[i].kind; k == KindObject || k == KindArray {
				nameMembers(&v.items[i], arena, ends, next)
			}
		}
	}
}
