package ir

import "github.com/vllm-sr/systemone/runtime/jsonvalue"

// FormMediaInFront is the diagnostic form a vllm-sr/4.0 listener records
// for an array state of asset placeholders in front of one item: 4.0 keeps
// it an array that labels its assets, where vllm-sr/5.0 reads it as
// MediaInFront. It is one of the two overlaps of the 4.0 listener.
const FormMediaInFront = "media_in_front"

// MediaInFront is vllm-sr/5.0's reading of an array state whose items are
// image placeholders, then video placeholders, then exactly one other item:
// the state is that item, with the placeholders' media in front of it, as
// Decision 3 reads a turn's images. It is data beside the IR's State (which
// keeps the array as written), for an engine to read.
type MediaInFront struct {
	// Placeholders are the assets placed in front of the item, in order:
	// images first, then videos.
	Placeholders []string
	// Item is the one other item: what the questions are about.
	Item jsonvalue.Value
}

// ReadMediaInFront reports whether state has the shape of MediaInFront
// given the request's assets, and returns the reading. At least one
// placeholder is required: a one-item array is not media in front of
// anything. A placeholder is an array item that is a string naming an
// asset exactly; images must all come before videos.
func ReadMediaInFront(state jsonvalue.Value, assets []Asset) (MediaInFront, bool) {
	items := state.Items()
	if state.Kind() != jsonvalue.KindArray || len(items) < 2 || len(assets) == 0 {
		return MediaInFront{}, false
	}
	last := len(items) - 1
	if _, isAsset := placeholderType(items[last], assets); isAsset {
		return MediaInFront{}, false
	}
	seenVideo := false
	placeholders := make([]string, 0, last)
	for _, it := range items[:last] {
		t, isAsset := placeholderType(it, assets)
		switch {
		case !isAsset:
			return MediaInFront{}, false
		case t == AssetVideo:
			seenVideo = true
		case seenVideo: // an image after a video
			return MediaInFront{}, false
		}
		placeholders = append(placeholders, it.Str())
	}
	return MediaInFront{Placeholders: placeholders, Item: items[last]}, true
}

// placeholderType returns the type of the asset the string item v names.
func placeholderType(v jsonvalue.Value, assets []Asset) (AssetType, bool) {
	if v.Kind() != jsonvalue.KindString {
		return "", false
	}
	s := v.Str()
	for i := range assets {
		if assets[i].Placeholder == s {
			return assets[i].Type, true
		}
	}
	return "", false
}
