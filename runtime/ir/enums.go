package ir

import (
	"github.com/vllm-sr/systemone/generated/fieldtable"
	"github.com/vllm-sr/systemone/generated/vocab"
)

// RoleMode says how a request's state parts get their roles.
type RoleMode string

const (
	// RoleModeImplicit: vllm-sr/4.0's implicit roles, taken from the
	// state's keys (the Router's part names). The internal wire form writes
	// it as an absent roles member.
	RoleModeImplicit RoleMode = "implicit"
	// RoleModeNone: no roles; the whole state is the user's content on every
	// family (vllm-sr/5.0 without roles, or roles: null on the internal form).
	RoleModeNone RoleMode = "none"
	// RoleModeExplicit: an explicit roles map, state key to role.
	RoleModeExplicit RoleMode = "explicit"
)

// Valid reports whether m is one of the three modes.
func (m RoleMode) Valid() bool {
	return m == RoleModeImplicit || m == RoleModeNone || m == RoleModeExplicit
}

// Role is the role of one state part for role-aware families.
type Role string

const (
	RoleUser    Role = vocab.RoleUser
	RoleContext Role = vocab.RoleContext
	RoleAnswer  Role = vocab.RoleAnswer
)

// Valid reports whether r is a known role.
func (r Role) Valid() bool { return r == RoleUser || r == RoleContext || r == RoleAnswer }

// AssetType is the medium of an asset.
type AssetType string

const (
	AssetImage AssetType = vocab.AssetTypeImage
	AssetVideo AssetType = vocab.AssetTypeVideo
)

// Valid reports whether t is a known asset type.
func (t AssetType) Valid() bool { return t == AssetImage || t == AssetVideo }

// SpanHead is the span head that answers a span question.
type SpanHead string

const (
	SpanHeadRouter SpanHead = "router"
	SpanHeadBroad  SpanHead = "broad"
)

// Valid reports whether h is a known span head.
func (h SpanHead) Valid() bool { return h == SpanHeadRouter || h == SpanHeadBroad }

// Overflow is how a model with a scan budget reads a part longer than one
// input.
type Overflow string

const (
	OverflowWindow   Overflow = "window"
	OverflowTruncate Overflow = "truncate"
)

// Valid reports whether o is a known overflow mode.
func (o Overflow) Valid() bool { return o == OverflowWindow || o == OverflowTruncate }

// Coverage is an answer's input_coverage.
type Coverage string

// CoverageComplete: the question read every state part completely.
const CoverageComplete Coverage = "complete"

// QuestionErrorCode is why one question of a /v1/decisions call has no
// answer (the answer's error member).
type QuestionErrorCode string

const (
	QuestionErrorInvalidQuestion    QuestionErrorCode = vocab.QuestionErrorInvalidQuestion
	QuestionErrorInvalidInput       QuestionErrorCode = vocab.QuestionErrorInvalidInput
	QuestionErrorMaxLengthExceeded  QuestionErrorCode = vocab.QuestionErrorMaxLengthExceeded
	QuestionErrorScanBudgetExceeded QuestionErrorCode = vocab.QuestionErrorScanBudgetExceeded
	QuestionErrorInvalidModelOutput QuestionErrorCode = vocab.QuestionErrorInvalidModelOutput
	QuestionErrorDeadlineExceeded   QuestionErrorCode = vocab.QuestionErrorDeadlineExceeded
	QuestionErrorUnavailable        QuestionErrorCode = vocab.QuestionErrorUnavailable
)

// Valid reports whether c is a question error kind of the generated table.
func (c QuestionErrorCode) Valid() bool {
	_, ok := fieldtable.QuestionError(string(c))
	return ok
}
