package model

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/vllm-sr/systemone/gen/load"
	"github.com/vllm-sr/systemone/runtime/table"
)

// The tests below pin the spec decisions the model carries as data: each
// fails when its spec entry or the model's use of it goes.

func member(t *testing.T, m *Model, id table.SchemaID, level table.Level, name string) *Member {
	t.Helper()
	s := m.Schema(id)
	if s == nil {
		t.Fatalf("no schema %s", id)
	}
	msg := s.Message(level)
	if msg == nil || msg.Member(name) == nil {
		t.Fatalf("%s has no %s.%s", id, level, name)
	}
	return msg.Member(name)
}

// model is optional on vllm-sr/5.0 (the API guide), by an override with
// its reason; the standard keeps it required.
func TestModelOptionalOnVllmSR50(t *testing.T) {
	m := repoModel(t)
	if !member(t, m, table.SchemaStandard02, table.LevelRequest, "model").Required {
		t.Error("systemone/0.2 must keep model required")
	}
	for _, id := range []table.SchemaID{table.SchemaVllmSR50, table.SchemaVllmSR40, table.SchemaInternal} {
		if member(t, m, id, table.LevelRequest, "model").Required {
			t.Errorf("%s requires model", id)
		}
	}
	if f := m.Field(SpecStandard, table.LevelRequest, "model"); f == nil || !f.Required {
		t.Error("the standard's own field must stay required; the override belongs to the schemas")
	}
	found := false
	for _, o := range m.Overrides {
		if o.Level == table.LevelRequest && o.Name == "model" && o.WithinLevel == "" {
			found = o.Required != nil && !*o.Required && o.Reason != "" && slices.Contains(o.Schemas, table.SchemaVllmSR50)
		}
	}
	if !found {
		t.Error("no override with a reason makes request.model optional on vllm-sr/5.0")
	}
}

// A vllm-sr/5.0 or 4.0 batch's items follow the request message without
// options; the internal bundle's items are complete internal requests,
// options included.
func TestBatchEntriesHaveNoOptions(t *testing.T) {
	m := repoModel(t)
	for _, id := range []table.SchemaID{table.SchemaVllmSR50, table.SchemaVllmSR40, table.SchemaInternal} {
		entry := m.Schema(id).Entry(table.LevelBatch, "requests")
		if entry == nil || entry.Level != table.LevelRequest {
			t.Fatalf("%s: no entry message for batch.requests", id)
		}
		wantOptions := id == table.SchemaInternal
		if (entry.Member("options") != nil) != wantOptions || entry.Member("questions") == nil {
			t.Errorf("%s: batch items %v, want the request's members (options: %v)", id, memberNames(entry), wantOptions)
		}
	}
	for _, o := range m.Overrides {
		if o.Level == table.LevelRequest && o.Name == "options" && o.WithinLevel == table.LevelBatch {
			if !slices.Equal(o.Schemas, []table.SchemaID{table.SchemaVllmSR50, table.SchemaVllmSR40}) {
				t.Errorf("the batch-item options override applies to %v, want vllm-sr/5.0 and vllm-sr/4.0 only", o.Schemas)
			}
		}
	}
	if m.Schema(table.SchemaStandard02).Entries != nil {
		t.Error("the standard has no batch, so no entry messages")
	}
}

// 4.0's question type is required unless a preset is present (the
// contract's anyOf), and its criteria are optional where the type has two
// spellings; 5.0 keeps both required.
func TestPresetOnlyQuestionOnVllmSR40(t *testing.T) {
	m := repoModel(t)
	if f := m.Field(SpecContract40, table.LevelQuestion, "type"); f == nil || !f.Required || !slices.Equal(f.RequiredUnless, []string{"preset"}) {
		t.Fatalf("the 4.0 contract's question type = %+v, want required unless preset", f)
	}
	if got := member(t, m, table.SchemaVllmSR50, table.LevelQuestion, "type"); !got.Required || len(got.RequiredUnless) > 0 {
		t.Errorf("5.0 question type = %+v, want required outright", got)
	}
	for _, qt := range []table.QuestionType{table.QuestionChoice, table.QuestionScore, table.QuestionSet, table.QuestionSpan} {
		if m.Schema(table.SchemaVllmSR40).QuestionType(qt).Criteria.Required {
			t.Errorf("4.0 %s criteria are required", qt)
		}
		if !m.Schema(table.SchemaVllmSR50).QuestionType(qt).Criteria.Required {
			t.Errorf("5.0 %s criteria are optional", qt)
		}
	}
}

