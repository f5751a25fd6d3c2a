package conformance

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/vllm-sr/systemone/generated/fieldtable"
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
)

// The checks of error answers. On systemone/0.2 a request the schema
// refuses is a schema violation: 422 with the standard's detail list
// (specs/systemone/systemone-0.2.schema.yaml, conflict "400 or 422"). On
// the vllm-sr schemas every error carries the detail, the flat code of the
// extension's error table with that code's status, a reason word of the
// spec's list and the limit it names; a question's failure is
// question_failed with the question error's status and the question named.
// A body that breaks the standard's schema outside any one question is, on
// vllm-sr/5.0 as on the standard, 422 with the detail list locating the
// member (code validation_failed); vllm-sr/4.0 keeps its frozen 400
// invalid_request. vllm-sr/5.0 writes no 4.0 error member; vllm-sr/4.0
// writes it too.

// refusal is what a case expects of an error answer.
type refusal struct {
	// code is the vllm-sr error code.
	code string
	// kind is the question error kind of question_failed.
	kind string
	// question and state name the failed question and its batch item.
	question string
	state    string
	// reasons are the reason words accepted; the first is the schema's
	// own, whose limit must be limit. Empty accepts any word of the list.
	reasons []string
	limit   int64
	// names are words the detail must name (a member, a replacement).
	names []string
	// loc, when set, is where some item of a 422's detail list must
	// locate the failed member, after "body".
	loc []string
	// legacyCode, when set, is the code vllm-sr/4.0 answers instead of
	// code (with that code's status and no loc): the frozen 4.0 contract
	// answers the standard's schema violations 400 invalid_request.
	legacyCode string
}

func requestRefusal(code, reason string, limit int64, names ...string) refusal {
	return refusal{code: code, reasons: []string{reason}, limit: limit, names: names}
}

// violation is a body that breaks the standard's schema outside any one
// question, at the member loc names: the standard answers it 422 with its
// detail list locating the member, and so does vllm-sr/5.0, the standard
// plus extension fields (code validation_failed, with the reason and the
// limit it names); vllm-sr/4.0 answers 400 invalid_request, as its frozen
// contract does.
func violation(reason string, limit int64, loc ...string) refusal {
	return refusal{code: vocab.CodeValidationFailed, legacyCode: vocab.CodeInvalidRequest, reasons: []string{reason},
		limit: limit, names: loc[len(loc)-1:], loc: loc}
}

// questionRefusal is question_failed for an invalid question: its
// reasons are the schema's word, then the words a model's own, tighter
// limit may give instead.
func questionRefusal(question string, limit int64, reasons ...string) refusal {
	return refusal{code: vocab.CodeQuestionFailed, kind: vocab.QuestionErrorInvalidQuestion,
		question: question, reasons: reasons, limit: limit}
}

// status is the status the extension's tables give the refusal.
func (want refusal) status() int {
	if want.code == vocab.CodeQuestionFailed {
		e, _ := fieldtable.QuestionError(want.kind)
		return e.Status
	}
	e, _ := fieldtable.RequestError(want.code)
	return e.Status
}

// checkRefusal checks an error answer against want, as the run's schema
// writes errors.
func checkRefusal(run *runner, r *reply, want refusal) []string {
	if !run.extended() {
		return checkStandardRefusal(r, want)
	}
	if run.legacy() && want.legacyCode != "" {
		want.code, want.loc = want.legacyCode, nil
	}
	if r.status != want.status() {
		return []string{fmt.Sprintf("status %d, want %d %s%s", r.status, want.status(), want.code, detailHint(r))}
	}
	out := checkJSONObject(r)
	if len(out) > 0 {
		return out
	}
	v := r.json
	out = append(out, wantString(v, vocab.ErrorCode, want.code, "")...)
	out = append(out, checkReason(v, want, "")...)
	out = append(out, wantString(v, vocab.ErrorQuestion, want.question, "")...)
	out = append(out, wantString(v, vocab.ErrorState, want.state, "")...)
	out = append(out, checkDetail(v, want)...)
	legacy, has := v.Get(vocab.ErrorError)
	switch {
	case run.legacy():
		out = append(out, checkLegacyError(legacy, want)...)
	case has:
		out = append(out, "the error has the 4.0 member "+vocab.ErrorError+", which vllm-sr/5.0 replaced by "+vocab.ErrorDetail)
	}
	return out
}

