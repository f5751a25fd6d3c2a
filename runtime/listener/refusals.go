package listener

import (
	"errors"
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/vllm-sr/systemone/generated/fieldtable"
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/bodylimit"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/shapes"
	"github.com/vllm-sr/systemone/runtime/table"
)

// The refusals Read returns. Every status comes from the generated error
// tables; every message names JSON paths and schema facts, never a value of
// the request.

// RefuseProblems refuses a body that breaks schema: 400 invalid_request,
// the message listing every problem by its path, the reason and limit those
// of the first.
func RefuseProblems(schema table.SchemaID, problems []table.Problem) *Refusal {
	n := min(len(problems), maxListed)
	msgs := make([]string, n)
	for i, p := range problems[:n] {
		msgs[i] = p.Message()
	}
	e := InvalidRequest(string(problems[0].Reason), "the body does not follow "+string(schema)+": "+joinListed(msgs, len(problems), "problems"))
	e.Limit = problemLimit(problems[0])
	return &Refusal{Body: *e}
}

// RefuseValidation refuses a body that breaks the standard's schema
// outside any one question as the standard answers it: 422
// validation_failed, the message listing request (the problems that are
// not one question's), the reason and limit those of its first, and the
// standard's detail list with one item per problem of all (a question's
// too: the standard lists every failed check), each locating its member
// from the body, its type the problem's reason word.
func RefuseValidation(schema table.SchemaID, request, all []table.Problem, root jsonvalue.Value) *Refusal {
	r := RefuseProblems(schema, request)
	r.Body.Status, r.Body.Code = ir.ErrorValidationFailed.Status(), ir.ErrorValidationFailed
	r.Body.Detail = make([]ir.DetailItem, len(all))
	for i, p := range all {
		r.Body.Detail[i] = ir.DetailItem{Loc: locate(root, shapes.SplitPointer(p.Path)), Msg: p.What(), Type: string(p.Reason)}
	}
	return r
}

// RefuseAt refuses a body for one rule the generated validator does not
// express (two members that conflict): 400
// invalid_request naming the member by its path.
func RefuseAt(reason string, path ir.Path, message string) *Refusal {
	return &Refusal{Body: *InvalidRequest(reason, path.String()+": "+message)}
}

// RefuseQuestion answers a request with its first failed question: the
// question error's status (422 for invalid_question), code question_failed,
// and the standard detail list with one item per problem, each locating
// the question's member from the body.
func RefuseQuestion(f *QuestionFailure, root jsonvalue.Value, batch bool) *Refusal {
	kind, _ := fieldtable.QuestionError(string(f.Error))
	detail := make([]ir.DetailItem, len(f.Problems))
	for i, p := range f.Problems {
		detail[i] = ir.DetailItem{
			Loc:  locate(root, shapes.SplitPointer(p.Path)),
			Msg:  "question " + table.QuoteName(f.Name) + " cannot be answered: " + p.Message(),
			Type: string(f.Error),
		}
	}
	body := ir.ErrorBody{
		Status:   kind.Status,
		Code:     ir.ErrorQuestionFailed,
		Message:  f.Message,
		Question: f.Name,
		Reason:   f.Reason,
		Limit:    f.Limit,
		Detail:   detail,
	}
	if batch {
		body.State = f.Item
	}
	return &Refusal{Body: body}
}

// RefuseNoValidQuestion refuses a /v1/decisions request none of whose
// questions is valid: 400 invalid_request listing each question's error.
func RefuseNoValidQuestion(failures []QuestionFailure) *Refusal {
	n := min(len(failures), maxListed)
	msgs := make([]string, n)
	detail := make([]ir.DetailItem, len(failures))
	for i := range failures {
		f := &failures[i]
		if i < n {
			msgs[i] = f.Message
		}
		detail[i] = questionItem(f.Name, f.Message, f.Error, f.Reason, f.Limit)
	}
	e := noValidQuestion(msgs, len(failures))
	e.Detail, e.DetailList = detail, true
	return &Refusal{Body: *e}
}

// maxListed is how many problems (or failed questions) a refusal's
// message lists; it says how many more there are.
const maxListed = 10

// joinListed joins the listed messages of total, naming how many more of
// what there are past them.
func joinListed(listed []string, total int, what string) string {
	s := strings.Join(listed, "; ")
	if more := total - len(listed); more > 0 {
		s += "; and " + strconv.Itoa(more) + " more " + what
	}
	return s
}

// CheckSize refuses a body over the generated body_bytes limit (inclusive,
// in bytes) with 413 request_too_large; it returns nil for a body within it.
func CheckSize(body []byte) *Refusal {
	if int64(len(body)) <= vocab.LimitBodyBytes {
		return nil
	}
	return &Refusal{Body: *tooLarge(vocab.LimitBodyBytes)}
}

// ReadBody reads a System One request body of at most limit bytes, both as
// sent and with its Content-Encoding (gzip, x-gzip or identity) undone
// (bodylimit.ReadDecoded), refused as every server refuses it
// (RefuseBody). The codec reads the decoded JSON.
//
// A refusal is answered early, before the body was read to its end: the
// server writes it, then calls bodylimit.Linger so that a client that
// sends its whole body before reading reads the answer. A body refused
// because the inflating budget is in use is 503 unavailable; ReadBody
// sets its Retry-After on w (a server may set its own).
func ReadBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, *ir.ErrorBody) {
	body, err := bodylimit.ReadDecoded(w, r, limit)
	if err != nil {
		var over *bodylimit.OverBudgetError
		if errors.As(err, &over) {
			w.Header().Set(vocab.HeaderRetryAfter, strconv.FormatInt(int64(math.Ceil(over.RetryAfter.Seconds())), 10))
		}
		return nil, RefuseBody(err)
	}
	return body, nil
}

