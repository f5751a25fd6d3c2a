package gen

import (
	"slices"
	"testing"

	"github.com/vllm-sr/systemone/generated/fieldtable"
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/table"
)

// TestTableAgreesWithVocab pins the spec words runtime/table spells by
// hand, the one runtime package exempt from TestRuntimeSpellsNoSpecName
// (generated code imports it, so it cannot import the vocabulary), to the
// generated vocabulary: a spec rename fails here, naming the constant.
func TestTableAgreesWithVocab(t *testing.T) {
	pairs := []struct {
		name       string
		table, gen string
	}{
		{"QuestionNoul", string(table.QuestionNoul), vocab.QuestionTypeNoul},
		{"QuestionChoice", string(table.QuestionChoice), vocab.QuestionTypeChoice},
		{"QuestionScore", string(table.QuestionScore), vocab.QuestionTypeScore},
		{"QuestionBox", string(table.QuestionBox), vocab.QuestionTypeBox},
		{"QuestionSet", string(table.QuestionSet), vocab.QuestionTypeSet},
		{"QuestionSpan", string(table.QuestionSpan), vocab.QuestionTypeSpan},
		{"QuestionTrack", string(table.QuestionTrack), vocab.QuestionTypeTrack},
		{"ReasonUnknownMember", string(table.ReasonUnknownMember), vocab.ReasonUnknownMember},
		{"ReasonWrongType", string(table.ReasonWrongType), vocab.ReasonWrongType},
		{"ReasonMissingMember", string(table.ReasonMissingMember), vocab.ReasonMissingMember},
		{"ReasonNotAllowedNull", string(table.ReasonNotAllowedNull), vocab.ReasonNotAllowedNull},
		{"ReasonNotInEnum", string(table.ReasonNotInEnum), vocab.ReasonNotInEnum},
		{"ReasonTooFew", string(table.ReasonTooFew), vocab.ReasonTooFew},
		{"ReasonTooMany", string(table.ReasonTooMany), vocab.ReasonTooMany},
		{"ReasonBelowMinimum", string(table.ReasonBelowMinimum), vocab.ReasonBelowMinimum},
		{"ReasonAboveMaximum", string(table.ReasonAboveMaximum), vocab.ReasonAboveMaximum},
		{"ReasonRemovedForm", string(table.ReasonRemovedForm), vocab.ReasonRemovedForm},
		{"ReasonUnknownSchema", string(table.ReasonUnknownSchema), vocab.ReasonUnknownSchema},
	}
	for _, p := range pairs {
		if p.table != p.gen {
			t.Errorf("table.%s is %q, the specs say %q", p.name, p.table, p.gen)
		}
	}
	// Every question type the specs define has its table constant.
	known := []table.QuestionType{table.QuestionNoul, table.QuestionChoice, table.QuestionScore,
		table.QuestionBox, table.QuestionSet, table.QuestionSpan, table.QuestionTrack}
	types := 0
	for _, f := range fieldtable.Fields {
		if f.Level != table.LevelQuestionType {
			continue
		}
		types++
		if !slices.Contains(known, table.QuestionType(f.Name)) {
			t.Errorf("the specs define question type %q, which runtime/table has no constant for (add table.Question* and list it here)", f.Name)
		}
	}
	if types < len(known) {
		t.Fatalf("the generated field table gives %d question types, want at least %d", types, len(known))
	}
	// The levels the runtime binds request shapes at are levels the specs
	// give members to.
	for _, level := range []table.Level{table.LevelRequest, table.LevelQuestion, table.LevelOptions,
		table.LevelAsset, table.LevelBatch, table.LevelBundle, table.LevelAnswer, table.LevelResponse} {
		if len(vocab.MembersOf(table.SchemaInternal, level)) == 0 {
			t.Errorf("the specs give the internal schema no members at level %s", level)
		}
	}
}
