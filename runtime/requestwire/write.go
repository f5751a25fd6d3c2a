package requestwire

import (
	"strconv"

	"github.com/vllm-sr/systemone/runtime/internalwire"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/table"
)

// Skip reports whether the member name at level is left out. A nil Skip
// writes every member.
type Skip func(level table.Level, name string) bool

// Writer writes request bodies. The zero Writer writes the full
// vllm-sr/5.0 form.
type Writer struct {
	Skip Skip
}

func (w Writer) skip(level table.Level, name string) bool {
	return w.Skip != nil && w.Skip(level, name)
}

// AppendRequest appends r as one POST /v1/systemone body.
func (w Writer) AppendRequest(dst []byte, r *ir.Request) ([]byte, error) {
	return w.appendRequest(dst, r, true, nil)
}

// AppendBatch appends b as one POST /v1/systemone/batch body:
// {model, requests: {name: request}, options}. Items take the batch's
// model and options, so theirs are not written: a caller that needs an
// item's own options folds them into b.Options first.
func (w Writer) AppendBatch(dst []byte, b *ir.Batch) ([]byte, error) {
	if len(b.Items) == 0 {
		return dst, invalidIR(ir.Path{{Name: "requests"}}, ir.ReasonEmpty, "a batch has at least one request")
	}
	o := object{dst: append(dst, '{')}
	if b.Model != nil && !w.skip(table.LevelBatch, "model") {
		o.name("model")
		o.dst = appendString(o.dst, *b.Model)
	}
	o.name("requests")
	o.dst = append(o.dst, '{')
	for i := range b.Items {
		if i > 0 {
			o.dst = append(o.dst, ',')
		}
		it := &b.Items[i]
		o.dst = append(appendString(o.dst, it.Name), ':')
		var err error
		o.dst, err = w.appendRequest(o.dst, &it.Request, false, ir.Path{{Name: "requests"}, {Name: it.Name}})
		if err != nil {
			return o.dst, err
		}
	}
	o.dst = append(o.dst, '}')
	if b.Options != nil && !w.skip(table.LevelBatch, "options") {
		w.appendOptions(&o, b.Options)
	}
	w.appendExtra(&o, table.LevelBatch, b.Extra)
	return append(o.dst, '}'), nil
}

// appendRequest writes one request; whole is false for a batch item,
// which carries neither model nor options.
func (w Writer) appendRequest(dst []byte, r *ir.Request, whole bool, at ir.Path) ([]byte, error) {
	if r.States != nil {
		return dst, &ir.ProtocolError{Category: ir.CategoryUnsupported, Reason: ir.ReasonUnsupported,
			Path: at.Key("states"), Message: "vllm-sr/5.0 has no states form; send each state as a request of a batch"}
	}
	if !r.State.IsValid() {
		return dst, invalidIR(at.Key("state"), ir.ReasonMissingMember, "a request needs a state")
	}
	o := object{dst: append(dst, '{')}
	if whole && r.Model != nil {
		o.name("model")
		o.dst = appendString(o.dst, *r.Model)
	}
	o.name("state")
	o.dst = jsonvalue.AppendCompact(o.dst, r.State)
	if !w.skip(table.LevelRequest, "roles") {
		if err := appendRoles(&o, r, at); err != nil {
			return o.dst, err
		}
	}
	o.name("questions")
	var err error
	if o.dst, err = w.appendQuestions(o.dst, r.Questions, at.Key("questions")); err != nil {
		return o.dst, err
	}
	if len(r.Assets) > 0 {
		o.name("assets")
		o.dst = w.appendAssets(o.dst, r.Assets)
	}
	if whole && r.Options != nil && !w.skip(table.LevelRequest, "options") {
		w.appendOptions(&o, r.Options)
	}
	w.appendExtra(&o, table.LevelRequest, r.Extra)
	return append(o.dst, '}'), nil
}

func appendRoles(o *object, r *ir.Request, at ir.Path) error {
	roles := internalwire.ExplicitRoles(r)
	switch roles.Mode {
	case ir.RoleModeNone:
		return nil
	case ir.RoleModeExplicit:
		o.name("roles")
		o.dst = append(o.dst, '{')
		for i, p := range roles.Parts {
			if i > 0 {
				o.dst = append(o.dst, ',')
			}
			o.dst = append(appendString(o.dst, p.Key), ':')
			o.dst = appendString(o.dst, string(p.Role))
		}
		o.dst = append(o.dst, '}')
		return nil
	}
	return invalidIR(at.Key("roles"), ir.ReasonUnsetMode, "the request's role mode is unset")
}

func (w Writer) appendAssets(dst []byte, assets []ir.Asset) []byte {
	dst = append(dst, '{')
	for i := range assets {
		a := &assets[i]
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(appendString(dst, a.Placeholder), ':')
		o := object{dst: append(dst, '{')}
		o.name("type")
		o.dst = appendString(o.dst, string(a.Type))
		if a.Format != nil {
			o.name("format")
			o.dst = appendString(o.dst, *a.Format)
		}
		o.name("data_base64")
		o.dst = jsonvalue.AppendCompact(o.dst, a.Data)
		w.appendExtra(&o, table.LevelAsset, a.Extra)
		dst = append(o.dst, '}')
	}
	return append(dst, '}')
}

// appendOptions writes the options 5.0 has in the body; long_context is
// the standard's header and is never written. Options left with no member
// are not written at all.
func (w Writer) appendOptions(o *object, opts *ir.Options) {
	inner := object{}
	if opts.DeadlineMs != nil && !w.skip(table.LevelOptions, "deadline_ms") {
		inner.name("deadline_ms")
		inner.dst = strconv.AppendInt(inner.dst, *opts.DeadlineMs, 10)
	}
	if opts.ReturnMeta != nil && !w.skip(table.LevelOptions, "return_meta") {
		inner.name("return_meta")
		inner.dst = strconv.AppendBool(inner.dst, *opts.ReturnMeta)
	}
	if opts.MaxTokens != nil && !w.skip(table.LevelOptions, "max_tokens") {
		inner.name("max_tokens")
		inner.dst = strconv.AppendInt(inner.dst, *opts.MaxTokens, 10)
	}
	w.appendExtra(&inner, table.LevelOptions, opts.Extra)
	if inner.n == 0 {
		return
	}
	o.name("options")
	o.dst = append(append(append(o.dst, '{'), inner.dst...), '}')
}

// appendExtra writes the members no binding gives a field of its own, as
// they were read, leaving out those the skip policy names.
func (w Writer) appendExtra(o *object, level table.Level, extra []jsonvalue.Member) {
	for i := range extra {
		if !w.skip(level, extra[i].Name) {
			o.name(extra[i].Name)
			o.dst = jsonvalue.AppendCompact(o.dst, extra[i].Value)
		}
	}
}

// object writes one object's members, a comma before all but the first.
type object struct {
	dst []byte
	n   int
}

func (o *object) name(name string) {
	if o.n > 0 {
		o.dst = append(o.dst, ',')
	}
	o.n++
	o.dst = append(appendString(o.dst, name), ':')
}

func appendString(dst []byte, s string) []byte {
	return jsonvalue.AppendCompact(dst, jsonvalue.String(s))
}

func invalidIR(path ir.Path, reason ir.Reason, message string) *ir.ProtocolError {
	return &ir.ProtocolError{Category: ir.CategoryInvalidIR, Reason: reason, Path: path, Message: message}
}