// checkStandardRefusal: 422 with a detail list whose items have loc, msg
// and type, and which names every word want names (the failed question,
// an unknown member).
func checkStandardRefusal(r *reply, want refusal) []string {
	if r.status != 422 {
		return []string{fmt.Sprintf("status %d, want 422 (a schema violation)%s", r.status, detailHint(r))}
	}
	out := checkJSONObject(r)
	if len(out) > 0 {
		return out
	}
	detail, _ := r.json.Get(vocab.ErrorDetail)
	if detail.Kind() != jsonvalue.KindArray || detail.Len() == 0 {
		return []string{vocab.ErrorDetail + " is not a list of failed checks"}
	}
	for i, item := range detail.Items() {
		out = append(out, checkValidationItem(item, vocab.ErrorDetail+"["+strconv.Itoa(i)+"]")...)
	}
	if want.loc != nil {
		out = append(out, checkLocated(detail, append([]string{"body"}, want.loc...))...)
	}
	return append(out, checkNamed(r.json, append(slices.Clone(want.names), want.question))...)
}

// checkNamed: the error's detail names every word of names but "".
func checkNamed(v jsonvalue.Value, names []string) []string {
	var out []string
	text := detailText(v)
	for _, name := range names {
		if name != "" && !strings.Contains(text, name) {
			out = append(out, vocab.ErrorDetail+" does not name "+strconv.Quote(name))
		}
	}
	return out
}

func checkValidationItem(item jsonvalue.Value, at string) []string {
	var out []string
	loc, _ := item.Get(vocab.ValidationItemLoc)
	if loc.Kind() != jsonvalue.KindArray {
		out = append(out, at+"."+vocab.ValidationItemLoc+" is not an array")
	}
	for _, part := range loc.Items() {
		if _, isInt := part.Int(); part.Kind() != jsonvalue.KindString && !isInt {
			out = append(out, at+"."+vocab.ValidationItemLoc+" holds "+describe(part)+", not a string or integer")
		}
	}
	return append(out, wantStrings(item, at+".", vocab.ValidationItemMsg, vocab.ValidationItemType)...)
}

// checkReason: reason is a word of the spec's list, one want accepts, and
// the limit it names is want's when it is the schema's own word.
func checkReason(v jsonvalue.Value, want refusal, at string) []string {
	r, _ := v.Get(vocab.ErrorReason)
	if _, known := vocab.ReasonOf(r.Str()); !known {
		return []string{fmt.Sprintf("%s%s is %s, not a reason word of the specification", at, vocab.ErrorReason, describe(r))}
	}
	if len(want.reasons) > 0 && !slices.Contains(want.reasons, r.Str()) {
		return []string{fmt.Sprintf("%s%s is %q, want %s", at, vocab.ErrorReason, r.Str(), strings.Join(want.reasons, " or "))}
	}
	l, hasLimit := v.Get(vocab.ErrorLimit)
	n, isInt := l.Int()
	switch {
	case want.limit == 0:
		return nil
	case len(want.reasons) > 0 && r.Str() == want.reasons[0] && n != want.limit:
		return []string{fmt.Sprintf("%s%s is %s, want %d", at, vocab.ErrorLimit, describe(l), want.limit)}
	case !hasLimit || !isInt:
		return []string{fmt.Sprintf("%s%s is %s, want the limit %s names", at, vocab.ErrorLimit, describe(l), r.Str())}
	}
	return nil
}

