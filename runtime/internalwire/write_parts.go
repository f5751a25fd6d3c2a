package internalwire

import (
	"github.com/vllm-sr/systemone/generated/fieldtable"
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/table"
)

// appendRoles writes roles. The internal form spells each mode: implicit
// is no member at all, none is null, explicit is the object. vllm-sr/5.0
// has no implicit roles, so they are written as the explicit roles they
// stand for (ExplicitRoles), and no roles as no member.
func (w Writer) appendRoles(o *objectWriter, r *ir.Request, at ir.Path) error {
	roles := r.Roles
	if !w.Lossless {
		roles = ExplicitRoles(r)
	}
	switch roles.Mode {
	case ir.RoleModeImplicit:
	case ir.RoleModeNone:
		if w.Lossless {
			o.name(vocab.RequestRoles)
			o.Dst = append(o.Dst, "null"...)
		}
	case ir.RoleModeExplicit:
		o.scalar(vocab.RequestRoles, func(d []byte) []byte { return appendRoleParts(d, roles.Parts) })
	default:
		return invalidIR(at.Key(vocab.RequestRoles), ir.ReasonUnsetMode, "the request's role mode is unset")
	}
	return nil
}

// ExplicitRoles returns the roles a request's state parts have, spelled
// out: explicit roles and no roles as they are, and 4.0's implicit roles as
// the explicit roles they stand for, each key of an object state with the
// role the generated table gives its part name (fieldtable.ImplicitRole).
// In the states form the keys of every object state count, in order of
// first appearance. A request whose states are not objects has no parts,
// so its implicit roles are no roles.
func ExplicitRoles(r *ir.Request) ir.Roles {
	if r.Roles.Mode != ir.RoleModeImplicit {
		return r.Roles
	}
	var parts []ir.RolePart
	seen := map[string]bool{}
	add := func(state jsonvalue.Value) {
		for _, m := range state.Members() {
			if !seen[m.Name] {
				seen[m.Name] = true
				parts = append(parts, ir.RolePart{Key: m.Name, Role: ir.Role(fieldtable.ImplicitRole(m.Name))})
			}
		}
	}
	add(r.State)
	for _, s := range r.States {
		add(s.Value)
	}
	if parts == nil {
		return ir.Roles{Mode: ir.RoleModeNone}
	}
	return ir.Roles{Mode: ir.RoleModeExplicit, Parts: parts}
}

func appendRoleParts(dst []byte, parts []ir.RolePart) []byte {
	return appendJoined(dst, "{}", parts, func(dst []byte, p *ir.RolePart) []byte {
		return jsonvalue.AppendString(appendKey(dst, nil, p.Key), string(p.Role))
	})
}

var assetSlots = []string{vocab.AssetType, vocab.AssetFormat, vocab.AssetDataBase64}

// appendAssets writes the assets of type only (all when only is empty,
// the assets spelling). Under 4.0's images and videos an asset's type is
// written only where it was read, or where nothing was recorded.
func (w Writer) appendAssets(dst []byte, assets []ir.Asset, only ir.AssetType) []byte {
	dst = append(dst, '{')
	n := 0
	for i := range assets {
		a := &assets[i]
		if only != "" && a.Type != only {
			continue
		}
		if n > 0 {
			dst = append(dst, ',')
		}
		n++
		dst = appendKey(dst, w.rawName(&a.Layout, a.Placeholder), a.Placeholder)
		writeType := only == "" || a.Layout.IsZero() || a.Layout.Has(vocab.AssetType)
		o := w.object(dst, &a.Layout, a.Extra, table.LevelAsset)
		o.each(assetSlots, nil, func(slot string) {
			switch {
			case slot == vocab.AssetType && writeType:
				o.scalar(slot, func(d []byte) []byte { return jsonvalue.AppendString(d, string(a.Type)) })
			case slot == vocab.AssetFormat && a.Format != nil:
				o.scalar(slot, func(d []byte) []byte { return jsonvalue.AppendString(d, *a.Format) })
			case slot == vocab.AssetDataBase64:
				// The data as read: multi-megabyte payloads are never
				// re-escaped.
				o.name(slot)
				o.Dst = append(o.Dst, a.Data.Raw()...)
			}
		})
		dst = o.Close()
	}
	return append(dst, '}')
}

var optionSlots = []string{vocab.OptionsDeadlineMs, vocab.OptionsReturnMeta, vocab.OptionsMaxTokens, vocab.OptionsLongContext}

// appendOptions writes the options member. vllm-sr/5.0 carries
// long_context as the standard's header, never in the body, and leaves out
// options that have no member left to write.
func (w Writer) appendOptions(parent *objectWriter, opts *ir.Options) {
	o := w.object(nil, &opts.Layout, opts.Extra, table.LevelOptions)
	o.each(optionSlots, nil, func(slot string) {
		if w.skip(table.LevelOptions, slot) {
			return
		}
		switch slot {
		case vocab.OptionsDeadlineMs:
			appendIntMember(&o, slot, opts.DeadlineMs)
		case vocab.OptionsReturnMeta:
			appendBoolMember(&o, slot, opts.ReturnMeta)
		case vocab.OptionsMaxTokens:
			appendIntMember(&o, slot, opts.MaxTokens)
		case vocab.OptionsLongContext:
			if w.Lossless {
				appendBoolMember(&o, slot, opts.LongContext)
			}
		}
	})
	if o.Len() == 0 && !w.Lossless {
		return
	}
	parent.name(vocab.RequestOptions)
	parent.Dst = append(parent.Dst, o.Close()...)
}
