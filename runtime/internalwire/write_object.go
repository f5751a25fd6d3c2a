package internalwire

import (
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/table"
)

// objectWriter writes one object's members: the recorded order first, then
// the canonical order for members the recording does not place, each name
// under its recorded quoting. The object's extra members (ir.Request.Extra)
// stand where they were recorded, else after every canonical slot. A
// canonical writer is given no recording, so it writes the canonical order
// and spellings alone.
type objectWriter struct {
	jsonvalue.ObjectWriter
	layout *ir.Layout
	extra  []jsonvalue.Member
	level  table.Level
	w      Writer
}

// noLayout is the recording a canonical writer replays: none.
var noLayout ir.Layout

func (w Writer) object(dst []byte, l *ir.Layout, extra []jsonvalue.Member, level table.Level) objectWriter {
	if !w.Lossless {
		l = &noLayout
	}
	return objectWriter{ObjectWriter: jsonvalue.OpenObject(dst), layout: l, extra: extra, level: level, w: w}
}

// each calls write once per slot of canonical, in the order to write them.
// slotOf, unless nil, maps a recorded member name to its slot (a criteria
// spelling to "criteria"); names that map to no slot are extras or skipped.
func (o *objectWriter) each(canonical []string, slotOf func(string) string, write func(slot string)) {
	var done [16]bool // canonical has at most 16 slots
	extraDone := make([]bool, len(o.extra))
	for i := range o.layout.Members {
		name := o.layout.Members[i].Name
		slot := name
		if slotOf != nil {
			slot = slotOf(name)
		}
		for j, c := range canonical {
			if c == slot && !done[j] {
				done[j] = true
				write(slot)
			}
		}
		for j := range o.extra {
			if o.extra[j].Name == name && !extraDone[j] {
				extraDone[j] = true
				o.extraMember(&o.extra[j])
			}
		}
	}
	for j, c := range canonical {
		if !done[j] {
			write(c)
		}
	}
	for j := range o.extra {
		if !extraDone[j] {
			o.extraMember(&o.extra[j])
		}
	}
}

// extraMember writes an extra member as it was read, unless the writer
// skips it.
func (o *objectWriter) extraMember(m *jsonvalue.Member) {
	if !o.w.skip(o.level, m.Name) {
		o.name(m.Name)
		o.Dst = jsonvalue.AppendCompact(o.Dst, m.Value)
	}
}

// name writes the comma and the member's name, and returns its record.
func (o *objectWriter) name(name string) *ir.LayoutMember {
	lm := o.layout.Member(name)
	if lm != nil && lm.RawName != nil {
		o.RawName(lm.RawName)
	} else {
		o.Name(name)
	}
	return lm
}

// scalar writes a member whose value the IR holds decoded: canonically by
// canon, then swapped for the recorded literal while it stands for the
// same value.
func (o *objectWriter) scalar(name string, canon func([]byte) []byte) {
	lm := o.name(name)
	start := len(o.Dst)
	o.Dst = canon(o.Dst)
	if lm != nil && lm.Raw != nil && string(o.Dst[start:]) == string(lm.Canon) {
		o.Dst = append(o.Dst[:start], lm.Raw...)
	}
}

// appendKey writes an entry's name: its recorded quoting raw when given.
func appendKey(dst, raw []byte, name string) []byte {
	if raw != nil {
		dst = append(dst, raw...)
	} else {
		dst = jsonvalue.AppendString(dst, name)
	}
	return append(dst, ':')
}

// appendMembers writes an object of content members (states, keyed
// criteria), each name as it was read by the internal form, canonically
// quoted by any other.
func (w Writer) appendMembers(dst []byte, ms []jsonvalue.Member) []byte {
	return appendJoined(dst, "{}", ms, func(dst []byte, m *jsonvalue.Member) []byte {
		var raw []byte
		if w.Lossless {
			raw = m.RawName()
		}
		return jsonvalue.AppendCompact(appendKey(dst, raw, m.Name), m.Value)
	})
}

// appendJoined writes items between the two brackets, separated by
// commas, each by one: an array's items, or an object's entries (one
// writing each entry's name and value).
func appendJoined[T any](dst []byte, brackets string, items []T, one func([]byte, *T) []byte) []byte {
	dst = append(dst, brackets[0])
	for i := range items {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = one(dst, &items[i])
	}
	return append(dst, brackets[1])
}
