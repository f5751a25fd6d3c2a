package internalwire

import (
	"errors"
	"strconv"

	"github.com/vllm-sr/systemone/generated/fieldtable"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/table"
)

// MaxDepth bounds how deeply a body nests: room for a state of the
// standard's 64 levels inside a bundle item's wrapping, and a bound on the
// decoder's recursion for anything deeper.
const MaxDepth = 72

// DecodeRequest reads one request in the internal form. The IR aliases
// body, which the caller must not modify afterwards. The diagnostics list
// the 4.0-only forms the request used.
func DecodeRequest(body []byte) (*ir.Request, ir.Diagnostics, error) {
	root, err := parse(body)
	if err != nil {
		return nil, nil, err
	}
	var rd reader
	r, err := rd.request(root, nil)
	if err != nil {
		return nil, nil, err
	}
	return &r, rd.diags, nil
}

// DecodeBundle reads a POST /v1/bundle body: several named requests in the
// internal form, and the bundle's model and options.
func DecodeBundle(body []byte) (*ir.Batch, ir.Diagnostics, error) {
	root, err := parse(body)
	if err != nil {
		return nil, nil, err
	}
	var rd reader
	b, err := rd.bundle(root)
	if err != nil {
		return nil, nil, err
	}
	return &b, rd.diags, nil
}

func parse(body []byte) (jsonvalue.Value, error) {
	v, err := jsonvalue.Decode(body, jsonvalue.Options{MaxDepth: MaxDepth})
	if err == nil {
		return v, nil
	}
	msg := "the body is not valid JSON"
	var se *jsonvalue.SyntaxError
	if errors.As(err, &se) {
		msg += ": " + se.Reason + " at " + se.Path + " (byte " + strconv.FormatInt(se.Offset, 10) + ")"
	}
	return jsonvalue.Value{}, &ir.ProtocolError{
		Category: ir.CategoryInvalidRequest, Reason: ir.ReasonInvalidJSON, Message: msg, Cause: err,
	}
}

// reader walks one decoded body into the IR, collecting diagnostics.
type reader struct {
	diags ir.Diagnostics
}

// object checks that v is an object and returns its members.
func object(v jsonvalue.Value, path ir.Path) ([]jsonvalue.Member, error) {
	if v.Kind() != jsonvalue.KindObject {
		return nil, wrongType(path, "an object")
	}
	return v.Members(), nil
}

// nonEmptyObject is object for a map that must have at least one entry.
func nonEmptyObject(v jsonvalue.Value, path ir.Path) ([]jsonvalue.Member, error) {
	ms, err := object(v, path)
	if err == nil && len(ms) == 0 {
		err = ir.Refuse(ir.ReasonEmpty, path, "must have at least one member")
	}
	return ms, err
}

// layoutMember starts the layout record of member m.
func layoutMember(m *jsonvalue.Member) ir.LayoutMember {
	lm := ir.LayoutMember{Name: m.Name}
	if !quotedCanonically(m.RawName(), m.Name) {
		lm.RawName = m.RawName()
	}
	return lm
}

// entryLayout starts the layout of an object that is an entry of a map
// (a question, an asset, a bundle item), recording how its name was quoted.
func entryLayout(m *jsonvalue.Member, members int) ir.Layout {
	l := ir.Layout{Members: make([]ir.LayoutMember, 0, members)}
	if !quotedCanonically(m.RawName(), m.Name) {
		l.Entry = &ir.EntryName{Name: m.Name, RawName: m.RawName()}
	}
	return l
}

func unknownMember(path ir.Path) error {
	return ir.Refuse(ir.ReasonUnknownMember, path, "is not a member of the internal form")
}

// extraMember keeps a member the specs define at level that no field of
// the IR binds (see ir.Request.Extra); any other name is unknown.
func extraMember(extra *[]jsonvalue.Member, level table.Level, m *jsonvalue.Member, path ir.Path) error {
	if !fieldtable.Known(table.SchemaInternal, level, m.Name) {
		return unknownMember(path)
	}
	*extra = append(*extra, *m)
	return nil
}

