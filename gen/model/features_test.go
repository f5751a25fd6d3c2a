package model

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/vllm-sr/systemone/gen/load"
)

// TestFeaturesAreSpecWords: the model's feature words are the extension
// spec's, in its order, each standing for the spec word it spells.
func TestFeaturesAreSpecWords(t *testing.T) {
	m := repoModel(t)
	var words []string
	for _, f := range m.Features {
		words = append(words, f.Feature)
	}
	if !slices.Contains(words, "preset") || slices.Contains(words, "presets") || words[0] != "noul" {
		t.Fatalf("features %v", words)
	}
	for _, f := range m.Features {
		if f.Feature == "preset" && f.Stands != "member question.preset" ||
			f.Feature == "batch" && f.Stands != "endpoint POST /v1/systemone/batch" ||
			f.Feature == "long_context" && f.Stands != "header TypeSafe-Danger-Zone-Long-Context" {
			t.Errorf("%s stands for %q", f.Feature, f.Stands)
		}
	}
}

// TestBuildRefusesBrokenFeatures: a feature word that is not the word of
// what it stands for, stands for nothing defined, names two referents or
// is listed twice fails the build at its line.
func TestBuildRefusesBrokenFeatures(t *testing.T) {
	for _, c := range []struct {
		line, msg string
		// at ends the line the problem is at, when not the inserted one.
		at string
	}{
		{"  - {feature: presets, field: question.preset, description: Trained heads.}", `feature "presets" stands for member question.preset, whose word is "preset"`, ""},
		{"  - {feature: colour, field: question.colour, description: No such member.}", `feature "colour": field question.colour is not defined`, ""},
		{"  - {feature: batches, endpoint: POST /v1/batches, description: No such endpoint.}", `feature "batches": endpoint POST /v1/batches is not defined`, ""},
		{"  - {feature: images, header: TypeSafe-Danger-Zone-Images, description: The header's symbol is images.}", "", ""},
		{"  - {feature: span, field: question_type.span, header: TypeSafe-Danger-Zone-Images, description: Two.}", `feature "span" names 2 of field, endpoint and header`, ""},
		{"  - {feature: noul, field: question_type.noul, description: Twice.}", `feature "noul" already defined at`, "description: Answers noul questions.}"},
	} {
		t.Run(c.line, func(t *testing.T) {
			fsys := repoFS(t)
			path := load.DefaultPaths().Extensions
			spec := string(fsys[path].Data)
			anchor := "\nfeatures:\n"
			if !strings.Contains(spec, anchor) {
				t.Fatal("the extension spec has no features section")
			}
			spec = strings.Replace(spec, anchor, anchor+c.line+"\n", 1)
			fsys[path] = &fstest.MapFile{Data: []byte(spec)}
			raw, err := load.Load(fsys, load.DefaultPaths())
			if err != nil {
				t.Fatalf("the loader refused it: %v", err)
			}
			_, err = Build(raw)
			if c.msg == "" {
				if err != nil {
					t.Fatalf("a header's symbol is a feature word: %v", err)
				}
				return
			}
			line := lineOf(t, []byte(spec), c.line)
			if c.at != "" {
				line = lineOf(t, []byte(spec), c.at)
			}
			if err == nil || !hasProblem(err, fmt.Sprintf("%s:%d:", path, line), c.msg) {
				t.Fatalf("want %q at line %d, got %v", c.msg, line, err)
			}
		})
	}
}
