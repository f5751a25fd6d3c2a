package testkit

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/vllm-sr/systemone/generated/vocab"
)

// hostileState is the state of every request: it carries HostileCanary.
const hostileState = `"` + HostileCanary + `: our export button fails with a 500 since this morning"`

// hq is a request body of the suite's model and state, with the questions
// (members of the questions object) and any further top-level members
// (each ",..."-prefixed).
func hq(questions string, more ...string) func() []byte {
	b := []byte(`{"model":"` + HostileModel + `","state":` + hostileState + `,"questions":{` + questions + `}` + strings.Join(more, "") + `}`)
	return func() []byte { return b }
}

// raw is a body as written (invalid UTF-8 included).
func raw[T string | []byte](s T) func() []byte { return func() []byte { return []byte(s) } }

// noulQ is a noul question named name; q is any question with the
// canary in its instructions.
func noulQ(name string) string { return q(name, `"type":"noul"`) }

func q(name, members string) string {
	return strconv.Quote(name) + `:{` + members + `,"instructions":"` + HostileCanary + ` does it block work?"}`
}

// okQ is the one valid question most cases carry beside their fault.
var okQ = noulQ("urgent")

// batch is a batch body whose requests are items (members of requests).
func batch(items string, more ...string) func() []byte {
	b := []byte(`{"model":"` + HostileModel + `","requests":{` + items + `}` + strings.Join(more, "") + `}`)
	return func() []byte { return b }
}

// item is a batch item named name with the questions given.
func item(name, questions string) string {
	return strconv.Quote(name) + `:{"state":` + hostileState + `,"questions":{` + questions + `}}`
}

// levels is a score's criteria of n levels; options a choice's (or
// labels a set's, a span's) criteria of n entries.
func levels(n int) string  { return "[" + numbered(n, `"level %d"`) + "]" }
func options(n int) string { return "{" + numbered(n, `"o%d":null`) + "}" }

// numbered is format of 0 to n-1, joined by commas.
func numbered(n int, format string) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = fmt.Sprintf(format, i)
	}
	return strings.Join(parts, ",")
}

// nested is a state nested depth arrays deep.
func nested(depth int) string { return strings.Repeat("[", depth) + `"x"` + strings.Repeat("]", depth) }

// hugeName is a made-up name of n bytes carrying HostileNameMark.
func hugeName(n int) string {
	return HostileNameMark + strings.Repeat("x", n-len(HostileNameMark))
}

// once caches a big body across targets.
func once(f func() []byte) func() []byte { return sync.OnceValue(f) }

// gz gzips a body.
func gz(f func() []byte) func() []byte {
	return once(func() []byte { return gzipped(f(), gzip.BestCompression) })
}

// gzipped is b compressed with gzip at level.
func gzipped(b []byte, level int) []byte {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, level)
	_, _ = zw.Write(b)
	_ = zw.Close()
	return buf.Bytes()
}

// gzipBomb is about 1 MiB of gzip inflating to about 1 GiB: gzip members
// of 1 MiB of zeros, concatenated.
var gzipBomb = once(func() []byte {
	member := gz(func() []byte { return make([]byte, 1<<20) })()
	return bytes.Repeat(member, (1<<20)/len(member))
})

// overLimit is a valid request padded past the body limit by a state of
// spaces.
var overLimit = once(func() []byte {
	pad := int(vocab.LimitBodyBytes) + 1
	return []byte(`{"model":"` + HostileModel + `","state":"` + strings.Repeat(" ", pad) + `","questions":{` + okQ + `}}`)
})

// wants

var (
	wantOK = HostileWant{Status: http.StatusOK}
	// wantTooLarge is the 413 of a body past the limit, as sent or
	// inflated.
	wantTooLarge = HostileWant{Status: http.StatusRequestEntityTooLarge, Code: vocab.CodeRequestTooLarge, Reason: vocab.ReasonBodyTooLarge}
	// notCarriedWant is the Router's refusal of a request its deployment
	// cannot carry (a question type or a medium the card does not list),
	// before any call.
	notCarriedWant = HostileWant{Status: http.StatusBadRequest, Code: vocab.CodeUnsupportedCapability, Reason: vocab.ReasonNotCarried}
)

// bad is a 400 invalid_request for reason.
func bad(reason string) HostileWant {
	return HostileWant{Status: http.StatusBadRequest, Code: vocab.CodeInvalidRequest, Reason: reason}
}

// violated is a 422 validation_failed for reason: a body that breaks the
// standard's schema outside any one question, which a vllm-sr/5.0 server
// answers as the standard does (and a vllm-sr/4.0 listener 400
// invalid_request: HostileCase.want).
func violated(reason string) HostileWant {
	return HostileWant{Status: http.StatusUnprocessableEntity, Code: vocab.CodeValidationFailed, Reason: reason}
}

// failed is a question_failed of status for reason.
func failed(status int, reason string) HostileWant {
	return HostileWant{Status: status, Code: vocab.CodeQuestionFailed, Reason: reason}
}

// invalidQ is the 422 of an invalid_question.
func invalidQ(reason string) HostileWant { return failed(http.StatusUnprocessableEntity, reason) }

// badInput is the 400 of an invalid_input question error (an input the
// model cannot read).
func badInput(reason string) HostileWant { return failed(http.StatusBadRequest, reason) }

func wantPtr(w HostileWant) *HostileWant { return &w }

// caseName numbers a family of cases.
func caseName(family string, i int, what string) string {
	return fmt.Sprintf("%s/%02d %s", family, i, what)
}
