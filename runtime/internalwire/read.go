package internalwire

import (
	"unsafe"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
)

// Reader is the one reader of request bodies: it maps a body that a
// generated validator has accepted into the IR. Because every member's
// name, JSON type, enum and range were checked, it only maps values and
// checks what no validator expresses: one state or states, one criteria
// member per question, one asset spelling, one asset per placeholder, a
// type for every asset under assets. It reads the standard's, the
// extension set's and vllm-sr/4.0's spellings; which of them may reach it
// is the validator's business. A member the specs define that no IR field
// binds goes to its object's Extra, in order.
type Reader struct {
	// Implicit: a request without roles has 4.0's implicit roles; else it
	// has none (vllm-sr/5.0).
	Implicit bool
	// Layout records how each object was spelled (member order, name
	// quoting, number literals and string escapes), so the internal form
	// writes it back byte for byte. Off, the reader allocates less.
	Layout bool
	// Diags receives the 4.0-only forms read; nil records nothing.
	Diags *ir.Diagnostics
	// Borrowed: the value read is a jsonvalue.Borrowed's, released once
	// the IR is read, so every container the IR keeps is a copy: a
	// request's state and its questions' instructions and criteria, in
	// one copy per request (retain), and the rarer extra members and
	// asset data each on its own (keep, extra).
	Borrowed bool
}

// keep is v as the IR may hold it: a copy when the value read is
// borrowed.
func (rd *Reader) keep(v jsonvalue.Value) jsonvalue.Value {
	if rd.Borrowed {
		return jsonvalue.Clone(v)
	}
	return v
}

// extra appends m, kept, to an object's Extra.
func (rd *Reader) extra(dst []jsonvalue.Member, m *jsonvalue.Member) []jsonvalue.Member {
	dst = append(dst, *m)
	if rd.Borrowed {
		dst[len(dst)-1].Value = jsonvalue.Clone(m.Value)
	}
	return dst
}

// retain replaces, when the value read is borrowed, the containers r
// holds that request read as they were (its state or states, its
// questions' instructions and criteria) with copies made together: one
// allocation each of members, items and containers for them all.
func (rd *Reader) retain(r *ir.Request) {
	if !rd.Borrowed {
		return
	}
	var c jsonvalue.Copier
	c.Count(r.State)
	c.CountMembers(r.States)
	for i := range r.Questions {
		q := &r.Questions[i]
		c.Count(q.Instructions)
		c.CountMembers(q.Criteria.Keyed)
		c.CountItems(q.Criteria.Levels)
	}
	// An empty object or array has a container too: what is copied is
	// decided by kind, never by length.
	if r.State.Kind() >= jsonvalue.KindArray {
		r.State = c.Value(r.State)
	}
	if r.States != nil {
		r.States = c.Members(r.States)
	}
	for i := range r.Questions {
		q := &r.Questions[i]
		if q.Instructions.Kind() >= jsonvalue.KindArray {
			q.Instructions = c.Value(q.Instructions)
		}
		if q.Criteria.Keyed != nil {
			q.Criteria.Keyed = c.Members(q.Criteria.Keyed)
		}
		if q.Criteria.Levels != nil {
			q.Criteria.Levels = c.Items(q.Criteria.Levels)
		}
	}
}

// Request reads one request object. path locates it in the body (nil for
// a request body, requests.<name> for a batch item).
func (rd *Reader) Request(v jsonvalue.Value, path ir.Path) (ir.Request, error) {
	var r ir.Request
	err := rd.request(&r, nil, v, path)
	return r, err
}

// RequestBlock is a request read by ReadBlock and the values its Model
// and Options point at, so that a caller allocating the request inside
// its own block allocates them with it: they live and die together.
type RequestBlock struct {
	Request ir.Request
	model   string
	options optionsBlock
}

// ReadBlock is Request reading into b.Request, which must be zero, with
// the values it points at held in b.
func (rd *Reader) ReadBlock(b *RequestBlock, v jsonvalue.Value, path ir.Path) error {
	return rd.request(&b.Request, b, v, path)
}

