package testkit

import (
	"net/http"
	"strings"

	"github.com/vllm-sr/systemone/generated/vocab"
)

// HostileCases are the suite's cases, by family: JSON syntax, UTF-8,
// duplicate members, depth, numbers, the criteria of each question type,
// limits, gzip, assets, endpoints and methods, and the findings of the
// hostile test (huge names, deadlines, /v1/decisions semantics).
func HostileCases() []HostileCase {
	var all []HostileCase
	for _, family := range [][]HostileCase{
		syntaxCases(), utf8Cases(), duplicateCases(), depthCases(), numberCases(),
		criteriaCases(), limitCases(), gzipCases(), assetCases(), endpointCases(), nameCases(),
	} {
		all = append(all, family...)
	}
	return all
}

func syntaxCases() []HostileCase {
	invalid := bad(vocab.ReasonInvalidJSON)
	bodies := []struct{ what, body string }{
		{"empty body", ``},
		{"only whitespace", " \n\t "},
		{"unclosed object", `{"model":"` + HostileModel + `","state":` + hostileState},
		{"unclosed string", `{"state":"` + HostileCanary},
		{"trailing comma", `{"state":` + hostileState + `,"questions":{` + okQ + `},}`},
		{"single quotes", `{'state':'` + HostileCanary + `'}`},
		{"comment", `{"state":` + hostileState + ` /* ` + HostileCanary + ` */,"questions":{` + okQ + `}}`},
		{"unquoted member name", `{state:` + hostileState + `}`},
		{"NaN", `{"state":` + hostileState + `,"questions":{` + okQ + `},"options":{"deadline_ms":NaN}}`},
		{"two documents", `{"state":` + hostileState + `,"questions":{` + okQ + `}}{}`},
		{"trailing garbage", `{"state":` + hostileState + `,"questions":{` + okQ + `}} ` + HostileCanary},
		{"raw newline in a string", "{\"state\":\"" + HostileCanary + "\nline\",\"questions\":{" + okQ + "}}"},
		{"bad escape", `{"state":"` + HostileCanary + `\x41","questions":{` + okQ + `}}`},
		{"short unicode escape", `{"state":"` + HostileCanary + `\u12","questions":{` + okQ + `}}`},
		{"leading zero", `{"state":` + hostileState + `,"questions":{` + okQ + `},"options":{"deadline_ms":0100}}`},
		{"plus sign", `{"state":` + hostileState + `,"questions":{` + okQ + `},"options":{"deadline_ms":+100}}`},
		{"missing colon", `{"state" ` + hostileState + `}`},
		{"byte order mark", "\ufeff" + string(hq(okQ)())},
		{"true spelled True", `{"state":` + hostileState + `,"questions":{` + okQ + `},"options":{"return_meta":True}}`},
	}
	var out []HostileCase
	for i, b := range bodies {
		out = append(out, HostileCase{Name: caseName("syntax", i, b.what), Body: raw(b.body), Want: invalid})
	}
	notObject := violated(vocab.ReasonWrongType)
	for i, body := range []string{`[]`, `"` + HostileCanary + `"`, `42`, `true`} { //vocab:not-spec a JSON literal body
		out = append(out, HostileCase{Name: caseName("syntax-root", i, body), Body: raw(body), Want: notObject})
	}
	out = append(out, HostileCase{Name: "syntax-root/null", Body: raw(`null`), Want: violated(vocab.ReasonNotAllowedNull)})
	return out
}

func utf8Cases() []HostileCase {
	prefix := `{"model":"` + HostileModel + `","questions":{` + okQ + `},"state":"` + HostileCanary
	withBytes := func(b ...byte) []byte { return append(append([]byte(prefix), b...), `"}`...) }
	invalid := bad(vocab.ReasonInvalidJSON)
	out := []HostileCase{
		{Name: "utf8/00 invalid byte", Body: raw(withBytes(0xff)), Want: invalid},
		{Name: "utf8/01 overlong slash", Body: raw(withBytes(0xc0, 0xaf)), Want: invalid},
		{Name: "utf8/02 encoded surrogate", Body: raw(withBytes(0xed, 0xa0, 0x80)), Want: invalid},
		{Name: "utf8/03 truncated sequence", Body: raw(withBytes(0xe2, 0x82)), Want: invalid},
		{Name: "utf8/04 past U+10FFFF", Body: raw(withBytes(0xf4, 0x90, 0x80, 0x80)), Want: invalid},
		{Name: "utf8/05 invalid byte in a member name", Body: raw([]byte("{\"model\":\"" + HostileModel + "\",\"state\":" + hostileState +
			",\"questions\":{\"q\xff\":{\"type\":\"noul\"}}}")), Want: invalid},
		// Unpaired surrogates are refused, as I-JSON (RFC 7493) requires.
		{Name: "utf8/06 lone surrogate escape", Body: raw(`{"model":"` + HostileModel + `","state":"` + HostileCanary + ` \ud800","questions":{` + okQ + `}}`), Want: invalid},
		{Name: "utf8/07 reversed surrogate pair", Body: raw(`{"model":"` + HostileModel + `","state":"` + HostileCanary + ` \udc00\ud800","questions":{` + okQ + `}}`), Want: invalid},
		{Name: "utf8/08 escaped NUL", Body: raw(`{"model":"` + HostileModel + `","state":"` + HostileCanary + ` \u0000","questions":{` + okQ + `}}`), Want: wantOK},
		{Name: "utf8/09 non-ASCII text", Body: raw(`{"model":"` + HostileModel + `","state":"` + HostileCanary + ` ⚠️ l'export échoue 导出失败","questions":{` + okQ + `}}`), Want: wantOK},
	}
	return out
}

