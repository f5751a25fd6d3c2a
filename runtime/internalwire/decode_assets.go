package internalwire

import (
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/table"
)

// assets reads assets (each with its type) or 4.0's images or videos (type
// implied by the member, optional, and checked when given).
func (rd *reader) assets(r *ir.Request, m *jsonvalue.Member, path ir.Path) error {
	ms, err := object(m.Value, path)
	if err != nil {
		return err
	}
	var implied ir.AssetType
	switch m.Name {
	case "images":
		implied = ir.AssetImage
		rd.diags.Add(ir.DiagnosticLegacyForm, ir.FormImages, path)
	case "videos":
		implied = ir.AssetVideo
		rd.diags.Add(ir.DiagnosticLegacyForm, ir.FormVideos, path)
	}
	for i := range ms {
		p := path.Key(ms[i].Name)
		for j := range r.Assets {
			if r.Assets[j].Placeholder == ms[i].Name {
				return ir.Refuse(ir.ReasonConflict, p, "a placeholder names one asset")
			}
		}
		a, err := readAsset(&ms[i], p, implied)
		if err != nil {
			return err
		}
		r.Assets = append(r.Assets, a)
	}
	return nil
}

func readAsset(entry *jsonvalue.Member, path ir.Path, implied ir.AssetType) (ir.Asset, error) {
	a := ir.Asset{Placeholder: entry.Name, Type: implied}
	ms, err := object(entry.Value, path)
	if err != nil {
		return a, err
	}
	a.Layout = entryLayout(entry, len(ms))
	for i := range ms {
		m := &ms[i]
		lm := layoutMember(m)
		p := path.Key(m.Name)
		switch m.Name {
		case "type":
			var t *ir.AssetType
			if t, err = readEnum(m.Value, p, &lm, "image or video", ir.AssetType.Valid); err != nil {
				return a, err
			}
			if implied != "" && *t != implied {
				return a, ir.Refuse(ir.ReasonConflict, p, "does not match the member the asset is under")
			}
			a.Type = *t
		case "format":
			var s string
			if s, err = readString(m.Value, p, &lm); err != nil {
				return a, err
			}
			a.Format = &s
		case "data_base64":
			if m.Value.Kind() != jsonvalue.KindString {
				return a, wrongType(p, "a base64 string")
			}
			a.Data = m.Value
		default:
			if err := extraMember(&a.Extra, table.LevelAsset, m, p); err != nil {
				return a, err
			}
		}
		a.Layout.Members = append(a.Layout.Members, lm)
	}
	switch {
	case a.Type == "":
		return a, ir.Refuse(ir.ReasonMissingMember, path.Key("type"), "is required under assets")
	case a.Format == nil:
		return a, ir.Refuse(ir.ReasonMissingMember, path.Key("format"), "is required")
	case !a.Data.IsValid():
		return a, ir.Refuse(ir.ReasonMissingMember, path.Key("data_base64"), "is required")
	}
	return a, nil
}

func (rd *reader) options(v jsonvalue.Value, path ir.Path) (*ir.Options, error) {
	ms, err := object(v, path)
	if err != nil {
		return nil, err
	}
	o := &ir.Options{Layout: ir.Layout{Members: make([]ir.LayoutMember, 0, len(ms))}}
	for i := range ms {
		m := &ms[i]
		lm := layoutMember(m)
		p := path.Key(m.Name)
		switch m.Name {
		case "deadline_ms":
			o.DeadlineMs, err = readInt(m.Value, p, 0, &lm)
		case "return_meta":
			o.ReturnMeta, err = readBool(m.Value, p)
		case "max_tokens":
			o.MaxTokens, err = readInt(m.Value, p, 1, &lm)
		case "long_context":
			o.LongContext, err = readBool(m.Value, p)
			rd.diags.Add(ir.DiagnosticLegacyForm, ir.FormLongContext, p)
		default:
			err = extraMember(&o.Extra, table.LevelOptions, m, p)
		}
		if err != nil {
			return nil, err
		}
		o.Layout.Members = append(o.Layout.Members, lm)
	}
	return o, nil
}

// bundle reads {"model"?, "requests": {name: request}}.
func (rd *reader) bundle(v jsonvalue.Value) (ir.Batch, error) {
	var b ir.Batch
	ms, err := object(v, nil)
	if err != nil {
		return b, err
	}
	b.Layout.Members = make([]ir.LayoutMember, 0, len(ms))
	for i := range ms {
		m := &ms[i]
		lm := layoutMember(m)
		p := ir.Path{{Name: m.Name}}
		switch m.Name {
		case "model":
			var s string
			if s, err = readString(m.Value, p, &lm); err == nil {
				b.Model = &s
			}
		case "requests":
			b.Items, err = rd.bundleItems(m.Value, p)
		default:
			err = unknownMember(p)
		}
		if err != nil {
			return b, err
		}
		b.Layout.Members = append(b.Layout.Members, lm)
	}
	if b.Items == nil {
		return b, ir.Refuse(ir.ReasonMissingMember, ir.Path{{Name: "requests"}}, "is required")
	}
	return b, nil
}

func (rd *reader) bundleItems(v jsonvalue.Value, path ir.Path) ([]ir.BatchItem, error) {
	ms, err := nonEmptyObject(v, path)
	if err != nil {
		return nil, err
	}
	items := make([]ir.BatchItem, len(ms))
	for i := range ms {
		items[i].Name = ms[i].Name
		if items[i].Request, err = rd.request(ms[i].Value, path.Key(ms[i].Name)); err != nil {
			return nil, err
		}
		// The item's own name spelling belongs to its request's layout.
		if !quotedCanonically(ms[i].RawName(), ms[i].Name) {
			items[i].Request.Layout.Entry = &ir.EntryName{Name: ms[i].Name, RawName: ms[i].RawName()}
		}
	}
	return items, nil
}
