package ir

import (
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/table"
)

// ErrorCategory is what kind of failure a ProtocolError is.
type ErrorCategory string

const (
	// CategoryInvalidRequest: the source schema refuses the body.
	CategoryInvalidRequest ErrorCategory = vocab.CodeInvalidRequest
	// CategoryUnsupported: the target schema cannot carry the request.
	CategoryUnsupported ErrorCategory = vocab.ReasonUnsupported
	// CategoryInvalidIR: the IR handed to an encoder is inconsistent (a
	// codec that built it broke an IR invariant).
	CategoryInvalidIR ErrorCategory = "invalid_ir"
)

// Reason is a fixed word for why a codec refused a message.
type Reason string

const (
	ReasonInvalidJSON    Reason = vocab.ReasonInvalidJSON
	ReasonUnknownMember  Reason = vocab.ReasonUnknownMember
	ReasonMissingMember  Reason = vocab.ReasonMissingMember
	ReasonWrongType      Reason = vocab.ReasonWrongType
	ReasonUnknownValue   Reason = vocab.ReasonUnknownValue
	ReasonOutOfRange     Reason = vocab.ReasonOutOfRange
	ReasonEmpty          Reason = vocab.ReasonEmpty
	ReasonConflict       Reason = vocab.ReasonConflictingMembers
	ReasonNotAllowedHere Reason = vocab.ReasonNotAllowedHere
	ReasonUnsupported    Reason = vocab.ReasonUnsupported
	ReasonUnsetMode      Reason = vocab.ReasonUnsetMode
)

// ProtocolError is a codec's refusal: a category, a fixed reason, the JSON
// path of the member at fault and a message for a person. The message
// never copies a value of the request; the path names members only, which
// is how a client finds what to fix.
type ProtocolError struct {
	Category ErrorCategory
	Reason   Reason
	Path     Path
	Message  string
	// Cause is the underlying error (a JSON syntax error), if any.
	Cause error
}

// Error returns one line: the path, the message and the reason, with the
// path's names and the message cut as an error answer cuts them
// (ErrorBody.Bounded), so a logged error is as small as an answer.
func (e *ProtocolError) Error() string {
	return e.Path.Clipped(len(e.Path)).String() + ": " + table.Clip(e.Message, MaxMessageBytes) + " (" + string(e.Reason) + ")"
}

// Unwrap returns the cause.
func (e *ProtocolError) Unwrap() error { return e.Cause }

// Refuse builds a CategoryInvalidRequest error.
func Refuse(reason Reason, path Path, message string) *ProtocolError {
	return &ProtocolError{Category: CategoryInvalidRequest, Reason: reason, Path: path, Message: message}
}