func duplicateCases() []HostileCase {
	dup := bad(vocab.ReasonInvalidJSON)
	return []HostileCase{
		{Name: "duplicate/00 top-level member", Body: raw(`{"model":"` + HostileModel + `","state":` + hostileState + `,"state":"` + HostileCanary + `","questions":{` + okQ + `}}`), Want: dup},
		{Name: "duplicate/01 question name", Body: hq(okQ + "," + okQ), Want: dup},
		{Name: "duplicate/02 member of a question", Body: hq(`"u":{"type":"noul","type":"noul"}`), Want: dup},
		{Name: "duplicate/03 criteria key", Body: hq(q("team", `"type":"choice","criteria":{"a":null,"a":null}`)), Want: dup},
		{Name: "duplicate/04 state key", Body: raw(`{"model":"` + HostileModel + `","state":{"a":"` + HostileCanary + `","a":"x"},"questions":{` + okQ + `}}`), Want: dup},
		{Name: "duplicate/05 escaped spelling of one name", Body: raw(`{"model":"` + HostileModel + `","state":` + hostileState + `,"st\u0061te":"x","questions":{` + okQ + `}}`), Want: dup},
		{Name: "duplicate/06 batch item", Path: vocab.PathSystemoneBatch, Body: batch(item("a", okQ) + "," + item("a", okQ)), Want: dup},
	}
}

func depthCases() []HostileCase {
	tooDeep := bad(vocab.ReasonInvalidJSON)
	return []HostileCase{
		{Name: "depth/00 state 60 deep", Body: raw(`{"model":"` + HostileModel + `","state":{"a":` + nested(60) + `,"b":"` + HostileCanary + `"},"questions":{` + okQ + `}}`), Want: wantOK},
		{Name: "depth/01 state 100 deep", Body: raw(`{"model":"` + HostileModel + `","state":` + nested(100) + `,"questions":{` + okQ + `}}`), Want: tooDeep},
		{Name: "depth/02 state 100000 deep", Body: once(func() []byte {
			return []byte(`{"model":"` + HostileModel + `","state":` + nested(100000) + `,"questions":{` + okQ + `}}`)
		}), Want: tooDeep},
		{Name: "depth/03 unclosed 1 MiB of brackets", Body: once(func() []byte { return []byte(`{"state":` + strings.Repeat("[", 1<<20)) }), Want: tooDeep},
		{Name: "depth/04 objects 200 deep in criteria", Body: hq(q("team", `"type":"choice","criteria":{"a":`+strings.Repeat(`{"a":`, 200)+`null`+strings.Repeat("}", 200)+`}`)), Want: tooDeep},
	}
}

func numberCases() []HostileCase {
	opt := func(v string) func() []byte { return hq(okQ, `,"options":{"deadline_ms":`+v+`}`) }
	wrong := violated(vocab.ReasonWrongType)
	below := violated(vocab.ReasonBelowMinimum)
	return []HostileCase{
		{Name: "numbers/00 deadline_ms 1500", Body: opt("1500"), Want: wantOK},
		{Name: "numbers/01 deadline_ms 9223372036855 (overflows ns)", Body: opt("9223372036855"), Want: wantOK},
		{Name: "numbers/02 deadline_ms max int64", Body: opt("9223372036854775807"), Want: wantOK},
		{Name: "numbers/03 deadline_ms past int64", Body: opt("9223372036854775808"), Want: wrong},
		{Name: "numbers/04 deadline_ms 1e3", Body: opt("1e3"), Want: wrong},
		{Name: "numbers/05 deadline_ms 1.5", Body: opt("1.5"), Want: wrong},
		{Name: "numbers/06 deadline_ms 0", Body: opt("0"), Want: below},
		{Name: "numbers/07 deadline_ms -1", Body: opt("-1"), Want: below},
		{Name: "numbers/08 deadline_ms -0", Body: opt("-0"), Want: below},
		{Name: "numbers/09 deadline_ms 1e400", Body: opt("1e400"), Want: wrong},
		{Name: "numbers/10 deadline_ms as a string", Body: opt(`"1500"`), Want: wrong},
		{Name: "numbers/11 deadline_ms 1.0", Body: opt("1.0"), Want: wrong},
		{Name: "numbers/12 max_tokens 0", Body: hq(okQ, `,"options":{"max_tokens":0}`), Want: below},
		{Name: "numbers/13 return_meta 1", Body: hq(okQ, `,"options":{"return_meta":1}`), Want: wrong},
		{Name: "numbers/14 a 400-digit number in the state", Body: raw(`{"model":"` + HostileModel + `","state":{"n":` + strings.Repeat("9", 400) + `,"t":"` + HostileCanary + `"},"questions":{` + okQ + `}}`), Want: wantOK},
		{Name: "numbers/15 1e999999 in the state", Body: raw(`{"model":"` + HostileModel + `","state":{"n":1e999999,"t":"` + HostileCanary + `"},"questions":{` + okQ + `}}`), Want: wantOK},
	}
}

