package ir

import (
	"slices"

	"github.com/vllm-sr/systemone/generated/fieldtable"
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/table"
)

// The IR's enums are the extension set's (vllm-sr/5.0 holds every value
// the other schemas take): each type's constants spell the values
// vocab.Members gives its member, and its Valid reads them from there.
// TestEnumsAreTheSpecs pins every constant set to the spec's, so a value
// the specs add or drop fails it, naming the enum.

// specEnum is the values the vllm-sr/5.0 member takes at level.
func specEnum(level table.Level, member string) []string {
	for _, m := range vocab.MembersOf(table.SchemaVllmSR50, level) {
		if m.Name == member {
			return m.Enum
		}
	}
	return nil
}

var (
	specRoles      = specEnum(table.LevelRequest, vocab.RequestRoles)
	specAssetTypes = specEnum(table.LevelAsset, vocab.AssetType)
	specSpanHeads  = specEnum(table.LevelQuestion, vocab.QuestionHead)
	specOverflows  = specEnum(table.LevelQuestion, vocab.QuestionOverflow)
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

// Valid reports whether r is a role the specs define.
func (r Role) Valid() bool { return slices.Contains(specRoles, string(r)) }

// AssetType is the medium of an asset.
type AssetType string

const (
	AssetImage AssetType = vocab.AssetTypeImage
	AssetVideo AssetType = vocab.AssetTypeVideo
)

// Valid reports whether t is an asset type the specs define.
func (t AssetType) Valid() bool { return slices.Contains(specAssetTypes, string(t)) }

// SpanHead is the span head that answers a span question.
type SpanHead string

const (
	SpanHeadRouter SpanHead = "router"
	SpanHeadBroad  SpanHead = "broad"
)

// Valid reports whether h is a span head the specs define.
func (h SpanHead) Valid() bool { return slices.Contains(specSpanHeads, string(h)) }

// Overflow is how a model with a scan budget reads a part longer than one
// input.
type Overflow string

const (
	OverflowWindow   Overflow = "window"
	OverflowTruncate Overflow = "truncate"
)

// Valid reports whether o is an overflow mode the specs define.
func (o Overflow) Valid() bool { return slices.Contains(specOverflows, string(o)) }

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