// request fills r, the zero Request, from v; the values its pointer
// fields point at go into b when b is not nil, else each is allocated.
func (rd *Reader) request(r *ir.Request, b *RequestBlock, v jsonvalue.Value, path ir.Path) error {
	defer rd.retain(r)
	r.Roles.Mode = ir.RoleModeNone
	if rd.Implicit {
		r.Roles.Mode = ir.RoleModeImplicit
	}
	var assetSpellings int
	members := v.Members()
	rec := rd.recorder(len(members))
	for i := range members {
		m := &members[i]
		lm := rec.member(m)
		switch m.Name {
		case vocab.RequestModel:
			if b != nil {
				r.Model = rd.textInto(&b.model, m.Value, lm)
			} else {
				r.Model = rd.text(m.Value, lm)
			}
		case vocab.RequestState:
			r.State = m.Value
		case vocab.RequestStates:
			r.States = m.Value.Members()[:m.Value.Len():m.Value.Len()]
			rd.legacy(ir.FormStates, path.Key(m.Name))
		case vocab.RequestRoles:
			rd.roles(&r.Roles, m.Value, lm)
		case vocab.RequestQuestions:
			qs, err := rd.questions(m.Value, path.Key(m.Name))
			if err != nil {
				return err
			}
			r.Questions = qs
		case vocab.RequestAssets, vocab.RequestImages, vocab.RequestVideos:
			assetSpellings |= assetSpelling(m.Name)
			if err := rd.assets(r, m, path.Key(m.Name)); err != nil {
				return err
			}
		case vocab.RequestOptions:
			if b != nil {
				r.Options = rd.optionsInto(&b.options, m.Value, path.Key(m.Name))
			} else {
				r.Options = rd.Options(m.Value, path.Key(m.Name))
			}
		default:
			r.Extra = rd.extra(r.Extra, m)
		}
		rec.done(lm)
	}
	rec.store(&r.Layout)
	return rd.checkRequest(r, path, assetSpellings)
}

func assetSpelling(name string) int {
	if name == vocab.RequestAssets {
		return 1
	}
	return 2
}

func (rd *Reader) checkRequest(r *ir.Request, path ir.Path, assetSpellings int) error {
	switch { // an object's members are never nil: States is nil only without states
	case r.State.IsValid() && r.States != nil:
		return ir.Refuse(ir.ReasonConflict, path.Key(vocab.RequestStates), "a request has state or states, not both")
	case !r.State.IsValid() && r.States == nil:
		return ir.Refuse(ir.ReasonMissingMember, path.Key(vocab.RequestState), "is required")
	case assetSpellings == 3:
		return ir.Refuse(ir.ReasonConflict, path.Key(vocab.RequestAssets), "a request spells its assets as assets or as images and videos, not both")
	}
	if r.Roles.Mode == ir.RoleModeImplicit && r.HasObjectState() {
		rd.legacy(ir.FormImplicitRoles, path)
	}
	return nil
}

func (rd *Reader) legacy(form string, path ir.Path) {
	if rd.Diags != nil {
		rd.Diags.Add(ir.DiagnosticLegacyForm, form, path)
	}
}

// roles reads roles into dst: null is none, an object explicit roles.
// The fields are stored one by one, not as a struct (see readCriteria).
func (rd *Reader) roles(dst *ir.Roles, v jsonvalue.Value, lm *ir.LayoutMember) {
	if v.IsNull() {
		dst.Mode = ir.RoleModeNone
		return
	}
	ms := v.Members()
	parts := make([]ir.RolePart, len(ms))
	escaped := false
	for i := range ms {
		p := &parts[i]
		p.Key = ms[i].Name
		p.Role = knownWord(ms[i].Value, roles)
		escaped = escaped || !quotedCanonically(ms[i].RawName(), ms[i].Name) ||
			!quotedCanonically(ms[i].Value.Raw(), string(p.Role))
	}
	if escaped {
		note(lm, jsonvalue.Compact(v), appendRoleParts(nil, parts))
	}
	dst.Mode = ir.RoleModeExplicit
	dst.Parts = parts
}

