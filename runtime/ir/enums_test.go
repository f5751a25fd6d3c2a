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

// TestReasonErrorTakesTheSpecsCode: a refusal for a reason answers with
// the code and status error_reasons give it; a reason that names no code
// is a caller's bug, answered 500.
func TestReasonErrorTakesTheSpecsCode(t *testing.T) {
	coded := 0
	for _, r := range vocab.Reasons {
		e := ReasonError(r.Reason, "m")
		switch {
		case r.Code == "":
			if e.Status != 500 {
				t.Errorf("%s names no code, answered %d", r.Reason, e.Status)
			}
		case e.Code != ErrorCode(r.Code) || e.Status != r.Status || e.Status == 0:
			t.Errorf("%s: %d %s, want %d %s", r.Reason, e.Status, e.Code, r.Status, r.Code)
		default:
			coded++
		}
	}
	if e := ReasonError(vocab.ReasonUpstreamRateLimited, "m"); e.Status != 429 || e.Code != ErrorOverloaded {
		t.Errorf("upstream_rate_limited: %d %s, want 429 overloaded", e.Status, e.Code)
	}
	if coded < 30 {
		t.Fatalf("only %d reasons name a code", coded)
	}
}
