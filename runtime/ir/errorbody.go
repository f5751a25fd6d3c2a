package ir

import (
	"net/http"

	"github.com/vllm-sr/systemone/generated/fieldtable"
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/table"
)

// ErrorCode is the extension's flat error code beside the standard detail.
type ErrorCode string

// Status is the HTTP status the generated error table gives code. A code
// missing from the table is a programming error of the caller, answered
// as a 500 rather than a wrong 4xx.
func (c ErrorCode) Status() int {
	if e, ok := fieldtable.RequestError(string(c)); ok && e.Status != 0 {
		return e.Status
	}
	return http.StatusInternalServerError
}

// ReasonError is the error body of a refusal for reason, with the request
// error code and the status the specification's error_reasons give it
// (vocab.Reasons); a reason that names no code is a programming error of
// the caller, answered as a 500.
func ReasonError(reason, message string) *ErrorBody {
	info, _ := vocab.ReasonOf(reason)
	code := ErrorCode(info.Code)
	status := info.Status
	if code == "" || status == 0 {
		status = http.StatusInternalServerError
	}
	return &ErrorBody{Status: status, Code: code, Reason: reason, Message: message}
}

const (
	ErrorInvalidRequest        ErrorCode = vocab.CodeInvalidRequest
	ErrorModelNotFound         ErrorCode = vocab.CodeModelNotFound
	ErrorNotFound              ErrorCode = vocab.CodeNotFound
	ErrorMethodNotAllowed      ErrorCode = vocab.CodeMethodNotAllowed
	ErrorOverloaded            ErrorCode = vocab.CodeOverloaded
	ErrorQuestionFailed        ErrorCode = vocab.CodeQuestionFailed
	ErrorRequestTooLarge       ErrorCode = vocab.CodeRequestTooLarge
	ErrorUnavailable           ErrorCode = vocab.CodeUnavailable
	ErrorUnsupportedCapability ErrorCode = vocab.CodeUnsupportedCapability
	ErrorValidationFailed      ErrorCode = vocab.CodeValidationFailed
)

// ErrorBody is an error answer: the HTTP status, the standard detail and
// the extension's flat members. Every text field is fixed wording or a
// sentence for a person, never request data other than names (of a
// question, a request, a member), which Bounded cuts short.
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
	// DetailList: Detail is written as the standard's list on a status
	// other than 422 too, in place of Message (a /v1/decisions request
	// none of whose questions is valid lists each question's error).
	DetailList bool
}

// DetailItem is one item of a 422 detail list.
type DetailItem struct {
	// Loc locates the failed member, starting with "body".
	Loc  Path
	Msg  string
	Type string
	// Reason and Limit are a failed question's reason word and the limit
	// it names (nil for none), the check's parameters: written as the
	// item's ctx, so that a server reading the list (the Router reading
	// its model runtime's) knows each question's failure without its
	// words. Reason is empty for an item that has none.
	Reason string
	Limit  *int64
}

// The bounds of an error answer. Whatever the request, an error answer as
// written is at most MaxErrorBytes: a writer writes Bounded(false), and
// when that is still larger (names and messages full of characters JSON
// escapes six bytes each), Bounded(true), whose every text fits the bound
// even escaped and written twice, as vllm-sr/4.0's error object repeats
// the flat members.
const (
	MaxErrorBytes = 64 << 10
	// MaxMessageBytes bounds Message; a message is cut (table.Clip) past it.
	MaxMessageBytes = 8 << 10
	// MaxDetailItems and MaxDetailBytes bound the detail list: items past
	// either bound (the bytes of their messages and locations) are left
	// out, the first ones kept.
	MaxDetailItems = 20
	MaxDetailBytes = 16 << 10
	// MaxDetailMsgBytes bounds one item's message; MaxLocElems its
	// location (the first elements kept: the member nearest the root).
	MaxDetailMsgBytes = 1 << 10
	MaxLocElems       = 32
)

// The tight bounds of Bounded(true): the message, one detail item and its
// location, escaped at worst six bytes a byte, written twice, within
// MaxErrorBytes with room to spare.
const (
	tightMessageBytes = 1 << 10
	tightDetailItems  = 1
	tightLocElems     = 8
)

// Bounded returns a copy of e whose texts are cut to the bounds above, or
// with tight to the tight bounds; names, Reason among them (a fixed word
// is short: this guards against a producer that breaks that rule), to
// table.MaxNameBytes. e is not modified.
func (e ErrorBody) Bounded(tight bool) ErrorBody {
	msgBytes, items, locElems := MaxMessageBytes, MaxDetailItems, MaxLocElems
	if tight {
		msgBytes, items, locElems = tightMessageBytes, tightDetailItems, tightLocElems
	}
	e.Message = table.Clip(e.Message, msgBytes)
	e.Question = table.ClipName(e.Question)
	e.State = table.ClipName(e.State)
	e.Reason = table.ClipName(e.Reason)
	if e.Detail == nil {
		return e
	}
	detail := make([]DetailItem, 0, min(len(e.Detail), items))
	size := 0
	for _, d := range e.Detail {
		if len(detail) == items {
			break
		}
		d = DetailItem{Loc: d.Loc.Clipped(locElems), Msg: table.Clip(d.Msg, min(msgBytes, MaxDetailMsgBytes)), Type: table.ClipName(d.Type),
			Reason: table.ClipName(d.Reason), Limit: d.Limit}
		size += len(d.Msg) + d.Loc.size()
		if len(detail) > 0 && size > MaxDetailBytes {
			break
		}
		detail = append(detail, d)
	}
	e.Detail = detail
	return e
}

// Clipped returns a copy of p with at most n elements (the first ones)
// and every name cut to table.MaxNameBytes. p is not modified.
func (p Path) Clipped(n int) Path {
	out := make(Path, min(len(p), n))
	for i := range out {
		out[i] = p[i]
		out[i].Name = table.ClipName(p[i].Name)
	}
	return out
}

// size is about the bytes p's names take.
func (p Path) size() int {
	n := 0
	for _, e := range p {
		n += len(e.Name) + 4
	}
	return n
}
