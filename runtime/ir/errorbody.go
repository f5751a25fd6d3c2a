package ir

// ErrorCode is the extension's flat error code beside the standard detail.
type ErrorCode string

const (
	ErrorInvalidRequest        ErrorCode = "invalid_request"
	ErrorModelNotFound         ErrorCode = "model_not_found"
	ErrorNotFound              ErrorCode = "not_found"
	ErrorOverloaded            ErrorCode = "overloaded"
	ErrorQuestionFailed        ErrorCode = "question_failed"
	ErrorRequestTooLarge       ErrorCode = "request_too_large"
	ErrorUnsupportedCapability ErrorCode = "unsupported_capability"
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
