package testkit

import (
	"strings"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/table"
)

// criteriaCases are the criteria shapes of every question type: the ones
// the schema takes, and the ones it refuses (422 invalid_question, the
// question's own fault, or 400 for a member the schema does not define).
func criteriaCases() []HostileCase {
	wrong := invalidQ(vocab.ReasonWrongType)
	noCriteria40 := wantPtr(invalidQ(vocab.ReasonMissingCriteria))
	notCarried := wantPtr(notCarriedWant)
	shapes := []struct {
		what, members string
		want          HostileWant
		// on40: vllm-sr/4.0 also takes the removed forms (choices,
		// levels, labels), so its validator does not require criteria;
		// the codec refuses a question with neither.
		on40 *HostileWant
		// onRouter: the Router checks the deployment's card before any
		// call, and refuses what it cannot carry as a whole.
		onRouter *HostileWant
	}{
		{"noul without criteria", `"type":"noul"`, wantOK, nil, nil},
		{"noul criteria null", `"type":"noul","criteria":null`, wantOK, nil, nil},
		{"noul criteria {}", `"type":"noul","criteria":{}`, wantOK, nil, nil},
		{"noul criteria true and false", `"type":"noul","criteria":{"true":"it blocks","false":"it does not"}`, wantOK, nil, nil},
		{"noul criteria true and false null", `"type":"noul","criteria":{"true":null,"false":null}`, wantOK, nil, nil},
		{"noul criteria maybe", `"type":"noul","criteria":{"maybe":"x"}`, bad(vocab.ReasonUnknownMember), nil, nil},
		{"noul criteria a list", `"type":"noul","criteria":["yes","no"]`, wrong, nil, nil},
		{"noul criteria a string", `"type":"noul","criteria":"yes"`, wrong, nil, nil},
		{"noul criteria true a number", `"type":"noul","criteria":{"true":1}`, wrong, nil, nil},
		{"choice of three", `"type":"choice","criteria":{"billing":"Payments","engineering":"Outages","other":null}`, wantOK, nil, nil},
		{"choice of one", `"type":"choice","criteria":{"only":null}`, wantOK, nil, nil},
		{"choice without criteria", `"type":"choice"`, invalidQ(vocab.ReasonMissingMember), noCriteria40, nil},
		{"choice criteria {}", `"type":"choice","criteria":{}`, invalidQ(vocab.ReasonTooFew), nil, nil},
		{"choice criteria a list", `"type":"choice","criteria":["a","b"]`, wrong, nil, nil},
		{"choice criteria null", `"type":"choice","criteria":null`, invalidQ(vocab.ReasonNotAllowedNull), nil, nil},
		{"choice description a number", `"type":"choice","criteria":{"a":1,"b":null}`, wrong, nil, nil},
		{"choice description an object (content)", `"type":"choice","criteria":{"a":{"x":1},"b":null}`, wantOK, nil, nil},
		{"choice option named empty", `"type":"choice","criteria":{"":null,"b":null}`, wantOK, nil, nil},
		{"score of five levels", `"type":"score","criteria":` + levels(5), wantOK, nil, nil},
		{"score of two levels", `"type":"score","criteria":` + levels(2), wantOK, nil, nil},
		{"score of one level", `"type":"score","criteria":` + levels(1), invalidQ(vocab.ReasonTooFew), nil, nil},
		{"score without criteria", `"type":"score"`, invalidQ(vocab.ReasonMissingMember), noCriteria40, nil},
		{"score criteria an object", `"type":"score","criteria":{"low":null,"high":null}`, wrong, nil, nil},
		{"score levels numbers", `"type":"score","criteria":[1,2,3]`, wrong, nil, nil},
		{"score level null", `"type":"score","criteria":["low",null]`, invalidQ(vocab.ReasonNotAllowedNull), nil, nil},
		{"set of two labels", `"type":"set","criteria":{"billing":"Payments","bug":null}`, wantOK, nil, nil},
		{"set without criteria", `"type":"set"`, invalidQ(vocab.ReasonMissingMember), noCriteria40, nil},
		{"set criteria a list", `"type":"set","criteria":["a"]`, wrong, nil, nil},
		{"set threshold 0.3", `"type":"set","criteria":{"a":null},"threshold":0.3`, wantOK, nil, nil},
		{"set threshold a string", `"type":"set","criteria":{"a":null},"threshold":"0.3"`, wrong, nil, nil},
		{"span of two labels", `"type":"span","criteria":{"EMAIL":"An email address","PERSON":null}`, wantOK, nil, nil},
		{"span head router", `"type":"span","criteria":{"EMAIL":null},"head":"router"`, wantOK, nil, nil},
		{"span head sideways", `"type":"span","criteria":{"EMAIL":null},"head":"sideways"`, invalidQ(vocab.ReasonNotInEnum), nil, nil},
		{"span criteria a string", `"type":"span","criteria":"EMAIL"`, wrong, nil, nil},
		{"box on a text model", `"type":"box"`, invalidQ(vocab.ReasonQuestionTypeNotAnswered), nil, notCarried},
		{"box with criteria", `"type":"box","criteria":{"a":null}`, bad(vocab.ReasonUnknownMember), nil, nil},
		{"track on a text model", `"type":"track"`, invalidQ(vocab.ReasonQuestionTypeNotAnswered), nil, notCarried},
		{"unknown type", `"type":"maybe"`, invalidQ(vocab.ReasonNotInEnum), nil, nil},
		{"type a number", `"type":3`, wrong, nil, nil},
		{"no type", `"criteria":{"a":null}`, invalidQ(vocab.ReasonMissingMember), nil, nil},
		{"instructions twice", `"type":"noul","instructions":7`, bad(vocab.ReasonInvalidJSON), nil, nil},
		{"preset unknown", `"type":"noul","preset":"` + HostileNameMark + `"`, invalidQ(vocab.ReasonPresetNotAnswered), nil, nil},
		{"over on a question vela3-fast has no head for", `"type":"noul","over":["request"]`, invalidQ(vocab.ReasonOverNotAnswered), nil, nil},
		{"overflow sideways", `"type":"noul","overflow":"sideways"`, invalidQ(vocab.ReasonNotInEnum), nil, nil},
		{"require_full_input a string", `"type":"noul","require_full_input":"yes"`, wrong, nil, nil},
		{"unknown member in a question", `"type":"noul","colour":"red"`, bad(vocab.ReasonUnknownMember), nil, nil},
	}
	out := []HostileCase{{Name: "criteria/instructions a number", Body: hq(okQ + `,"probe":{"type":"noul","instructions":7}`), Want: wrong}}
	for i, s := range shapes {
		// A criteria shape question sits beside a valid one, so a 422
		// is the question's own failure, not the request's.
		out = append(out, HostileCase{Name: caseName("criteria", i, s.what), //vocab:not-spec a case family's name
			Body: hq(okQ + "," + q("probe", s.members)), Want: s.want, On40: s.on40, OnRouter: s.onRouter})
		if s.on40 == noCriteria40 {
			// The Router writes the question for its vllm-sr/5.0
			// deployment, whose validator refuses it: the upstream's
			// question failure is relayed.
			out[len(out)-1].OnRouter40 = wantPtr(invalidQ(AnyReason))
		}
	}
	return out
}

