package shapes

import (
	"math"

	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/table"
)

// replyObject writes one object of an answer shape: every slot of the
// generated <level>Slots in order, leaving out what the writer's Skip
// names, then the object's extra members no slot wrote. A passive member's
// extra stands at its slot (extraNamed, from the generated
// write<Level>Slot). finite is cleared by a number JSON cannot carry
// (float); close passes it on to the caller's flag. The object holds no
// pointer to its caller's locals, so writing allocates nothing but bytes.
type replyObject struct {
	jsonvalue.ObjectWriter
	extra     []jsonvalue.Member
	extraDone []bool
	level     table.Level
	w         AnswerWriter
	finite    bool
}

func (w AnswerWriter) object(dst []byte, level table.Level, extra []jsonvalue.Member) replyObject {
	return replyObject{ObjectWriter: jsonvalue.OpenObject(dst), extra: extra, level: level, w: w, finite: true}
}

// close ends the object, clearing *finite when it held a number JSON
// cannot carry.
func (o *replyObject) close(finite *bool) []byte {
	*finite = *finite && o.finite
	return o.Close()
}

// each calls write once per slot of slots not skipped, in order, then
// writes the extra members no slot wrote (an IR built in code may hold
// members of names no spec defines at the level; a read one holds passive
// members alone).
func (o *replyObject) each(slots []string, write func(slot int)) {
	if len(o.extra) > 0 {
		o.extraDone = make([]bool, len(o.extra))
	}
	for j := range slots {
		if !o.w.skip(o.level, slots[j]) {
			write(j)
		}
	}
	for j := range o.extra {
		if !o.extraDone[j] {
			o.extraMember(j)
		}
	}
}

// extraNamed writes the extra members of that name not yet written: what
// srgen's writer dispatch calls for a passive member of a reply level
// (none today, so only a spec with one, as the drill's, uses it).
//
//lint:ignore U1000 called by zz_generated.replybind.go once a reply level has a passive member
func (o *replyObject) extraNamed(name string) {
	for j := range o.extra {
		if o.extra[j].Name == name && !o.extraDone[j] {
			o.extraMember(j)
		}
	}
}

// extraMember writes extra member j as it was read, unless the writer
// skips it.
func (o *replyObject) extraMember(j int) {
	o.extraDone[j] = true
	m := &o.extra[j]
	if !o.w.skip(o.level, m.Name) {
		o.Name(m.Name)
		o.Dst = jsonvalue.AppendCompact(o.Dst, m.Value)
	}
}

// float writes name: f, or for NaN and infinities 0, clearing the flag.
func (o *replyObject) float(name string, f float64) {
	o.Name(name)
	o.Dst = appendFloat(o.Dst, f, &o.finite)
}

// str writes name: s.
func (o *replyObject) str(name, s string) {
	o.Name(name)
	o.Dst = jsonvalue.AppendString(o.Dst, s)
}

// content writes name: v unless v is absent.
func (o *replyObject) content(name string, v jsonvalue.Value) {
	if v.IsValid() {
		o.Name(name)
		o.Dst = jsonvalue.AppendCompact(o.Dst, v)
	}
}

// appendFloat appends f, or for NaN and infinities 0, clearing *finite.
// The flag is a caller's local, so writing allocates nothing but bytes.
func appendFloat(dst []byte, f float64, finite *bool) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		*finite = false
		f = 0
	}
	return jsonvalue.AppendFloat(dst, f)
}

// SkipUndefined is the Skip of an AnswerWriter for clients of schema: it
// leaves out every member schema does not define at a level (for
// systemone/0.2, the extension set's members, which a standard server
// never sends, passive ones among them). It is built once, from the
// generated member lists.
func SkipUndefined(schema table.SchemaID) func(level table.Level, name string) bool {
	defined := map[table.Level]map[string]bool{}
	for _, rs := range replyLevels {
		names := map[string]bool{}
		for _, m := range membersOf(schema, rs) {
			names[m.Name] = true
		}
		defined[rs] = names
	}
	return func(level table.Level, name string) bool {
		names, ok := defined[level]
		return ok && !names[name]
	}
}
