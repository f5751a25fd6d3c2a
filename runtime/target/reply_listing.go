package target

import (
	"net/http"
	"strconv"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
)

// Listing reads a GET /v1/models reply: {models: [{name, description,
// release_date}]} and, with Extensions, each entry's version, features
// and card. A non-200 status is an error naming it.
func (rd ReplyReader) Listing(status int, body []byte) (*ir.Listing, error) {
	if status != http.StatusOK {
		return nil, &ir.ProtocolError{Category: ir.CategoryInvalidRequest, Reason: ir.ReasonUnsupported,
			Message: "the upstream listing answered status " + strconv.Itoa(status)}
	}
	root, err := decode(body)
	if err != nil {
		return nil, err
	}
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
		if rd.Extensions {
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
		s := v.Str()
		lm.Version = &s
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
