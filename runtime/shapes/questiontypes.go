package shapes

import (
	"slices"

	"github.com/vllm-sr/systemone/runtime/table"
)

// The question-type sets check_ir.go checks type-bound question members
// with.

// questionTypes is a set of question types: which questions take a member.
type questionTypes uint8

const (
	forNoul questionTypes = 1 << iota
	forChoice
	forScore
	forBox
	forSet
	forSpan
	forTrack
	forOther // a type the specs do not define
)

// definedTypes are the question types the specs define, in the order of
// their bits above.
var definedTypes = []table.QuestionType{table.QuestionNoul, table.QuestionChoice, table.QuestionScore,
	table.QuestionBox, table.QuestionSet, table.QuestionSpan, table.QuestionTrack}

func typeBit(t table.QuestionType) questionTypes {
	if i := slices.Index(definedTypes, t); i >= 0 {
		return 1 << i
	}
	return forOther
}

// unitInterval reports 0 <= f <= 1 (false for NaN).
func unitInterval(f float64) bool { return f >= 0 && f <= 1 }
