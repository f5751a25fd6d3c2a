package shapes

import (
	"bytes"
	"strconv"

	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
)

// recorder records one object's Layout while the Reader walks it: each
// member's name as written, then, once read, any literal that was not
// written canonically. With the Reader's Layout off it records nothing
// and every member's record is nil. It holds the recording itself rather
// than a pointer into the object read, so a request read without layout
// stays on the stack.
type recorder struct {
	on      bool
	entry   *ir.EntryName
	members []ir.LayoutMember
	cur     ir.LayoutMember
}

func (rd *Reader) recorder(members int) recorder {
	if !rd.Layout {
		return recorder{}
	}
	return recorder{on: true, members: make([]ir.LayoutMember, 0, members)}
}

// entryRecorder is recorder for an object that is an entry of a map (a
// question, an asset), recording how its own name was quoted too.
func (rd *Reader) entryRecorder(entry *jsonvalue.Member, members int) recorder {
	rec := rd.recorder(members)
	if rec.on && !quotedCanonically(entry.RawName(), entry.Name) {
		rec.entry = &ir.EntryName{Name: entry.Name, RawName: entry.RawName()}
	}
	return rec
}

// member starts m's record; nil when nothing is recorded.
func (rec *recorder) member(m *jsonvalue.Member) *ir.LayoutMember {
	if !rec.on {
		return nil
	}
	rec.cur = ir.LayoutMember{Name: m.Name}
	if !quotedCanonically(m.RawName(), m.Name) {
		rec.cur.RawName = m.RawName()
	}
	return &rec.cur
}

// done appends the record member started.
func (rec *recorder) done(lm *ir.LayoutMember) {
	if lm != nil {
		rec.members = append(rec.members, *lm)
	}
}

// store writes the recording into l, the object's zero Layout. With the
// recorder off it writes nothing: l stays zero, and a store of zeros into
// the heap would still cost write barriers while the collector marks.
func (rec *recorder) store(l *ir.Layout) {
	if rec.on {
		*l = ir.Layout{Entry: rec.entry, Members: rec.members}
	}
}

// The readers of the scalars the IR holds decoded: each maps a value the
// validator has checked and records a literal that was not written
// canonically on the member's record, so the writer can replay it.

func (rd *Reader) text(v jsonvalue.Value, lm *ir.LayoutMember) *string {
	return rd.textInto(new(string), v, lm)
}

// textInto is text with the string held in dst.
func (rd *Reader) textInto(dst *string, v jsonvalue.Value, lm *ir.LayoutMember) *string {
	*dst = v.Str()
	noteString(lm, v.Raw(), *dst)
	return dst
}

func (rd *Reader) integer(v jsonvalue.Value, lm *ir.LayoutMember) int64 {
	n, _ := v.Int()
	if lm != nil {
		note(lm, v.Raw(), strconv.AppendInt(nil, n, 10))
	}
	return n
}

func (rd *Reader) number(v jsonvalue.Value, lm *ir.LayoutMember) *float64 {
	f, _ := v.Float()
	if lm != nil {
		note(lm, v.Raw(), jsonvalue.AppendFloat(nil, f))
	}
	return &f
}

func boolPtr(v jsonvalue.Value) *bool {
	b := v.Bool()
	return &b
}

// note records raw on lm when it differs from the canonical canon.
func note(lm *ir.LayoutMember, raw, canon []byte) {
	if lm != nil && !bytes.Equal(raw, canon) {
		lm.Raw, lm.Canon = raw, canon
	}
}

// noteString records a string literal written with escapes the canonical
// quoting would not use. A literal without a backslash is canonical: JSON
// forbids raw control characters and quotes, and the decoder has checked
// its UTF-8.
func noteString(lm *ir.LayoutMember, raw []byte, s string) {
	if lm != nil && bytes.IndexByte(raw, '\\') >= 0 {
		note(lm, raw, jsonvalue.AppendString(nil, s))
	}
}

// quotedCanonically reports whether raw, the quoted spelling of s, is the
// canonical one.
func quotedCanonically(raw []byte, s string) bool {
	return bytes.IndexByte(raw, '\\') < 0 || bytes.Equal(raw, jsonvalue.AppendString(nil, s))
}