// Options reads an options object (a request's, or a batch's). The
// Options and the values its fields point at are one allocation.
func (rd *Reader) Options(v jsonvalue.Value, path ir.Path) *ir.Options {
	return rd.optionsInto(&optionsBlock{}, v, path)
}

// optionsInto is Options reading into block, which must be zero.
func (rd *Reader) optionsInto(block *optionsBlock, v jsonvalue.Value, path ir.Path) *ir.Options {
	o := &block.options
	members := v.Members()
	rec := rd.recorder(len(members))
	for i := range members {
		m := &members[i]
		lm := rec.member(m)
		switch m.Name {
		case vocab.OptionsDeadlineMs:
			block.deadlineMs = rd.integer(m.Value, lm)
			o.DeadlineMs = &block.deadlineMs
		case vocab.OptionsReturnMeta:
			block.returnMeta = m.Value.Bool()
			o.ReturnMeta = &block.returnMeta
		case vocab.OptionsMaxTokens:
			block.maxTokens = rd.integer(m.Value, lm)
			o.MaxTokens = &block.maxTokens
		case vocab.OptionsLongContext:
			block.longContext = m.Value.Bool()
			o.LongContext = &block.longContext
			rd.legacy(ir.FormLongContext, path.Key(m.Name))
		default:
			o.Extra = rd.extra(o.Extra, m)
		}
		rec.done(lm)
	}
	rec.store(&o.Layout)
	return o
}

// optionsBlock holds an Options and the values of its pointer fields.
type optionsBlock struct {
	options                 ir.Options
	deadlineMs, maxTokens   int64
	returnMeta, longContext bool
}

// Bundle reads a POST /v1/bundle body: {"model"?, "requests": {name:
// request}}, each item a complete request with its own options.
func (rd *Reader) Bundle(root jsonvalue.Value) (*ir.Batch, error) {
	b := &ir.Batch{}
	members := root.Members()
	rec := rd.recorder(len(members))
	for i := range members {
		m := &members[i]
		lm := rec.member(m)
		switch m.Name {
		case vocab.BundleModel:
			b.Model = rd.text(m.Value, lm)
		case vocab.BatchOptions:
			return nil, ir.Refuse(ir.ReasonNotAllowedHere, ir.Path{{Name: m.Name}},
				"the bundle carries options per request, not for the bundle")
		case vocab.BundleRequests:
			items, err := rd.items(m.Value, ir.Path{{Name: m.Name}})
			if err != nil {
				return nil, err
			}
			b.Items = items
		default:
			b.Extra = rd.extra(b.Extra, m)
		}
		rec.done(lm)
	}
	rec.store(&b.Layout)
	return b, nil
}

func (rd *Reader) items(v jsonvalue.Value, path ir.Path) ([]ir.BatchItem, error) {
	ms := v.Members()
	items := make([]ir.BatchItem, len(ms))
	for i := range ms {
		items[i].Name = ms[i].Name
		if err := rd.request(&items[i].Request, nil, ms[i].Value, path.Key(ms[i].Name)); err != nil {
			return nil, err
		}
		// The item's own name spelling belongs to its request's layout.
		if rd.Layout && !quotedCanonically(ms[i].RawName(), ms[i].Name) {
			items[i].Request.Layout.Entry = &ir.EntryName{Name: ms[i].Name, RawName: ms[i].RawName()}
		}
	}
	return items, nil
}

// knownWord is the one of words a validated string value spells, found
// without decoding it: the raw bytes between its quotes, converted in
// place (no allocation), are compared and only a constant is kept. An
// escaped spelling falls back to decoding.
func knownWord[T ~string](v jsonvalue.Value, words []T) T {
	if raw := v.Raw(); len(raw) >= 2 {
		inner := unsafe.String(&raw[1], len(raw)-2)
		for _, w := range words {
			if string(w) == inner {
				return w
			}
		}
	}
	return T(v.Str())
}

var roles = []ir.Role{ir.RoleUser, ir.RoleContext, ir.RoleAnswer}
