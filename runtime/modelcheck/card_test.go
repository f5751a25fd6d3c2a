package modelcheck

import (
	"slices"
	"testing"

	"github.com/vllm-sr/systemone/generated/catalog"
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/table"
)

// TestFeaturesOfEveryCard: every catalogue card's features are words of
// the vocabulary, in its order, once each; they name its question types
// and the media it reads beyond text, and each extension feature exactly
// when the card has it.
func TestFeaturesOfEveryCard(t *testing.T) {
	for _, m := range catalog.Models() {
		c := &m.Card
		got := Features(c)
		var want []string
		for _, f := range vocab.Features {
			if slices.Contains(got, f) {
				want = append(want, f)
			}
		}
		if !slices.Equal(got, want) || len(got) == 0 {
			t.Errorf("%s: features %v are not vocabulary words in its order", m.Name, got)
		}
		for _, q := range c.QuestionTypes {
			if !slices.Contains(got, string(q)) {
				t.Errorf("%s: features %v lack the question type %s", m.Name, got, q)
			}
		}
		for f, has := range map[string]bool{
			vocab.FeatureVideo:            slices.Contains(c.Modalities, table.ModalityVideo),
			vocab.FeatureRoles:            c.RoleAware,
			vocab.FeaturePreset:           len(c.Presets) > 0,
			vocab.FeatureHead:             len(c.SpanHeads) > 0,
			vocab.FeatureDecisionAdapter:  c.DecisionAdapter,
			vocab.FeatureOverflow:         c.Limits.ScanBudget > 0,
			vocab.FeatureLongContext:      c.Limits.LongContextMaxInputTokens > c.Limits.MaxInputTokens,
			vocab.FeatureRequireFullInput: true,
			vocab.FeatureBatch:            false,
			vocab.FeatureTrack:            c.Answers(table.QuestionTrack),
		} {
			if slices.Contains(got, f) != has {
				t.Errorf("%s: features %v, %s listed %v, want %v", m.Name, got, f, !has, has)
			}
		}
	}
}