// limitCases are the counts the schemas and the model bound, and the
// body limit.
func limitCases() []HostileCase {
	choice := func(n int) func() []byte { return hq(q("team", `"type":"choice","criteria":`+options(n))) }
	labels := func(n int) func() []byte { return hq(q("pii", `"type":"span","criteria":`+options(n))) }
	score := func(n int) func() []byte { return hq(q("level", `"type":"score","criteria":`+levels(n))) }
	return []HostileCase{
		// The schema takes 255 options and labels; the model's card fewer.
		{Name: "limits/00 choice of 255 options", Body: choice(255), Want: invalidQ(vocab.ReasonTooManyOptions)},
		{Name: "limits/01 choice of 256 options", Body: choice(256), Want: invalidQ(vocab.ReasonTooMany)},
		{Name: "limits/02 span of 255 labels", Body: labels(255), Want: invalidQ(vocab.ReasonTooManyLabels)},
		{Name: "limits/03 span of 256 labels", Body: labels(256), Want: invalidQ(vocab.ReasonTooMany)},
		{Name: "limits/04 score of 10 levels", Body: score(10), Want: wantOK},
		{Name: "limits/05 score of 11 levels", Body: score(11), Want: invalidQ(vocab.ReasonTooMany)},
		{Name: "limits/06 no questions", Body: hq(""), Want: violated(vocab.ReasonTooFew)},
		{Name: "limits/07 questions missing", Body: raw(`{"model":"` + HostileModel + `","state":` + hostileState + `}`), Want: violated(vocab.ReasonMissingMember)},
		{Name: "limits/08 state missing", Body: raw(`{"model":"` + HostileModel + `","questions":{` + okQ + `}}`), Want: violated(vocab.ReasonMissingMember)},
		{Name: "limits/09 200 questions", Body: once(hq(numbered(200, noulQ("q%d")))), Want: wantOK},
		{Name: "limits/10 body one byte past the limit", Body: overLimit, Want: wantTooLarge},
		{Name: "limits/11 1000 unknown members", Body: once(func() []byte {
			return hq(okQ, ","+numbered(1000, `"`+HostileNameMark+`%d":1`))()
		}), Want: bad(vocab.ReasonUnknownMember)},
		{Name: "limits/12 1000 malformed questions", Body: once(func() []byte {
			return hq(numbered(1000, q("q%d", `"type":"choice","criteria":[]`)))()
		}), Want: invalidQ(vocab.ReasonWrongType)},
	}
}