// ErrorOf is an error body of code, with the status the generated table
// gives code, a fixed reason word and a message that copies no request
// value.
func ErrorOf(code ir.ErrorCode, reason, message string) *ir.ErrorBody {
	return &ir.ErrorBody{Status: code.Status(), Code: code, Reason: reason, Message: message}
}

// InvalidRequest is ErrorOf a 400 invalid_request.
func InvalidRequest(reason, message string) *ir.ErrorBody {
	return ErrorOf(ir.ErrorInvalidRequest, reason, message)
}

// RefuseBody is the error body of a request body runtime/bodylimit would
// not read, the same on every server: 413 request_too_large past the
// limit, 400 invalid_request for a Content-Encoding it does not undo or a
// corrupt gzip body, 503 unavailable for a gzip body the inflating budget
// has no room for, each reason's code and status as the specification's
// error_reasons give them (ir.ReasonError).
func RefuseBody(err error) *ir.ErrorBody {
	var big *bodylimit.TooLargeError
	var unsupported *bodylimit.UnsupportedEncodingError
	var corrupt *bodylimit.CorruptGzipError
	var over *bodylimit.OverBudgetError
	switch {
	case errors.As(err, &big):
		return tooLarge(big.Limit)
	case errors.As(err, &over):
		return ir.ReasonError(vocab.ReasonInflateBudgetExhausted,
			"the server is inflating as many gzip bodies as its memory budget allows; retry later, or send the body uncompressed")
	case errors.As(err, &unsupported):
		return ir.ReasonError(vocab.ReasonUnsupportedContentEncoding,
			"the Content-Encoding is not supported; send "+strings.Join(unsupported.Supported, ", "))
	case errors.As(err, &corrupt) && corrupt.NotGzip:
		return ir.ReasonError(vocab.ReasonInvalidGzip, "the request body is not gzip data")
	case errors.As(err, &corrupt):
		return ir.ReasonError(vocab.ReasonInvalidGzip, "the gzip request body is corrupt or truncated")
	}
	return ir.ReasonError(vocab.ReasonUnreadableBody, "the request body could not be read")
}

func tooLarge(limit int64) *ir.ErrorBody {
	e := ir.ReasonError(vocab.ReasonBodyTooLarge, "the request body is larger than "+strconv.FormatInt(limit, 10)+" bytes")
	e.Limit = &limit
	return e
}

// RefusalBody is the error body a server answers a request with when its
// codec's Read returned err: the refusal's own (whose status the refusals
// here always set, from the generated tables), else 400 invalid_request
// for a request that could not be read at all.
func RefusalBody(err error) *ir.ErrorBody {
	var ref *Refusal
	if !errors.As(err, &ref) {
		return InvalidRequest(vocab.ReasonUnreadableRequest, "the request could not be read")
	}
	e := ref.Body
	return &e
}

// RefuseEndpoint refuses a path the codec does not serve: 404.
func RefuseEndpoint(schema table.SchemaID) *Refusal {
	return &Refusal{Body: *ErrorOf(ir.ErrorNotFound, vocab.ReasonUnknownEndpoint, "the path is not a System One endpoint of "+string(schema))}
}

// RefuseError turns a decoding error (a jsonvalue syntax error, or an
// internal-form *ProtocolError) into a 400 invalid_request refusal.
func RefuseError(err error) *Refusal {
	body := ir.ErrorBody{Status: ir.ErrorInvalidRequest.Status(), Code: ir.ErrorInvalidRequest}
	var se *jsonvalue.SyntaxError
	var pe *ir.ProtocolError
	switch {
	case errors.As(err, &pe) && pe.Cause == nil:
		body.Message, body.Reason = pe.Path.Clipped(len(pe.Path)).String()+": "+pe.Message, string(pe.Reason)
	case errors.As(err, &se):
		body.Message = "the body is not valid JSON: " + se.Reason + " at " + table.ClipPointer(se.Path) + " (byte " + strconv.FormatInt(se.Offset, 10) + ")"
		body.Reason = string(ir.ReasonInvalidJSON)
	default:
		body.Message, body.Reason = "the body cannot be read", string(ir.ReasonInvalidJSON)
	}
	return &Refusal{Body: body}
}

// Decode reads a body as JSON, nested at most as deep as the internal form
// allows, or refuses it.
func Decode(body []byte, maxDepth int) (jsonvalue.Value, *Refusal) {
	if r := CheckSize(body); r != nil {
		return jsonvalue.Value{}, r
	}
	v, err := jsonvalue.Decode(body, jsonvalue.Options{MaxDepth: maxDepth})
	if err != nil {
		return v, RefuseError(err)
	}
	return v, nil
}

// DecodeBorrowed is Decode into a jsonvalue.Borrowed, for a reader that
// keeps copies of what it holds.
func DecodeBorrowed(body []byte, maxDepth int) (*jsonvalue.Borrowed, *Refusal) {
	if r := CheckSize(body); r != nil {
		return nil, r
	}
	doc, err := jsonvalue.DecodeBorrowed(body, jsonvalue.Options{MaxDepth: maxDepth})
	if err != nil {
		return nil, RefuseError(err)
	}
	return doc, nil
}

// locate is shapes.Locate under the body's own name, the first
// element of every location a listener reports.
func locate(root jsonvalue.Value, segs []string) ir.Path {
	return append(ir.Path{{Name: "body"}}, shapes.Locate(root, segs)...)
}
