package ir

import "github.com/vllm-sr/systemone/generated/vocab"

// ErrorCode is the extension's flat error code beside the standard detail.
type ErrorCode string

const (
	ErrorInvalidRequest        ErrorCode = vocab.CodeInvalidRequest
	ErrorModelNotFound         ErrorCode = vocab.CodeModelNotFound
	ErrorNotFound              ErrorCode = vocab.CodeNotFound
	ErrorOverloaded            ErrorCode = vocab.CodeOverloaded
	ErrorQuestionFailed        ErrorCode = vocab.CodeQuestionFailed
	ErrorRequestTooLarge       ErrorCode = vocab.CodeRequestTooLarge
	ErrorUnsupportedCapability ErrorCode = vocab.CodeUnsupportedCapability
)

// ErrorBody is an error answer: the HTTP status, the standard detail and
// the extension's flat members. Every text field is fixed wording or a
// sentence for a person, never request data.
type ErrorBody struct {
	Status int
	// Code is empty when absent.
	Code ErrorCode
	// Message is the standard's single detail message, for a person.
	Message string
	// Question names the question whose failure answers the request.
	Question string
	// State names, in a batch, the request the failed question belongs to.
	State string
	// Reason is a fixed word.
	Reason string
	// Limit is the limit Reason names, when one was broken; nil when absent.
	Limit *int64
	// Detail is the standard's 422 list; nil when the detail is a single
	// message.
	Detail []DetailItem
}

// DetailItem is one item of a 422 detail list.
type DetailItem struct {
	// Loc locates the failed member, starting with "body".
	Loc  Path
	Msg  string
	Type string
}
