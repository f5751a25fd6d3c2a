package internalwire

import (
	"strconv"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
)

// The listing shapes (listing, listing_entry, and vllm-sr/4.0's
// legacy_list_item) bound to ir.Listing in one place.

// The fixed words of vllm-sr/4.0's OpenAI listing that are values, not
// members: the listing's and an entry's object (the spec's enums [list]
// and [model]), and who owns every model.
const (
	legacyListObject = "list"
	legacyItemObject = "model" //vocab:not-spec legacy_list_item.object's enum value, not the model member
	legacyOwnedBy    = "vllm-sr"
)

// Listing writes GET /v1/models: {models: [...]}, and with Legacy first
// the OpenAI list {object: "list", data: [...]}.
func (w AnswerWriter) Listing(l *ir.Listing) ([]byte, error) {
	o := jsonvalue.OpenObject(make([]byte, 0, 256))
	if w.Legacy {
		appendStringMembers(&o, vocab.ListingObject, legacyListObject)
		o.Name(vocab.ListingData)
		o.Dst = appendJoined(o.Dst, "[]", l.Models, func(dst []byte, m *ir.ListedModel) []byte {
			item := jsonvalue.OpenObject(dst)
			appendStringMembers(&item, vocab.LegacyListItemID, m.Name, vocab.LegacyListItemObject, legacyItemObject,
				vocab.LegacyListItemOwnedBy, legacyOwnedBy)
			return item.Close()
		})
	}
	o.Name(vocab.ListingModels)
	o.Dst = appendJoined(o.Dst, "[]", l.Models, appendListed)
	return o.Close(), nil
}

func appendListed(dst []byte, m *ir.ListedModel) []byte {
	o := jsonvalue.OpenObject(dst)
	appendStringMembers(&o, vocab.ListingEntryName, m.Name, vocab.ListingEntryDescription, m.Description)
	if m.ReleaseDate != "" { // a name with no date of its own has none, never ""
		appendStringMembers(&o, vocab.ListingEntryReleaseDate, m.ReleaseDate)
	}
	if m.Version != nil {
		o.Name(vocab.ListingEntryVersion)
		o.Dst = jsonvalue.AppendString(o.Dst, *m.Version)
	}
	if m.Features != nil {
		o.Name(vocab.ListingEntryFeatures)
		o.Dst = appendStrings(o.Dst, m.Features)
	}
	o = appendContent(o, vocab.ListingEntryCard, m.Card)
	return o.Close()
}

// ReadListing reads a GET /v1/models reply: {models: [{name, description,
// release_date}]} and, with extensions, each entry's version, features and
// card. Other members are ignored.
func ReadListing(root jsonvalue.Value, extensions bool) (*ir.Listing, error) {
	models, ok := root.Get(vocab.ListingModels)
	if !ok || models.Kind() != jsonvalue.KindArray {
		return nil, malformed(ir.Path{{Name: vocab.ListingModels}}, "a listing has an array of models")
	}
	l := &ir.Listing{Models: make([]ir.ListedModel, 0, models.Len())}
	for i, m := range models.Items() {
		at := ir.Path{{Name: vocab.ListingModels}}.At(i)
		name, ok := m.Get(vocab.ListingEntryName)
		if m.Kind() != jsonvalue.KindObject || !ok || name.Kind() != jsonvalue.KindString {
			return nil, malformed(at.Key(vocab.ListingEntryName), "a listed model has a name")
		}
		lm := ir.ListedModel{Name: name.Str(), Description: stringMember(m, vocab.ListingEntryDescription),
			ReleaseDate: stringMember(m, vocab.ListingEntryReleaseDate)}
		if extensions {
			if err := readListingExtensions(m, at, &lm); err != nil {
				return nil, err
			}
		}
		l.Models = append(l.Models, lm)
	}
	return l, nil
}

func readListingExtensions(m jsonvalue.Value, at ir.Path, lm *ir.ListedModel) error {
	if v, ok := m.Get(vocab.ListingEntryVersion); ok {
		if v.Kind() != jsonvalue.KindString {
			return malformed(at.Key(vocab.ListingEntryVersion), "version is a string")
		}
		lm.Version = new(v.Str())
	}
	if f, ok := m.Get(vocab.ListingEntryFeatures); ok {
		if f.Kind() != jsonvalue.KindArray {
			return malformed(at.Key(vocab.ListingEntryFeatures), "features are an array of strings")
		}
		lm.Features = make([]string, 0, f.Len())
		for j, x := range f.Items() {
			if x.Kind() != jsonvalue.KindString {
				return malformed(at.Key(vocab.ListingEntryFeatures).At(j), "a feature is a string")
			}
			lm.Features = append(lm.Features, x.Str())
		}
	}
	if c, ok := m.Get(vocab.ListingEntryCard); ok {
		if c.Kind() != jsonvalue.KindObject {
			return malformed(at.Key(vocab.ListingEntryCard), "card is an object")
		}
		lm.Card = c
	}
	return nil
}

func appendInt(dst []byte, n int64) []byte { return strconv.AppendInt(dst, n, 10) }

// appendStringMembers writes string members: pairs is name, value, name,
// value...
func appendStringMembers(o *jsonvalue.ObjectWriter, pairs ...string) {
	for i := 0; i+1 < len(pairs); i += 2 {
		o.Name(pairs[i])
		o.Dst = jsonvalue.AppendString(o.Dst, pairs[i+1])
	}
}