// The internal form has 4.0's members at every level, with roles nullable
// there alone.
func TestInternalFormIsVllmSR40WithNullableRoles(t *testing.T) {
	m := repoModel(t)
	internal, v40 := m.Schema(table.SchemaInternal), m.Schema(table.SchemaVllmSR40)
	if internal == nil || internal.Accepts != table.SchemaVllmSR40 || internal.Description == "" {
		t.Fatalf("internal schema = %+v, want one that accepts vllm-sr/4.0, described", internal)
	}
	if len(internal.Messages) != len(v40.Messages) {
		t.Fatalf("internal has %d messages, 4.0 %d", len(internal.Messages), len(v40.Messages))
	}
	for i, msg := range v40.Messages {
		if got := internal.Messages[i]; got.Level != msg.Level || !slices.Equal(memberNames(&got), memberNames(&msg)) {
			t.Errorf("internal %s members %v, 4.0 %s %v", got.Level, memberNames(&got), msg.Level, memberNames(&msg))
		}
	}
	if !member(t, m, table.SchemaInternal, table.LevelRequest, "roles").Type.Nullable {
		t.Error("internal roles must be nullable (roles: null is no roles)")
	}
	if member(t, m, table.SchemaVllmSR40, table.LevelRequest, "roles").Type.Nullable {
		t.Error("4.0 roles must not be nullable")
	}
	if f := m.Field(SpecContract40, table.LevelQuestion, "choices"); !slices.Contains(f.Schemas, table.SchemaInternal) {
		t.Errorf("4.0 fields are accepted by %v, not the internal form", f.Schemas)
	}
}

// A field's question types stay in the spec's order.
func TestQuestionTypesKeepSpecOrder(t *testing.T) {
	m := repoModel(t)
	f := m.Field(SpecExtensions, table.LevelQuestion, "decision_adapter")
	want := []table.QuestionType{table.QuestionChoice, table.QuestionNoul, table.QuestionScore}
	if f == nil || !slices.Equal(f.QuestionTypes, want) {
		t.Fatalf("decision_adapter question types = %v, want the spec's %v", f.QuestionTypes, want)
	}
}

func memberNames(msg *Message) []string {
	var out []string
	for _, m := range msg.Members {
		out = append(out, m.Name)
	}
	return out
}

// TestBuildRefusesBadOverrides: an override must name a defined field, a
// within that is a map of the field's level, and allowed only with within.
func TestBuildRefusesBadOverrides(t *testing.T) {
	cases := map[string]string{
		"{field: request.colour, required: false, reason: r}":                      "override of request.colour: no spec defines that field",
		"{field: request.options, within: batch.model, allowed: false, reason: r}": "override of request.options within batch.model: that member is not a map or array of request",
		"{field: request.options, allowed: false, reason: r}":                      "allowed needs within",
	}
	for entry, msg := range cases {
		fsys := repoFS(t)
		path := load.DefaultPaths().Extensions
		spec := string(fsys[path].Data)
		if !strings.Contains(spec, "\noverrides:\n") {
			t.Fatal("the extension spec has no overrides section")
		}
		fsys[path] = &fstest.MapFile{Data: []byte(strings.Replace(spec, "\noverrides:\n", "\noverrides:\n  - "+entry+"\n", 1))}
		raw, err := load.Load(fsys, load.DefaultPaths())
		if err != nil {
			t.Fatalf("%s: the loader refused it: %v", entry, err)
		}
		if _, err := Build(raw); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: Build = %v, want %q", entry, err, msg)
		}
	}
}

// The track question type declares its answer member track: an answer
// field of that question type alone, with the type's version and
// families, never sent by a standard server, accepted wherever the
// extension set is, and listed among the type's answer members.
func TestTrackDeclaresItsAnswerMember(t *testing.T) {
	m := repoModel(t)
	f := m.Field(SpecExtensions, table.LevelAnswer, "track")
	if f == nil {
		t.Fatal("the extension spec defines no answer member track")
	}
	qt := m.Field(SpecExtensions, table.LevelQuestionType, "track")
	if f.DeclaredBy != table.QuestionTrack || !slices.Equal(f.QuestionTypes, []table.QuestionType{table.QuestionTrack}) {
		t.Errorf("answer.track declared by %q for question types %v, want the track question type alone", f.DeclaredBy, f.QuestionTypes)
	}
	if f.Since != qt.Since || !slices.Equal(f.Families, qt.Families) || f.Disposition != table.DispositionNeverSent {
		t.Errorf("answer.track since %q families %v disposition %q, want the question type's %q %v and never_sent", f.Since, f.Families, f.Disposition, qt.Since, qt.Families)
	}
	if !slices.Equal(f.Schemas, []table.SchemaID{table.SchemaVllmSR50, table.SchemaVllmSR40, table.SchemaInternal}) {
		t.Errorf("answer.track schemas %v, want every schema with the extension set", f.Schemas)
	}
	for _, id := range f.Schemas {
		shape := m.Schema(id).QuestionType(table.QuestionTrack)
		if shape == nil || !slices.Contains(shape.AnswerMembers, "track") {
			t.Errorf("%s: the track question type's answer members lack track", id)
		}
		if box := m.Schema(id).QuestionType(table.QuestionBox); box != nil && slices.Contains(box.AnswerMembers, "track") {
			t.Errorf("%s: the box question type lists the answer member track", id)
		}
	}
}