// checkDetail: the detail is present; a question's failure is a 422 list
// that locates the question (in its batch item); the detail names want's
// words.
func checkDetail(v jsonvalue.Value, want refusal) []string {
	detail, ok := v.Get(vocab.ErrorDetail)
	if !ok || detail.IsNull() {
		return []string{"the error has no " + vocab.ErrorDetail}
	}
	var out []string
	switch {
	case want.code == vocab.CodeQuestionFailed && want.status() == 422:
		out = append(out, checkQuestionLoc(detail, want)...)
	case want.loc != nil:
		out = append(out, checkLocated(detail, append([]string{"body"}, want.loc...))...)
	}
	return append(out, checkNamed(v, want.names)...)
}

// checkQuestionLoc: some item's loc is body, then (in a batch) requests
// and the item's name, then questions and the question's name.
func checkQuestionLoc(detail jsonvalue.Value, want refusal) []string {
	prefix := []string{"body"}
	if want.state != "" {
		prefix = append(prefix, vocab.BatchRequests, want.state)
	}
	return checkLocated(detail, append(prefix, vocab.RequestQuestions, want.question))
}

// checkLocated: detail is the standard's list, and some item's loc starts
// with prefix; that item has the standard's members.
func checkLocated(detail jsonvalue.Value, prefix []string) []string {
	if detail.Kind() != jsonvalue.KindArray {
		return []string{vocab.ErrorDetail + " of a 422 is not the standard's list"}
	}
	for _, item := range detail.Items() {
		loc, _ := item.Get(vocab.ValidationItemLoc)
		var got []string
		for _, part := range loc.Items() {
			got = append(got, part.Str())
		}
		if len(got) >= len(prefix) && slices.Equal(got[:len(prefix)], prefix) {
			return checkValidationItem(item, vocab.ErrorDetail)
		}
	}
	return []string{fmt.Sprintf("no %s item is located at %v", vocab.ErrorDetail, prefix)}
}

// checkLegacyError: the 4.0 error member carries the same code, question,
// state and reason, and a message.
func checkLegacyError(e jsonvalue.Value, want refusal) []string {
	at := vocab.ErrorError + "."
	if e.Kind() != jsonvalue.KindObject {
		return []string{"the error has no 4.0 " + vocab.ErrorError + " object"}
	}
	out := wantString(e, vocab.LegacyErrorCode, want.code, at)
	out = append(out, wantString(e, vocab.LegacyErrorQuestion, want.question, at)...)
	out = append(out, wantString(e, vocab.LegacyErrorState, want.state, at)...)
	return append(out, wantStrings(e, at, vocab.LegacyErrorMessage)...)
}

// wantString: member name of v is the string want; nothing is checked
// when want is "".
func wantString(v jsonvalue.Value, name, want, at string) []string {
	if want == "" {
		return nil
	}
	if got, _ := v.Get(name); got.Str() != want || got.Kind() != jsonvalue.KindString {
		return []string{fmt.Sprintf("%s%s is %s, want %q", at, name, describe(got), want)}
	}
	return nil
}

// wantStrings: each member names of v is a string.
func wantStrings(v jsonvalue.Value, at string, names ...string) []string {
	var out []string
	for _, name := range names {
		if s, _ := v.Get(name); s.Kind() != jsonvalue.KindString {
			out = append(out, at+name+" is not a string")
		}
	}
	return out
}

// detailText is an error body's detail as text: the string, an object's
// message, or a list's locs and msgs; "" when there is none.
func detailText(v jsonvalue.Value) string {
	d, _ := v.Get(vocab.ErrorDetail)
	switch d.Kind() {
	case jsonvalue.KindString:
		return d.Str()
	case jsonvalue.KindObject:
		m, _ := d.Get(vocab.ErrorDetailMessage)
		return m.Str()
	case jsonvalue.KindArray:
		var parts []string
		for _, item := range d.Items() {
			loc, _ := item.Get(vocab.ValidationItemLoc)
			var segs []string
			for _, p := range loc.Items() {
				segs = append(segs, strings.Trim(string(p.Raw()), `"`))
			}
			msg, _ := item.Get(vocab.ValidationItemMsg)
			parts = append(parts, strings.Join(segs, ".")+": "+msg.Str())
		}
		return strings.Join(parts, "; ")
	}
	return ""
}
