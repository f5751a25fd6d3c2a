package ir

import (
	"slices"
	"testing"

	"github.com/vllm-sr/systemone/generated/fieldtable"
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/table"
)

// TestEnumsAreTheSpecs: each enum the IR aliases has exactly the values,
// in the order, the specifications give its member (or table), so a value
// a spec adds or drops fails here naming the enum and the constant to add
// or remove.
func TestEnumsAreTheSpecs(t *testing.T) {
	kinds := make([]string, len(fieldtable.QuestionErrors))
	for i, k := range fieldtable.QuestionErrors {
		kinds[i] = k.Kind
	}
	for _, c := range []struct {
		enum      string
		constants []string
		spec      []string
	}{
		{"Role (request.roles)", []string{string(RoleUser), string(RoleContext), string(RoleAnswer)}, specEnum(table.LevelRequest, vocab.RequestRoles)},
		{"AssetType (asset.type)", []string{string(AssetImage), string(AssetVideo)}, specEnum(table.LevelAsset, vocab.AssetType)},
		{"SpanHead (question.head)", []string{string(SpanHeadRouter), string(SpanHeadBroad)}, specEnum(table.LevelQuestion, vocab.QuestionHead)},
		{"SpanHead (response.span_heads)", []string{string(SpanHeadRouter), string(SpanHeadBroad)}, specEnum(table.LevelResponse, vocab.ResponseSpanHeads)},
		{"Overflow (question.overflow)", []string{string(OverflowWindow), string(OverflowTruncate)}, specEnum(table.LevelQuestion, vocab.QuestionOverflow)},
		{"Coverage (answer.input_coverage)", []string{string(CoverageComplete)}, specEnum(table.LevelAnswer, vocab.AnswerInputCoverage)},
		{"QuestionErrorCode (answer.error)", []string{string(QuestionErrorInvalidQuestion), string(QuestionErrorInvalidInput),
			string(QuestionErrorMaxLengthExceeded), string(QuestionErrorScanBudgetExceeded), string(QuestionErrorInvalidModelOutput),
			string(QuestionErrorDeadlineExceeded), string(QuestionErrorUnavailable)}, specEnum(table.LevelAnswer, vocab.AnswerError)},
		{"QuestionErrorCode (question_errors)", []string{string(QuestionErrorInvalidQuestion), string(QuestionErrorMaxLengthExceeded),
			string(QuestionErrorScanBudgetExceeded), string(QuestionErrorInvalidInput), string(QuestionErrorInvalidModelOutput),
			string(QuestionErrorUnavailable), string(QuestionErrorDeadlineExceeded)}, kinds},
	} {
		if len(c.spec) == 0 || !slices.Equal(c.constants, c.spec) {
			t.Errorf("%s: the IR's constants are %v, the specs give %v", c.enum, c.constants, c.spec)
		}
	}
	if !RoleContext.Valid() || Role("assistant").Valid() || !SpanHeadBroad.Valid() || SpanHead("wide").Valid() ||
		!OverflowTruncate.Valid() || Overflow("").Valid() || !AssetVideo.Valid() || AssetType("audio").Valid() {
		t.Error("Valid does not read the specs' values")
	}
}