func endpointCases() []HostileCase {
	notFound := HostileWant{Status: http.StatusNotFound, Code: vocab.CodeNotFound, Reason: vocab.ReasonUnknownPath}
	notAllowed := HostileWant{Status: http.StatusMethodNotAllowed, Code: vocab.CodeMethodNotAllowed, Reason: vocab.ReasonMethodNotAllowed}
	noneValid := bad(vocab.ReasonNoValidQuestion)
	return []HostileCase{
		{Name: "endpoint/00 unknown path", Path: "/v1/" + HostileNameMark, Body: hq(okQ), Want: notFound},
		{Name: "endpoint/01 path with a trailing slash", Path: vocab.PathSystemone + "/", Body: hq(okQ), Want: notFound},
		{Name: "endpoint/02 GET /v1/systemone", Method: http.MethodGet, Want: notAllowed},
		{Name: "endpoint/03 PUT /v1/systemone", Method: http.MethodPut, Body: hq(okQ), Want: notAllowed},
		{Name: "endpoint/04 DELETE /v1/systemone/batch", Method: http.MethodDelete, Path: vocab.PathSystemoneBatch, Want: notAllowed},
		{Name: "endpoint/05 GET /v1/decisions", Method: http.MethodGet, Path: vocab.PathDecisions, Want: notAllowed},
		{Name: "endpoint/06 a made-up method", Method: "BREW", Body: hq(okQ), Want: notAllowed},
		{Name: "endpoint/07 decisions, every question malformed", Path: vocab.PathDecisions,
			Body: hq(q("a", `"type":"score","criteria":["only"]`) + "," + q("b", `"type":"choice","criteria":{}`)), Want: noneValid},
		// A question the deployment's card does not answer fails alone on
		// both servers: the runtime's model check, the Router's capability
		// check before any call.
		{Name: "endpoint/08 decisions, every question of a type the model does not answer", Path: vocab.PathDecisions,
			Body: hq(q("a", `"type":"box"`) + "," + q("b", `"type":"track"`)), Want: noneValid},
		{Name: "endpoint/09 decisions, one question answerable, one not carried", Path: vocab.PathDecisions,
			Body: hq(okQ + "," + q("b", `"type":"box"`)), Want: wantOK},
		// Questions the schema and the card take, which the model check
		// refuses (vela3-fast answers over only on some questions): the
		// runtime fails them after reading, the Router after its upstream
		// did; both answer the same.
		{Name: "endpoint/08b decisions, every question refused by the model check", Path: vocab.PathDecisions,
			Body: hq(q("a", `"type":"noul","over":["request"]`) + "," + q("b", `"type":"choice","criteria":{"x":null},"over":["request"]`)), Want: noneValid},
		{Name: "endpoint/09b decisions, one question answerable, one refused by the model check", Path: vocab.PathDecisions,
			Body: hq(okQ + "," + q("b", `"type":"noul","over":["request"]`)), Want: wantOK},
		{Name: "endpoint/10 batch of two", Path: vocab.PathSystemoneBatch, Body: batch(item("a", okQ) + "," + item("b", okQ)), Want: wantOK},
		{Name: "endpoint/11 batch with no requests", Path: vocab.PathSystemoneBatch, Body: batch(""), Want: violated(vocab.ReasonTooFew)},
		{Name: "endpoint/12 batch item with its own options", Path: vocab.PathSystemoneBatch,
			Body: raw(`{"model":"` + HostileModel + `","requests":{"a":{"state":` + hostileState + `,"questions":{` + okQ + `},"options":{"deadline_ms":5}}}}`),
			Want: bad(vocab.ReasonUnknownMember)},
		{Name: "endpoint/13 batch to /v1/systemone", Body: batch(item("a", okQ)), Want: bad(vocab.ReasonUnknownMember)},
		{Name: "endpoint/14 request to /v1/systemone/batch", Path: vocab.PathSystemoneBatch, Body: hq(okQ), Want: bad(vocab.ReasonUnknownMember)},
		{Name: "endpoint/15 another model", Body: raw(`{"model":"` + HostileNameMark + `","state":` + hostileState + `,"questions":{` + okQ + `}}`),
			Want: HostileWant{Status: http.StatusNotFound, Code: vocab.CodeModelNotFound, Reason: vocab.ReasonUnknownModel}},
		{Name: "endpoint/16 text/plain content type", Header: map[string]string{vocab.HeaderContentType: "text/plain"}, Body: hq(okQ), Want: wantOK},
		{Name: "endpoint/17 long-context header", Header: map[string]string{vocab.HeaderLongContext: "true"}, //vocab:not-spec the header's value
			Body: hq(okQ), Want: wantOK},
	}
}
