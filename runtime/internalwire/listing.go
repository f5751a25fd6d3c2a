package internalwire

import (
	"strconv"

	"github.com/vllm-sr/systemone/generated/validate"
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

// ReadListing reads a GET /v1/models reply under the schema rs names,
// after its generated validator: {models: [{name, description,
// release_date}]} and the extension members the schema defines (each
// entry's version, features and card). A listing its schema does not
// define is a *ir.ProtocolError naming the first problem's path; members
// a systemone/0.2 listing has beyond its schema are ignored.
func ReadListing(root jsonvalue.Value, rs *Replies) (*ir.Listing, error) {
	if problems := validate.Listing(rs.schema, root); len(problems) > 0 {
		return nil, replyError(root, problems[0])
	}
	models, _ := root.Get(vocab.ListingModels)
	l := &ir.Listing{Models: make([]ir.ListedModel, 0, models.Len())}
	for _, m := range models.Items() {
		lm := ir.ListedModel{Name: stringMember(m, vocab.ListingEntryName), Description: stringMember(m, vocab.ListingEntryDescription),
			ReleaseDate: stringMember(m, vocab.ListingEntryReleaseDate)}
		for i := range listingExtensions {
			if x, ok := m.Get(listingExtensions[i].name); ok && rs.listing[i] {
				listingExtensions[i].read(x, &lm)
			}
		}
		l.Models = append(l.Models, lm)
	}
	return l, nil
}

// listingExtensions bind the extension set's listing entry members to
// ir.ListedModel; read reads a checked value.
var listingExtensions = [...]struct {
	name string
	read func(x jsonvalue.Value, lm *ir.ListedModel)
}{
	{vocab.ListingEntryVersion, func(x jsonvalue.Value, lm *ir.ListedModel) { lm.Version = new(x.Str()) }},
	{vocab.ListingEntryFeatures, func(x jsonvalue.Value, lm *ir.ListedModel) {
		lm.Features = make([]string, 0, x.Len())
		for _, f := range x.Items() {
			lm.Features = append(lm.Features, f.Str())
		}
	}},
	{vocab.ListingEntryCard, func(x jsonvalue.Value, lm *ir.ListedModel) { lm.Card = x }},
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
