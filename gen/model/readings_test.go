package model

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/vllm-sr/systemone/gen/load"
)

// The standard's openapi readings resolve: a reading of the criteria, one
// of a field's bounds, one of a field's type.
func TestOpenAPIReadings(t *testing.T) {
	m := repoModel(t)
	score := m.Field(SpecStandard, "question_type", "score").Criteria.OpenAPI
	if score == nil || score.MinCount == nil || *score.MinCount != 1 || !score.Unsets("max_count") || score.Conflict != "score levels" {
		t.Errorf("score criteria reading = %+v", score)
	}
	if qt := m.Schema("systemone/0.2").QuestionType("score"); qt.Criteria.OpenAPI != nil {
		t.Error("a schema's question type carries the standard entry's openapi reading")
	}
	noul := m.Field(SpecStandard, "answer", "noul").OpenAPI
	if noul == nil || !noul.Unsets("minimum") || !noul.Unsets("maximum") || noul.Unsets("enum") {
		t.Errorf("answer.noul reading = %+v", noul)
	}
	detail := m.Field(SpecStandard, "error", "detail").OpenAPI
	if detail == nil || detail.Type == nil || detail.Type.Items == nil || detail.Type.Items.Ref != "validation_item" {
		t.Errorf("error.detail reading = %+v", detail)
	}
}

// A reading that names no recorded conflict, unsets what the entry does
// not set, or sits on a field the document does not carry is refused,
// with its line.
func TestOpenAPIReadingChecks(t *testing.T) {
	cases := []struct{ from, to, want string }{
		{"conflict: score levels}", "conflict: no such topic}", `openapi names conflict "no such topic", which the conflicts section does not record`},
		{"openapi: {minimum: null}\n      question_types: [score]", "openapi: {maximum: null}\n      question_types: [score]",
			"field answer.score: openapi unsets maximum, which the entry does not set"},
		{"      type: map<asset>\n", "      type: map<asset>\n      openapi: {required: true}\n", "field request.assets has an openapi reading but is not documented_in openapi"},
		{"openapi: {minimum: null}\n      question_types: [score]", "openapi: {minimum: []}\n      question_types: [score]", "must be number or null"},
	}
	for _, tc := range cases {
		fsys := repoFS(t)
		path := load.DefaultPaths().Standard
		src := string(fsys[path].Data)
		if !strings.Contains(src, tc.from) {
			t.Fatalf("the standard spec lacks %q", tc.from)
		}
		fsys[path] = &fstest.MapFile{Data: []byte(strings.Replace(src, tc.from, tc.to, 1))}
		raw, err := load.Load(fsys, load.DefaultPaths())
		if err == nil {
			_, err = Build(raw)
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), path+":") {
			t.Errorf("%q: error %v; want %q with its position", tc.to, err, tc.want)
		}
	}
}
