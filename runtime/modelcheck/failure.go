package modelcheck

import (
	"strconv"

	"github.com/vllm-sr/systemone/generated/fieldtable"
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
)

// Reason is the fixed word for why a question failed: a generated/vocab
// reason of the spec's error_reasons, whose entry gives the question error
// kind it fails with, the unit of the limit it names and its description,
// the failure's message.
type Reason string

// Failure is why one question cannot be answered.
type Failure struct {
	Code ir.QuestionErrorCode
	// Status is the code's HTTP status on POST /v1/systemone.
	Status int
	Reason Reason
	// Limit is the limit the reason names when one was broken, in the
	// reason's unit (tokens, pixels, bytes, seconds or a count); nil
	// otherwise.
	Limit   *int64
	Message string
}

// Fail builds the failure of reason r, as the specification's
// error_reasons entry describes it (vocab.Reasons); callers outside this
// package report a reason of its own themselves (vocab.ReasonDeadlinePassed).
func Fail(r Reason) *Failure {
	info, _ := vocab.ReasonOf(string(r))
	code := ir.QuestionErrorCode(info.Kind)
	if !code.Valid() { // a reason without a kind is a bug; TestEveryFailureReasonHasAKind guards it
		code = ir.QuestionErrorInvalidQuestion
	}
	kind, _ := fieldtable.QuestionError(string(code))
	return &Failure{Code: code, Status: kind.Status, Reason: r, Message: info.Clause()}
}

// FailLimit builds the failure of reason r with the model's limit broken,
// in the reason's unit.
func FailLimit(r Reason, limit int64) *Failure {
	f := Fail(r)
	f.Limit = &limit
	info, _ := vocab.ReasonOf(string(r))
	f.Message += " (limit " + strconv.FormatInt(limit, 10) + " " + info.Unit + ")"
	return f
}
