package target

import (
	"net/http"
	"strconv"

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
	models, ok := root.Get("models")
	if !ok || models.Kind() != jsonvalue.KindArray {
		return nil, malformed(ir.Path{{Name: "models"}}, "a listing has an array of models")
	}
	l := &ir.Listing{Models: make([]ir.ListedModel, 0, models.Len())}
	for i, m := range models.Items() {
		at := ir.Path{{Name: "models"}}.At(i)
		name, ok := m.Get("name")
		if m.Kind() != jsonvalue.KindObject || !ok || name.Kind() != jsonvalue.KindString {
			return nil, malformed(at.Key("name"), "a listed model has a name")
		}
		lm := ir.ListedModel{Name: name.Str(), Description: stringMember(m, "description"),
			ReleaseDate: stringMember(m, "release_date")}
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
	if v, ok := m.Get("version"); ok {
		if v.Kind() != jsonvalue.KindString {
			return malformed(at.Key("version"), "version is a string")
		}
		s := v.Str()
		lm.Version = &s
	}
	if f, ok := m.Get("features"); ok {
		if f.Kind() != jsonvalue.KindArray {
			return malformed(at.Key("features"), "features are an array of strings")
		}
		lm.Features = make([]string, 0, f.Len())
		for j, x := range f.Items() {
			if x.Kind() != jsonvalue.KindString {
				return malformed(at.Key("features").At(j), "a feature is a string")
			}
			lm.Features = append(lm.Features, x.Str())
		}
	}
	if c, ok := m.Get("card"); ok {
		if c.Kind() != jsonvalue.KindObject {
			return malformed(at.Key("card"), "card is an object")
		}
		lm.Card = c
	}
	return nil
}
