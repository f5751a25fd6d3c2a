package target

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
)

// MaxRetryAfter caps the delay an upstream may ask for, as the official
// SDKs honour a server's delay only up to a minute.
const MaxRetryAfter = 60 * time.Second

// Error reads a non-2xx reply into an error body with its status, and
// returns the delay Retry-After-Ms or Retry-After asks for (zero when
// none). A body that is not JSON, or has no message anywhere, keeps the
// status with its standard text.
//
// The message is the first present of: detail as a string, detail.message,
// error as a string, error.message, message. A detail list (the 422
// HTTPValidationError) is kept item by item. Without the extension's flat
// code, the code is inferred from the status the standard documents.
func (rd ReplyReader) Error(status int, header http.Header, body []byte) (*ir.ErrorBody, time.Duration) {
	e := &ir.ErrorBody{Status: status}
	if root, err := decode(body); err == nil && root.Kind() == jsonvalue.KindObject {
		readDetail(root, e)
		if rd.Extensions {
			readFlat(root, e)
		}
	}
	if e.Message == "" {
		e.Message = http.StatusText(status)
	}
	if e.Code == "" {
		e.Code = codeOfStatus(e)
	}
	return e, RetryAfter(header)
}

func readDetail(root jsonvalue.Value, e *ir.ErrorBody) {
	detail, _ := root.Get(vocab.ErrorDetail)
	errObj, _ := root.Get(vocab.ErrorError)
	switch {
	case detail.Kind() == jsonvalue.KindString:
		e.Message = detail.Str()
	case detail.Kind() == jsonvalue.KindObject:
		e.Message = stringMember(detail, vocab.ErrorDetailMessage)
		if t := stringMember(detail, vocab.ErrorDetailErrorType); fixedWord(t) {
			e.Reason = t
		}
	case detail.Kind() == jsonvalue.KindArray:
		e.Detail = readDetailList(detail)
		if len(e.Detail) > 0 {
			e.Message = e.Detail[0].Msg
		}
	case errObj.Kind() == jsonvalue.KindString:
		e.Message = errObj.Str()
	case errObj.Kind() == jsonvalue.KindObject:
		e.Message = stringMember(errObj, vocab.LegacyErrorMessage)
	default:
		e.Message = stringMember(root, vocab.LegacyErrorMessage)
	}
}

// readDetailList reads the 422 list; items without a loc array or a msg
// are skipped, as a client cannot locate them.
func readDetailList(list jsonvalue.Value) []ir.DetailItem {
	out := make([]ir.DetailItem, 0, list.Len())
	for _, item := range list.Items() {
		loc, ok := item.Get(vocab.ValidationItemLoc)
		if !ok || loc.Kind() != jsonvalue.KindArray {
			continue
		}
		d := ir.DetailItem{Msg: stringMember(item, vocab.ValidationItemMsg), Type: stringMember(item, vocab.ValidationItemType)}
		for _, step := range loc.Items() {
			if n, isInt := step.Int(); isInt {
				d.Loc = append(d.Loc, ir.PathElem{Index: int(n), IsIndex: true})
			} else if step.Kind() == jsonvalue.KindString {
				d.Loc = append(d.Loc, ir.PathElem{Name: step.Str()})
			}
		}
		out = append(out, d)
	}
	return out
}

// readFlat reads the extension's flat code, question, state, reason and
// limit.
func readFlat(root jsonvalue.Value, e *ir.ErrorBody) {
	if c := stringMember(root, vocab.ErrorCode); fixedWord(c) {
		e.Code = ir.ErrorCode(c)
	}
	e.Question = stringMember(root, vocab.ErrorQuestion)
	e.State = stringMember(root, vocab.ErrorState)
	if r := stringMember(root, vocab.ErrorReason); fixedWord(r) {
		e.Reason = r
	}
	if l, ok := root.Get(vocab.ErrorLimit); ok {
		if n, isInt := l.Int(); isInt {
			e.Limit = &n
		}
	}
}

// codeOfStatus is the extension code the standard's statuses stand for;
// empty for a status it documents no meaning for.
func codeOfStatus(e *ir.ErrorBody) ir.ErrorCode {
	switch e.Status {
	case http.StatusBadRequest:
		return ir.ErrorInvalidRequest
	case http.StatusRequestEntityTooLarge:
		return ir.ErrorRequestTooLarge
	case http.StatusUnprocessableEntity:
		for _, d := range e.Detail {
			if len(d.Loc) >= 3 && d.Loc[1].Name == vocab.RequestQuestions {
				return ir.ErrorQuestionFailed
			}
		}
		return ir.ErrorInvalidRequest
	case http.StatusTooManyRequests, 529:
		return ir.ErrorOverloaded
	case http.StatusServiceUnavailable:
		return codeUnavailable
	}
	return ""
}

// RetryAfter returns the delay a reply asks for: Retry-After-Ms first
// (milliseconds), then Retry-After (seconds, or an HTTP date counted from
// the reply's Date header); zero when absent, unreadable, negative or
// above MaxRetryAfter.
func RetryAfter(h http.Header) time.Duration {
	if ms, err := strconv.ParseFloat(strings.TrimSpace(h.Get(vocab.HeaderRetryAfterMs)), 64); err == nil {
		return capped(time.Duration(ms * float64(time.Millisecond)))
	}
	v := strings.TrimSpace(h.Get(vocab.HeaderRetryAfter))
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseInt(v, 10, 64); err == nil {
		if s > int64(MaxRetryAfter/time.Second) {
			return 0
		}
		return capped(time.Duration(s) * time.Second)
	}
	at, err1 := http.ParseTime(v)
	now, err2 := http.ParseTime(h.Get("Date"))
	if err1 != nil || err2 != nil {
		return 0
	}
	return capped(at.Sub(now))
}

func capped(d time.Duration) time.Duration {
	if d <= 0 || d > MaxRetryAfter {
		return 0
	}
	return d
}

func stringMember(v jsonvalue.Value, name string) string {
	if m, ok := v.Get(name); ok && m.Kind() == jsonvalue.KindString {
		return m.Str()
	}
	return ""
}

// fixedWord reports whether s looks like a fixed word (lower-case letters,
// digits and underscores), the only kind of upstream text kept in a
// reason or code.
func fixedWord(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c == '_' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}
