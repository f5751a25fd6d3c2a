package model

import (
	"strings"

	"github.com/vllm-sr/systemone/gen/load"
	"github.com/vllm-sr/systemone/runtime/table"
)

// buildFeatures resolves the extension set's feature words. Each names
// exactly one spec word it stands for, which must exist, and is that word:
// a question type's, an asset type's or a member's name, the last segment
// of an endpoint's path, or a header's symbol. So a server's features and
// the Router's capabilities cannot spell a question type, a medium or a
// member another way than the specifications do.
func (b *builder) buildFeatures() {
	seen := map[string]load.Position{}
	for _, f := range b.raw.Extensions.Features {
		if at, dup := seen[f.Feature]; dup {
			b.problems.Add(f.Pos, "feature %q already defined at %s", f.Feature, at)
		}
		seen[f.Feature] = f.Pos
		word, stands, ok := b.featureReferent(f)
		if !ok {
			continue
		}
		if word != f.Feature {
			b.problems.Add(f.Pos, "feature %q stands for %s, whose word is %q", f.Feature, stands, word)
		}
		b.m.Features = append(b.m.Features, Feature{Feature: f.Feature, Stands: stands, Description: f.Description})
	}
}

// featureReferent is the word f's referent has and what it is, reporting a
// referent that is not exactly one defined field, endpoint or header.
func (b *builder) featureReferent(f load.FeatureEntry) (word, stands string, ok bool) {
	n := 0
	for _, r := range []string{f.Field, f.Endpoint, f.Header} {
		if r != "" {
			n++
		}
	}
	if n != 1 {
		b.problems.Add(f.Pos, "feature %q names %d of field, endpoint and header; it stands for exactly one", f.Feature, n)
		return "", "", false
	}
	switch {
	case f.Field != "":
		level, name, _ := strings.Cut(f.Field, ".")
		if !b.definesField(table.Level(level), name) {
			b.problems.Add(f.Pos, "feature %q: field %s is not defined by the standard or the extension set", f.Feature, f.Field)
			return "", "", false
		}
		what := "member " + f.Field
		switch table.Level(level) {
		case table.LevelQuestionType:
			what = "question type " + name
		case table.LevelAssetType:
			what = "asset type " + name
		}
		return name, what, true
	case f.Endpoint != "":
		if !b.hasEndpoint(f.Endpoint) {
			b.problems.Add(f.Pos, "feature %q: endpoint %s is not defined by the standard or the extension set", f.Feature, f.Endpoint)
			return "", "", false
		}
		return f.Endpoint[strings.LastIndexByte(f.Endpoint, '/')+1:], "endpoint " + f.Endpoint, true
	}
	for _, h := range b.m.Headers {
		if strings.EqualFold(h.Name, f.Header) {
			return h.Symbol, "header " + h.Name, true
		}
	}
	b.problems.Add(f.Pos, "feature %q: header %s is not defined", f.Feature, f.Header)
	return "", "", false
}

// definesField reports whether the standard or the extension set defines
// the field name at level.
func (b *builder) definesField(level table.Level, name string) bool {
	for _, f := range b.m.Fields {
		if f.Spec != SpecContract40 && f.Level == level && f.Name == name {
			return true
		}
	}
	return false
}
