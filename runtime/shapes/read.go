package shapes

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
// a request body, requests.<name> for a batch item). The request and the
// values its Model and Options point at are one allocation (a
// RequestBlock).
func (rd *Reader) Request(v jsonvalue.Value, path ir.Path) (*ir.Request, error) {
	b := &RequestBlock{}
	if err := rd.request(&b.Request, b, v, path); err != nil {
		return nil, err
	}
	return &b.Request, nil
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

// requestRead is the state of reading one request (the binding's
// <level>Read of the request level): the request, where the values its
// pointer fields point at go (nil: each is allocated), its path, and which
// asset spellings it used (1: assets, 2: images or videos).
type requestRead struct {
	r              *ir.Request
	block          *RequestBlock
	path           ir.Path
	assetSpellings int
	extra          *[]jsonvalue.Member
}

// request fills r, the zero Request, from v; the values its pointer
// fields point at go into b when b is not nil, else each is allocated.
func (rd *Reader) request(r *ir.Request, b *RequestBlock, v jsonvalue.Value, path ir.Path) error {
	defer rd.retain(r)
	r.Roles.Mode = ir.RoleModeNone
	if rd.Implicit {
		r.Roles.Mode = ir.RoleModeImplicit
	}
	s := requestRead{r: r, block: b, path: path, extra: &r.Extra}
	members := v.Members()
	rec := rd.recorder(len(members))
	if err := rd.readRequestMembers(&s, members, &rec); err != nil {
		return err
	}
	rec.store(&r.Layout)
	return rd.checkRequest(r, path, s.assetSpellings)
}

// The request's bound members, each read by the function the generated
// binding (zz_generated.bind.go) names for it.

// readRequestModel reads the model into the request's block when it has one
// (the values a request points at are one allocation).
func (rd *Reader) readRequestModel(s *requestRead, m *jsonvalue.Member, lm *ir.LayoutMember) error {
	if s.block != nil {
		s.r.Model = rd.textInto(&s.block.model, m.Value, lm)
	} else {
		s.r.Model = rd.text(m.Value, lm)
	}
	return nil
}

// readRequestState keeps the state as read, not a copy: when borrowed,
// retain copies it with the request's other containers in one allocation.
func (rd *Reader) readRequestState(s *requestRead, m *jsonvalue.Member, _ *ir.LayoutMember) error {
	s.r.State = m.Value
	return nil
}

// readRequestStates keeps the decoded members, capped so an append never
// writes into them.
func (rd *Reader) readRequestStates(s *requestRead, m *jsonvalue.Member, _ *ir.LayoutMember) error {
	s.r.States = m.Value.Members()[:m.Value.Len():m.Value.Len()]
	rd.legacy(ir.FormStates, s.path.Key(m.Name))
	return nil
}

func (rd *Reader) readRequestRoles(s *requestRead, m *jsonvalue.Member, lm *ir.LayoutMember) error {
	rd.roles(&s.r.Roles, m.Value, lm)
	return nil
}

func (rd *Reader) readRequestQuestions(s *requestRead, m *jsonvalue.Member, _ *ir.LayoutMember) error {
	qs, err := rd.questions(m.Value, s.path.Key(m.Name))
	if err != nil {
		return err
	}
	s.r.Questions = qs
	return nil
}

func (rd *Reader) readRequestAssets(s *requestRead, m *jsonvalue.Member, _ *ir.LayoutMember) error {
	s.assetSpellings |= 1
	return rd.assets(s.r, m, s.path.Key(m.Name), "")
}

// readRequestImages reads 4.0's images: assets whose type the member
// implies.
func (rd *Reader) readRequestImages(s *requestRead, m *jsonvalue.Member, _ *ir.LayoutMember) error {
	s.assetSpellings |= 2
	rd.legacy(ir.FormImages, s.path.Key(m.Name))
	return rd.assets(s.r, m, s.path.Key(m.Name), ir.AssetImage)
}

// readRequestVideos reads 4.0's videos, as readRequestImages its images.
func (rd *Reader) readRequestVideos(s *requestRead, m *jsonvalue.Member, _ *ir.LayoutMember) error {
	s.assetSpellings |= 2
	rd.legacy(ir.FormVideos, s.path.Key(m.Name))
	return rd.assets(s.r, m, s.path.Key(m.Name), ir.AssetVideo)
}

// readRequestOptions reads the options into the request's block, or into
// their own allocation.
func (rd *Reader) readRequestOptions(s *requestRead, m *jsonvalue.Member, _ *ir.LayoutMember) error {
	var block *optionsBlock
	if s.block != nil {
		block = &s.block.options
	} else {
		block = &optionsBlock{}
	}
	o, err := rd.optionsInto(block, m.Value, s.path, m.Name)
	if err != nil {
		return err
	}
	s.r.Options = o
	return nil
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
