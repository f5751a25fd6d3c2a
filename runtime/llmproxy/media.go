package llmproxy

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
)

// A rule whose input names image or video reads the turn's media: the
// images and videos of the last user turn, in the order the turn gives
// them, sent as assets placed in front of the state's parts (the API
// guide's layout, ["⟦img-1⟧", "⟦vid-1⟧", {parts}]).
//
// The Router fetches nothing: a medium goes only as the bytes the body
// carries, a base64 data: URL (Chat Completions' image_url and vLLM's
// video_url, the Responses API's input_image) or a base64 source
// (Messages' image). A remote URL or a file id, or a type or format no
// asset type takes (vocab.AssetFormats), makes the turn's media of that
// type unreadable: a rule that reads them has its answers unknown
// (media_not_read), without a call, and its on_unknown decides; a rule that
// does not read them is not affected.

// medium is one image or video of a turn, as an asset would carry it.
type medium struct {
	typ    ir.AssetType
	format string
	data   jsonvalue.Value // the base64 text, a JSON string
}

// Media are a turn's media and the types it has media of that the
// Router cannot send.
type Media struct {
	media  []medium
	unread []ir.AssetType
}

// The placeholders of the turn's media, numbered from 1 per type.
const (
	imagePlaceholder = "⟦img-%d⟧" //vocab:not-spec the API guide's placeholder spelling, data
	videoPlaceholder = "⟦vid-%d⟧" //vocab:not-spec the API guide's placeholder spelling, data
)

// mediaPart is a content part that may carry a medium, in any of the LLM
// APIs' spellings.
type mediaPart struct {
	Type string `json:"type"`
	// ImageURL is Chat Completions' {"url": ...} or the Responses API's
	// string; VideoURL vLLM's {"url": ...}.
	ImageURL json.RawMessage `json:"image_url"`
	VideoURL json.RawMessage `json:"video_url"`
	FileID   string          `json:"file_id"`
	// Source is Messages' {"type": "base64", "media_type", "data"} (or
	// "url", "file").
	Source *struct {
		Type      string `json:"type"`
		MediaType string `json:"media_type"`
		Data      string `json:"data"`
	} `json:"source"`
}

// contentMedia reads the media of one message's content: a list of parts
// (a string content has none).
func contentMedia(raw json.RawMessage) Media {
	var parts []mediaPart
	var out Media
	if len(raw) == 0 || raw[0] != '[' || json.Unmarshal(raw, &parts) != nil {
		return out
	}
	for _, p := range parts {
		switch p.Type {
		case "image_url", "input_image": //vocab:not-spec the LLM APIs' content part types
			out.add(ir.AssetImage, p.dataURL(p.ImageURL), p.FileID == "")
		case "video_url": //vocab:not-spec vLLM's content part type
			out.add(ir.AssetVideo, p.dataURL(p.VideoURL), true)
		case "image": //vocab:not-spec Messages' content part type
			if p.Source != nil && p.Source.Type == "base64" {
				out.add(ir.AssetImage, p.Source.MediaType+";base64,"+p.Source.Data, true)
			} else {
				out.add(ir.AssetImage, "", false)
			}
		}
	}
	return out
}

// dataURL is the text after "data:" of a URL that is a data: URL, "" for
// any other (a remote URL). raw is {"url": ...} or the URL string.
func (mediaPart) dataURL(raw json.RawMessage) string {
	var url string
	if json.Unmarshal(raw, &url) != nil {
		var obj struct {
			URL string `json:"url"`
		}
		_ = json.Unmarshal(raw, &obj)
		url = obj.URL
	}
	rest, ok := strings.CutPrefix(url, "data:")
	if !ok {
		return ""
	}
	return rest
}

// add adds the medium of a data: URL's text ("image/png;base64,..."),
// where usable is false or the URL cannot be sent as an asset of typ, the
// type is unreadable.
func (t *Media) add(typ ir.AssetType, data string, usable bool) {
	mime, payload, found := strings.Cut(data, ",")
	mediaType, base64, _ := strings.Cut(mime, ";")
	main, format, _ := strings.Cut(strings.ToLower(mediaType), "/")
	if !usable || !found || base64 != "base64" || main != string(typ) || !slices.Contains(vocab.AssetFormats[main], format) {
		if !slices.Contains(t.unread, typ) {
			t.unread = append(t.unread, typ)
		}
		return
	}
	t.media = append(t.media, medium{typ: typ, format: format, data: jsonvalue.String(payload)})
}

// ForRule are the assets and placeholders of the turn's media of the types
// the rule reads, images first, each type in the turn's order.
func (t *Media) ForRule(types []ir.AssetType) (assets []ir.Asset, placeholders []jsonvalue.Value) {
	for _, typ := range types {
		n := 0
		for _, m := range t.media {
			if m.typ != typ {
				continue
			}
			n++
			spelling := imagePlaceholder
			if typ == ir.AssetVideo {
				spelling = videoPlaceholder
			}
			name := fmt.Sprintf(spelling, n)
			format := m.format
			assets = append(assets, ir.Asset{Placeholder: name, Type: typ, Format: &format, DataBase64: m.data})
			placeholders = append(placeholders, jsonvalue.String(name))
		}
	}
	return assets, placeholders
}

// UnreadFor is the first type the rule reads that the turn has a medium
// of the Router cannot send; "" for none.
func (t *Media) UnreadFor(types []ir.AssetType) ir.AssetType {
	for _, typ := range types {
		if slices.Contains(t.unread, typ) {
			return typ
		}
	}
	return ""
}

// Bytes is the size of the base64 text of the turn's media of the
// given types.
func (t *Media) Bytes(types []ir.AssetType) int64 {
	var n int64
	for _, m := range t.media {
		if slices.Contains(types, m.typ) {
			n += int64(len(m.data.Raw()))
		}
	}
	return n
}

// OfTypes is one empty medium of each type: the shape of what a rule
// reading them sends, for checking a deployment's capabilities before any
// turn (the start check).
func OfTypes(types []ir.AssetType) Media {
	var t Media
	for _, typ := range types {
		t.media = append(t.media, medium{typ: typ, format: vocab.AssetFormats[string(typ)][0], data: jsonvalue.String("")})
	}
	return t
}
