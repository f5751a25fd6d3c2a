package shapes

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
		s := assetWrite{a: a, writeType: only == "" || a.Layout.IsZero() || a.Layout.Has(vocab.AssetType)}
		o := w.object(dst, &a.Layout, a.Extra, table.LevelAsset)
		// No asset member's writer fails.
		_ = o.each(assetSlots, func(slot int) error { return w.writeAssetSlot(&o, &s, slot) })
		dst = o.Close()
	}
	return append(dst, '}')
}

// assetWrite is the state of writing one asset (the binding's <level>Write
// of the asset level): writeType, whether its type is written.
type assetWrite struct {
	a         *ir.Asset
	writeType bool
}

// The asset's bound members, each written by the function the generated
// binding names for it.

func (w Writer) writeAssetType(o *objectWriter, s *assetWrite) error {
	if s.writeType {
		o.scalar(vocab.AssetType, func(d []byte) []byte { return jsonvalue.AppendString(d, string(s.a.Type)) })
	}
	return nil
}

// writeAssetDataBase64 writes the data as read: multi-megabyte payloads
// are never re-escaped.
func (w Writer) writeAssetDataBase64(o *objectWriter, s *assetWrite) error {
	o.name(vocab.AssetDataBase64)
	o.Dst = append(o.Dst, s.a.DataBase64.Raw()...)
	return nil
}

// appendOptions writes an options member under name (a request's, or a
// batch's). vllm-sr/5.0 carries long_context as the standard's header,
// never in the body, and leaves out options that have no member left to
// write.
func (w Writer) appendOptions(parent *objectWriter, name string, opts *ir.Options) {
	o := w.object(nil, &opts.Layout, opts.Extra, table.LevelOptions)
	s := optionsWrite{o: opts}
	// No options member's writer fails.
	_ = o.each(optionsSlots, func(slot int) error { return w.writeOptionsSlot(&o, &s, slot) })
	if o.Len() == 0 && !w.Lossless {
		return
	}
	parent.name(name)
	parent.Dst = append(parent.Dst, o.Close()...)
}

// optionsWrite is the state of writing one options object (the binding's
// <level>Write of the options level).
type optionsWrite struct {
	o *ir.Options
}

// The options' bound members, each written by the function the generated
// binding names for it.

// writeOptionsLongContext writes 4.0's body form of the long-context
// header, which only the internal form carries.
func (w Writer) writeOptionsLongContext(o *objectWriter, s *optionsWrite) error {
	if w.Lossless {
		appendBoolMember(o, vocab.OptionsLongContext, s.o.LongContext)
	}
	return nil
}