// gzipCases are Content-Encoding: gzip bodies, sound and hostile.
func gzipCases() []HostileCase {
	coded := func(c string) map[string]string { return map[string]string{"Content-Encoding": c} }
	valid := gz(hq(okQ))
	corrupt := once(func() []byte {
		b := append([]byte(nil), valid()...)
		b[len(b)-6] ^= 0xff // the CRC-32
		return b
	})
	return []HostileCase{
		{Name: "gzip/00 a gzip body", Header: coded("gzip"), Body: valid, Want: wantOK},
		{Name: "gzip/01 x-gzip", Header: coded("x-gzip"), Body: valid, Want: wantOK},
		{Name: "gzip/02 GZIP in capitals", Header: coded("GZIP"), Body: valid, Want: wantOK},
		{Name: "gzip/03 plain JSON sent as gzip", Header: coded("gzip"), Body: hq(okQ), Want: bad(vocab.ReasonInvalidGzip)},
		{Name: "gzip/04 checksum wrong", Header: coded("gzip"), Body: corrupt, Want: bad(vocab.ReasonInvalidGzip)},
		{Name: "gzip/05 truncated", Header: coded("gzip"), Body: once(func() []byte { return valid()[:len(valid())/2] }), Want: bad(vocab.ReasonInvalidGzip)},
		{Name: "gzip/06 empty body", Header: coded("gzip"), Body: raw(""), Want: bad(vocab.ReasonInvalidGzip)},
		{Name: "gzip/07 br", Header: coded("br"), Body: hq(okQ), Want: bad(vocab.ReasonUnsupportedContentEncoding)},
		{Name: "gzip/08 gzip twice", Header: coded("gzip, gzip"), Body: gz(valid), Want: bad(vocab.ReasonUnsupportedContentEncoding)},
		{Name: "gzip/09 identity", Header: coded("identity"), Body: hq(okQ), Want: wantOK},
		{Name: "gzip/10 1 MiB bomb", Header: coded("gzip"), Body: gzipBomb, Want: wantTooLarge},
		{Name: "gzip/11 inflating to just past the limit", Header: coded("gzip"), Body: gz(overLimit), Want: wantTooLarge},
		{Name: "gzip/12 gzip of invalid JSON", Header: coded("gzip"), Body: gz(raw(`{"state":`)), Want: bad(vocab.ReasonInvalidJSON)},
	}
}

