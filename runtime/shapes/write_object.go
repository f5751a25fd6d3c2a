package shapes

import (
	"slices"

	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/table"
)

// objectWriter writes one object's members: the recorded order first, then
// the canonical order (the generated <level>Slots) for members the
// recording does not place, each name under its recorded quoting. The
// object's extra members (ir.Request.Extra) stand where they were
// recorded, else at their slot when the specs define them (a passive
// member), else after every slot. A canonical writer is given no
// recording, so it writes the canonical order and spellings alone.
type objectWriter struct {
	jsonvalue.ObjectWriter
	layout    *ir.Layout
	extra     []jsonvalue.Member
	extraDone []bool
	level     table.Level
	w         Writer
}

// noLayout is the recording a canonical writer replays: none.
var noLayout ir.Layout

func (w Writer) object(dst []byte, l *ir.Layout, extra []jsonvalue.Member, level table.Level) objectWriter {
	if !w.Lossless {
		l = &noLayout
	}
	return objectWriter{ObjectWriter: jsonvalue.OpenObject(dst), layout: l, extra: extra, level: level, w: w}
}

// each calls write once per slot of slots (a generated <level>Slots, at
// most 64 and each named once, which the generator holds it to), in the
// order to write them, leaving out what the writer's Skip names; then it
// writes the extra members no slot wrote. It stops at the first error.
func (o *objectWriter) each(slots []string, write func(slot int) error) error {
	var done uint64
	if len(o.extra) > 0 {
		o.extraDone = make([]bool, len(o.extra))
	}
	for i := range o.layout.Members {
		name := o.layout.Members[i].Name
		if j := slices.Index(slots, name); j >= 0 && done&(1<<j) == 0 {
			done |= 1 << j
			if !o.w.skip(o.level, slots[j]) {
				if err := write(j); err != nil {
					return err
				}
			}
		}
		o.extraNamed(name)
	}
	for j := range slots {
		if done&(1<<j) != 0 || o.w.skip(o.level, slots[j]) {
			continue
		}
		if err := write(j); err != nil {
			return err
		}
	}
	for j := range o.extra {
		if !o.extraDone[j] {
			o.extraMember(j)
		}
	}
	return nil
}

// extraNamed writes the extra members of that name not yet written: a
// passive member at its slot, or where the layout recorded it.
func (o *objectWriter) extraNamed(name string) {
	for j := range o.extra {
		if o.extra[j].Name == name && !o.extraDone[j] {
			o.extraMember(j)
		}
	}
}

// extraMember writes extra member j as it was read, unless the writer
// skips it.
func (o *objectWriter) extraMember(j int) {
	o.extraDone[j] = true
	m := &o.extra[j]
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
