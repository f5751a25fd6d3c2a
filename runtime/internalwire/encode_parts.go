package internalwire

import (
	"github.com/vllm-sr/systemone/runtime/ir"
)

// appendRolesMember writes roles as the internal form spells each mode:
// implicit is no member at all, none is null, explicit is the object.
func appendRolesMember(o *objectWriter, roles ir.Roles) {
	switch roles.Mode {
	case ir.RoleModeNone:
		o.name("roles")
		o.dst = append(o.dst, "null"...)
	case ir.RoleModeExplicit:
		o.scalar("roles", func(d []byte) []byte { return appendRoles(d, roles.Parts) })
	}
}

func appendRoles(dst []byte, parts []ir.RolePart) []byte {
	dst = append(dst, '{')
	for i, p := range parts {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendKey(dst, nil, p.Key)
		dst = appendString(dst, string(p.Role))
	}
	return append(dst, '}')
}

func hasAssetOf(assets []ir.Asset, t ir.AssetType) bool {
	for i := range assets {
		if assets[i].Type == t {
			return true
		}
	}
	return false
}

var assetSlots = []string{"type", "format", "data_base64"}

// appendAssets writes the assets of type only (all when only is empty,
// the assets spelling). Under 4.0's images and videos an asset's type is
// written only where it was read, or where nothing was recorded.
func appendAssets(dst []byte, assets []ir.Asset, only ir.AssetType) []byte {
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
		dst = appendKey(dst, a.Layout.NameFor(a.Placeholder), a.Placeholder)
		writeType := only == "" || a.Layout.IsZero() || a.Layout.Has("type")
		o := objectWriter{dst: append(dst, '{'), layout: &a.Layout, extra: a.Extra}
		o.each(assetSlots, func(slot string) {
			switch {
			case slot == "type" && writeType:
				o.scalar("type", func(d []byte) []byte { return appendString(d, string(a.Type)) })
			case slot == "format" && a.Format != nil:
				o.scalar("format", func(d []byte) []byte { return appendString(d, *a.Format) })
			case slot == "data_base64":
				o.name("data_base64")
				o.dst = append(o.dst, a.Data.Raw()...)
			}
		})
		dst = append(o.dst, '}')
	}
	return append(dst, '}')
}

var optionSlots = []string{"deadline_ms", "return_meta", "max_tokens", "long_context"}

func appendOptions(dst []byte, opts *ir.Options) []byte {
	o := objectWriter{dst: append(dst, '{'), layout: &opts.Layout, extra: opts.Extra}
	o.each(optionSlots, func(slot string) {
		switch slot {
		case "deadline_ms":
			appendIntMember(&o, slot, opts.DeadlineMs)
		case "return_meta":
			appendBoolMember(&o, slot, opts.ReturnMeta)
		case "max_tokens":
			appendIntMember(&o, slot, opts.MaxTokens)
		case "long_context":
			appendBoolMember(&o, slot, opts.LongContext)
		}
	})
	return append(o.dst, '}')
}