// assetCases are the assets of a request: placeholders, base64, formats,
// and media the suite's model (text only) does not read. The model checks
// that it reads images before it decodes one, so an image on it is
// image_not_read whatever its bytes (invalid_input, 400): the bytes are
// still parsed by the schema, and must not break the server.
func assetCases() []HostileCase {
	png := `iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==`
	withAsset := func(state, asset string) func() []byte {
		return raw(`{"model":"` + HostileModel + `","state":` + state + `,"questions":{` + okQ + `},"assets":{"img-1":` + asset + `}}`)
	}
	placed := `["img-1","` + HostileCanary + ` what is this?"]`
	image := func(format, data string) string {
		return `{"type":"image","format":"` + format + `","data_base64":"` + data + `"}`
	}
	notRead := badInput(vocab.ReasonImageNotRead)
	cases := []HostileCase{
		{Name: "assets/00 an image on a text model", Body: withAsset(placed, image("png", png)), Want: notRead},
		{Name: "assets/01 unplaced asset", Body: withAsset(hostileState, image("png", png)), Want: badInput(vocab.ReasonUnplacedAsset)},
		{Name: "assets/02 bad base64", Body: withAsset(placed, image("png", "!!not base64!!")), Want: notRead},
		{Name: "assets/03 not an image", Body: withAsset(placed, image("png", "aGVsbG8gd29ybGQ=")), Want: notRead},
		{Name: "assets/04 format mismatch", Body: withAsset(placed, image("jpeg", png)), Want: notRead},
		{Name: "assets/05 unknown format", Body: withAsset(placed, image("gif", png)), Want: violated(vocab.ReasonNotInEnum)},
		{Name: "assets/06 unknown asset member", Body: withAsset(placed, `{"type":"image","format":"png","data_base64":"`+png+`","colour":1}`), Want: bad(vocab.ReasonUnknownMember)},
		{Name: "assets/07 asset a string", Body: withAsset(placed, `"`+HostileCanary+`"`), Want: violated(vocab.ReasonWrongType)},
		{Name: "assets/08 data missing", Body: withAsset(placed, `{"type":"image","format":"png"}`), Want: violated(vocab.ReasonMissingMember)},
		{Name: "assets/09 a video on a text model", Body: withAsset(`["img-1","`+HostileCanary+`"]`, `{"type":"video","format":"mp4","data_base64":"AAAA"}`), Want: badInput(vocab.ReasonVideoNotRead)},
		{Name: "assets/10 placeholder in a question", Body: raw(`{"model":"` + HostileModel + `","state":` + placed + `,"questions":{` +
			q("look", `"type":"noul","criteria":{"true":"img-1 shows it"}`) + `},"assets":{"img-1":` + image("png", png) + `}}`), Want: invalidQ(vocab.ReasonPlaceholderInQuestion)},
	}
	// The Router checks the deployment's card before any call: a text
	// model carries no media, so a request with any asset is refused as a
	// whole, 400 unsupported_capability, where the runtime checks each
	// question.
	for i := range cases {
		if w := cases[i].Want; w.Code != vocab.CodeInvalidRequest && w.Code != vocab.CodeValidationFailed {
			cases[i].OnRouter = wantPtr(notCarriedWant)
		}
	}
	return cases
}