// request reads one request object: a body of its own, or a bundle item.
func (rd *reader) request(v jsonvalue.Value, path ir.Path) (ir.Request, error) {
	var r ir.Request
	ms, err := object(v, path)
	if err != nil {
		return r, err
	}
	r.Roles.Mode = ir.RoleModeImplicit
	r.Layout.Members = make([]ir.LayoutMember, 0, len(ms))
	for i := range ms {
		m := &ms[i]
		lm := layoutMember(m)
		if err := rd.requestMember(&r, m, path.Key(m.Name), &lm); err != nil {
			return r, err
		}
		r.Layout.Members = append(r.Layout.Members, lm)
	}
	return r, rd.checkRequest(&r, path)
}

func (rd *reader) requestMember(r *ir.Request, m *jsonvalue.Member, p ir.Path, lm *ir.LayoutMember) error {
	var err error
	switch m.Name {
	case "model":
		var s string
		if s, err = readString(m.Value, p, lm); err == nil {
			r.Model = &s
		}
	case "state":
		if err = readContent(m.Value, p, false); err == nil {
			r.State = m.Value
		}
	case "states":
		r.States, err = readStates(m.Value, p)
		rd.diags.Add(ir.DiagnosticLegacyForm, ir.FormStates, p)
	case "roles":
		r.Roles, err = readRoles(m.Value, p, lm)
	case "questions":
		r.Questions, err = rd.questions(m.Value, p)
	case "assets", "images", "videos":
		err = rd.assets(r, m, p)
	case "options":
		r.Options, err = rd.options(m.Value, p)
	default:
		return extraMember(&r.Extra, table.LevelRequest, m, p)
	}
	return err
}

// checkRequest checks what no single member shows: one state or states,
// questions present, one asset spelling, and records implicit roles.
func (rd *reader) checkRequest(r *ir.Request, path ir.Path) error {
	hasState, hasStates := r.State.IsValid(), r.States != nil
	switch {
	case hasState && hasStates:
		return ir.Refuse(ir.ReasonConflict, path.Key("states"), "a request has state or states, not both")
	case !hasState && !hasStates:
		return ir.Refuse(ir.ReasonMissingMember, path.Key("state"), "is required")
	case r.Questions == nil:
		return ir.Refuse(ir.ReasonMissingMember, path.Key("questions"), "is required")
	}
	if r.Layout.Has("assets") && (r.Layout.Has("images") || r.Layout.Has("videos")) {
		return ir.Refuse(ir.ReasonConflict, path.Key("assets"), "a request spells its assets as assets or as images and videos, not both")
	}
	if r.Roles.Mode == ir.RoleModeImplicit && r.HasObjectState() {
		rd.diags.Add(ir.DiagnosticLegacyForm, ir.FormImplicitRoles, path)
	}
	return nil
}

func readStates(v jsonvalue.Value, path ir.Path) ([]jsonvalue.Member, error) {
	ms, err := nonEmptyObject(v, path)
	if err != nil {
		return nil, err
	}
	for i := range ms {
		if err := readContent(ms[i].Value, path.Key(ms[i].Name), false); err != nil {
			return nil, err
		}
	}
	return append([]jsonvalue.Member(nil), ms...), nil
}

func readRoles(v jsonvalue.Value, path ir.Path, lm *ir.LayoutMember) (ir.Roles, error) {
	if v.IsNull() {
		return ir.Roles{Mode: ir.RoleModeNone}, nil
	}
	ms, err := object(v, path)
	if err != nil {
		return ir.Roles{}, wrongType(path, "an object or null")
	}
	roles := ir.Roles{Mode: ir.RoleModeExplicit, Parts: make([]ir.RolePart, len(ms))}
	escaped := false
	for i := range ms {
		p := path.Key(ms[i].Name)
		val := ms[i].Value
		if val.Kind() != jsonvalue.KindString {
			return ir.Roles{}, wrongType(p, "user, context or answer")
		}
		role := ir.Role(val.Str())
		if !role.Valid() {
			return ir.Roles{}, ir.Refuse(ir.ReasonUnknownValue, p, "must be user, context or answer")
		}
		roles.Parts[i] = ir.RolePart{Key: ms[i].Name, Role: role}
		escaped = escaped || !quotedCanonically(ms[i].RawName(), ms[i].Name) || !quotedCanonically(val.Raw(), string(role))
	}
	if escaped {
		note(lm, jsonvalue.Compact(v), appendRoles(nil, roles.Parts))
	}
	return roles, nil
}
