package internalwire

import (
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
)

// EncodeRequest writes a request in the internal form: compact, in the
// member order and spellings its Layout recorded, and in the canonical
// order with the standard spellings (criteria, assets) where it recorded
// none. It refuses an IR the internal form cannot carry as written.
func EncodeRequest(r *ir.Request) ([]byte, error) {
	return AppendRequest(make([]byte, 0, 256), r)
}

// AppendRequest appends what EncodeRequest writes to dst.
func AppendRequest(dst []byte, r *ir.Request) ([]byte, error) {
	if err := checkRequest(r); err != nil {
		return dst, err
	}
	return appendRequest(dst, r)
}

// EncodeBundle writes a bundle body: {"model"?, "requests": {...}}, each
// request a complete request in the internal form. The bundle has no
// options of its own: a batch's options (vllm-sr/5.0's) are the caller's to
// copy into each item before writing, and a Batch with Options is refused.
func EncodeBundle(b *ir.Batch) ([]byte, error) {
	return AppendBundle(make([]byte, 0, 512), b)
}

// AppendBundle appends what EncodeBundle writes to dst.
func AppendBundle(dst []byte, b *ir.Batch) ([]byte, error) {
	if len(b.Items) == 0 {
		return dst, invalidIR(ir.Path{{Name: "requests"}}, ir.ReasonEmpty, "a bundle has at least one request")
	}
	if b.Options != nil {
		return dst, &ir.ProtocolError{Category: ir.CategoryUnsupported, Reason: ir.ReasonUnsupported,
			Path: ir.Path{{Name: "options"}}, Message: "the bundle carries options per request, not for the bundle"}
	}
	o := objectWriter{dst: append(dst, '{'), layout: &b.Layout, extra: b.Extra}
	var err error
	o.each(bundleSlots, func(slot string) {
		switch {
		case err != nil:
		case slot == "model" && b.Model != nil:
			o.scalar("model", func(d []byte) []byte { return appendString(d, *b.Model) })
		case slot == "requests":
			o.name("requests")
			o.dst, err = appendItems(o.dst, b.Items)
		}
	})
	return append(o.dst, '}'), err
}

var bundleSlots = []string{"model", "requests"}

func appendItems(dst []byte, items []ir.BatchItem) ([]byte, error) {
	dst = append(dst, '{')
	for i := range items {
		if i > 0 {
			dst = append(dst, ',')
		}
		it := &items[i]
		dst = appendKey(dst, it.Request.Layout.NameFor(it.Name), it.Name)
		var err error
		if dst, err = AppendRequest(dst, &it.Request); err != nil {
			return dst, prefixPath(err, ir.Path{{Name: "requests"}, {Name: it.Name}})
		}
	}
	return append(dst, '}'), nil
}

// requestSlots is the canonical member order of a request. Both asset
// spellings have a slot; a request writes one or the other.
var requestSlots = []string{"model", "state", "states", "roles", "questions", "assets", "images", "videos", "options"}

// appendRequest writes a checked request.
func appendRequest(dst []byte, r *ir.Request) ([]byte, error) {
	legacyAssets := !r.Layout.Has("assets") && (r.Layout.Has("images") || r.Layout.Has("videos"))
	o := objectWriter{dst: append(dst, '{'), layout: &r.Layout, extra: r.Extra}
	var err error
	o.each(requestSlots, func(slot string) {
		if err != nil {
			return
		}
		switch slot {
		case "model":
			if r.Model != nil {
				o.scalar("model", func(d []byte) []byte { return appendString(d, *r.Model) })
			}
		case "state":
			if r.State.IsValid() {
				o.name("state")
				o.dst = jsonvalue.AppendCompact(o.dst, r.State)
			}
		case "states":
			if r.States != nil {
				o.name("states")
				o.dst = appendMembers(o.dst, r.States)
			}
		case "roles":
			appendRolesMember(&o, r.Roles)
		case "questions":
			o.name("questions")
			o.dst = appendQuestions(o.dst, r.Questions)
		// An empty assets object that was read is written back: the
		// layout keeps it, and it means the same as none.
		case "assets":
			if !legacyAssets && (len(r.Assets) > 0 || r.Layout.Has("assets")) {
				o.name("assets")
				o.dst = appendAssets(o.dst, r.Assets, "")
			}
		case "images", "videos":
			t := ir.AssetImage
			if slot == "videos" {
				t = ir.AssetVideo
			}
			if legacyAssets && (hasAssetOf(r.Assets, t) || r.Layout.Has(slot)) {
				o.name(slot)
				o.dst = appendAssets(o.dst, r.Assets, t)
			}
		case "options":
			if r.Options != nil {
				o.name("options")
				o.dst = appendOptions(o.dst, r.Options)
			}
		}
	})
	return append(o.dst, '}'), err
}

// objectWriter writes one object's members: the recorded order first, then
// the canonical order for members the recording does not place, each name
// under its recorded quoting. The object's extra members (ir.Request.Extra)
// stand where they were recorded, else after every canonical slot.
type objectWriter struct {
	dst    []byte
	layout *ir.Layout
	extra  []jsonvalue.Member
	n      int
}

// each calls write once per slot of canonical, in the order to write them.
// slotOf maps a recorded member name to its slot (a criteria spelling to
// "criteria"); names that map to no slot are skipped.
func (o *objectWriter) each(canonical []string, write func(slot string)) {
	o.eachMapped(canonical, func(name string) string { return name }, write)
}

func (o *objectWriter) eachMapped(canonical []string, slotOf func(string) string, write func(slot string)) {
	var done [16]bool // canonical has at most 16 slots
	extraDone := make([]bool, len(o.extra))
	for i := range o.layout.Members {
		name := o.layout.Members[i].Name
		slot := slotOf(name)
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

// extraMember writes an extra member as it was read.
func (o *objectWriter) extraMember(m *jsonvalue.Member) {
	o.name(m.Name)
	o.dst = jsonvalue.AppendCompact(o.dst, m.Value)
}

// name writes the comma and the member's name, and returns its record.
func (o *objectWriter) name(name string) *ir.LayoutMember {
	if o.n > 0 {
		o.dst = append(o.dst, ',')
	}
	o.n++
	lm := o.layout.Member(name)
	if lm != nil && lm.RawName != nil {
		o.dst = append(o.dst, lm.RawName...)
	} else {
		o.dst = appendString(o.dst, name)
	}
	o.dst = append(o.dst, ':')
	return lm
}

// scalar writes a member whose value the IR holds decoded: canonically by
// canon, then swapped for the recorded literal while it stands for the
// same value.
func (o *objectWriter) scalar(name string, canon func([]byte) []byte) {
	lm := o.name(name)
	start := len(o.dst)
	o.dst = canon(o.dst)
	if lm != nil && lm.Raw != nil && string(o.dst[start:]) == string(lm.Canon) {
		o.dst = append(o.dst[:start], lm.Raw...)
	}
}

// appendKey writes an entry's name: its recorded quoting raw when given.
func appendKey(dst, raw []byte, name string) []byte {
	if raw != nil {
		dst = append(dst, raw...)
	} else {
		dst = appendString(dst, name)
	}
	return append(dst, ':')
}

// appendMembers writes an object of content members (states, keyed
// criteria), each name as it was read.
func appendMembers(dst []byte, ms []jsonvalue.Member) []byte {
	dst = append(dst, '{')
	for i := range ms {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendKey(dst, ms[i].RawName(), ms[i].Name)
		dst = jsonvalue.AppendCompact(dst, ms[i].Value)
	}
	return append(dst, '}')
}