// nameCases are the findings' huge names: a refusal quotes a name cut to
// 64 bytes, so an answer stays small whatever the name (and a gzip body
// inflating to one 32 MiB name is no amplifier).
func nameCases() []HostileCase {
	mib := hugeName(1 << 20)
	big := hugeName(int(vocab.LimitBodyBytes) - 1024)
	unknown := func(name string) func() []byte {
		return once(func() []byte { return hq(okQ, `,"`+name+`":1`)() })
	}
	return []HostileCase{
		{Name: "names/00 1 MiB unknown member", Body: unknown(mib), Want: bad(vocab.ReasonUnknownMember), Names: []string{table.ClipName(mib)}},
		{Name: "names/01 gzip inflating to a 32 MiB unknown member", Header: map[string]string{"Content-Encoding": "gzip"},
			Body: gz(unknown(big)), Want: bad(vocab.ReasonUnknownMember), Names: []string{table.ClipName(big)}},
		{Name: "names/02 1 MiB question name, malformed", Body: once(func() []byte { return hq(okQ + "," + q(mib, `"type":"choice","criteria":[]`))() }),
			Want: invalidQ(vocab.ReasonWrongType), Names: []string{table.ClipName(mib)}},
		{Name: "names/03 1 MiB question name, a type the model does not answer", Body: once(func() []byte { return hq(okQ + "," + q(mib, `"type":"box"`))() }),
			Want: invalidQ(vocab.ReasonQuestionTypeNotAnswered), OnRouter: wantPtr(notCarriedWant), Names: []string{table.ClipName(mib)}},
		{Name: "names/04 1 MiB batch item name, malformed question", Path: vocab.PathSystemoneBatch,
			Body: once(func() []byte { return batch(item(mib, q("bad", `"type":"choice","criteria":[]`)))() }),
			Want: invalidQ(vocab.ReasonWrongType), Names: []string{table.ClipName(mib)}},
		{Name: "names/05 1 MiB member inside a question", Body: once(func() []byte { return hq(q("u", `"type":"noul","`+mib+`":1`))() }),
			Want: bad(vocab.ReasonUnknownMember), Names: []string{table.ClipName(mib)}},
		{Name: "names/06 1 MiB unknown criteria key of a noul", Body: once(func() []byte { return hq(q("u", `"type":"noul","criteria":{"`+mib+`":null}`))() }),
			Want: bad(vocab.ReasonUnknownMember), Names: []string{table.ClipName(mib)}},
		{Name: "names/07 1 MiB placeholder", Body: once(func() []byte {
			return raw(`{"model":"` + HostileModel + `","state":` + hostileState + `,"questions":{` + okQ + `},"assets":{"` + mib + `":{"type":"image","format":"png","data_base64":"AAAA"}}}`)()
		}), Want: badInput(vocab.ReasonUnplacedAsset), OnRouter: wantPtr(notCarriedWant)},
		{Name: "names/08 decisions, 1 MiB names of questions none valid", Path: vocab.PathDecisions,
			Body: once(func() []byte {
				return hq(q(mib, `"type":"noul","over":["request"]`) + "," + q(mib+"2", `"type":"noul","over":["request"]`))()
			}),
			Want: bad(vocab.ReasonNoValidQuestion), Names: []string{table.ClipName(mib)}},
		{Name: "names/09 a 64 KiB name of escaped control characters", Body: once(func() []byte {
			return hq(okQ, `,"`+strings.Repeat(`\u0001`, 64<<10)+`":1`)()
		}), Want: bad(vocab.ReasonUnknownMember)},
		{Name: "names/10 a 1 MiB name of multi-byte characters", Body: once(func() []byte {
			return hq(okQ, `,"`+HostileNameMark+strings.Repeat("é", 1<<19)+`":1`)()
		}), Want: bad(vocab.ReasonUnknownMember), Names: []string{table.ClipName(HostileNameMark + strings.Repeat("é", 1<<19))}},
		// The validator stops at table.MaxProblems: the first 100 malformed
		// questions fill the list before the unknown member is seen.
		{Name: "names/11 1 MiB unknown member after 200 malformed questions", Body: once(func() []byte {
			return hq(numbered(200, q(mib[:4096]+"%d", `"type":"choice","criteria":[]`)), `,"`+mib+`":1`)()
		}), Want: invalidQ(vocab.ReasonWrongType)},
	}
}
