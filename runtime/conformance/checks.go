package conformance

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/vllm-sr/systemone/generated/fieldtable"
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/table"
)

// The checks of successful answers: what the standard defines of a
// response (answers' types and ranges, probabilities over exactly the
// request's options, score legends, integer usage) and, on vllm-sr
// schemas, the extension members the cases ask for. Each returns every
// problem it finds, as "<where> <what>", where is a dotted path into the
// answer body.

// probabilitySlack is how far from 1 a distribution over n keys may sum:
// the standard's "about 1", as answers are rounded to two decimals or more.
func probabilitySlack(n int) float64 { return 0.01 + 0.005*float64(n) }

// checkSuccess checks a 200 JSON object answer, then its body with body.
func checkSuccess(r *reply, body func(jsonvalue.Value) []string) []string {
	if r.status != 200 {
		return []string{fmt.Sprintf("status %d, want 200%s", r.status, detailHint(r))}
	}
	if p := checkJSONObject(r); p != nil {
		return p
	}
	return body(r.json)
}

// checkJSONObject: the answer is a JSON object sent as application/json.
func checkJSONObject(r *reply) []string {
	var out []string
	if ct := r.header.Get(vocab.HeaderContentType); !strings.HasPrefix(ct, "application/json") {
		out = append(out, fmt.Sprintf("content-type %q, want application/json", ct))
	}
	if r.json.Kind() != jsonvalue.KindObject {
		out = append(out, "the body is not a JSON object")
	}
	return out
}

// detailHint is ": <detail>" for an error answer, so a failure says what
// the server objected to.
func detailHint(r *reply) string {
	if text := detailText(r.json); text != "" {
		return ": " + text
	}
	return ""
}

// checkResponse checks a standard response to req at the path at ("" for
// the body, "responses.a." in a batch).
func checkResponse(run *runner, req request, v jsonvalue.Value, at string) []string {
	out := checkEnvelope(run, v, at)
	answers, _ := v.Get(vocab.ResponseAnswers)
	if answers.Kind() != jsonvalue.KindObject {
		return append(out, at+vocab.ResponseAnswers+" is not an object")
	}
	out = append(out, checkAnswers(run, req.questions, answers, at+vocab.ResponseAnswers, "")...)
	return append(out, checkExtensionMembers(run, req.questions, v, at)...)
}

// checkAnswers checks the answers to qs, an object at the path at: the
// names (checkAnswerNames), then each answer; the question named failed,
// when there is one, must have failed (checkFailedAnswer).
func checkAnswers(run *runner, qs []question, answers jsonvalue.Value, at, failed string) []string {
	out := checkAnswerNames(run, qs, answers, at)
	for _, q := range qs {
		a, has := answers.Get(q.name)
		switch {
		case q.name == failed:
			out = append(out, checkFailedAnswer(q, a, at+"."+q.name)...)
		case has:
			out = append(out, checkAnswer(run, q, a, at+"."+q.name)...)
		}
	}
	return out
}

// checkEnvelope checks what a response carries beside its answers: the
// model's name and the usage (which a 4.0 response may leave out).
func checkEnvelope(run *runner, v jsonvalue.Value, at string) []string {
	var out []string
	if m, _ := v.Get(vocab.ResponseModel); m.Kind() != jsonvalue.KindString || m.Str() == "" {
		out = append(out, at+vocab.ResponseModel+" is not a non-empty string")
	}
	if u, ok := v.Get(vocab.ResponseUsage); ok || !run.legacy() {
		out = append(out, checkUsage(u, at+vocab.ResponseUsage)...)
	}
	return out
}

// checkUsage: input_tokens and output_tokens are integers, not negative.
func checkUsage(u jsonvalue.Value, at string) []string {
	if u.Kind() != jsonvalue.KindObject {
		return []string{at + " is not an object"}
	}
	var out []string
	for _, name := range []string{vocab.UsageInputTokens, vocab.UsageOutputTokens} {
		n, _ := u.Get(name)
		if i, ok := n.Int(); !ok || i < 0 {
			out = append(out, at+"."+name+" is not a non-negative integer")
		}
	}
	return out
}

// checkAnswerNames: there is one answer per question, under its name,
// and no other (but a composed set's <question>.<label> nouls); on a
// vllm-sr schema, in the request's order.
func checkAnswerNames(run *runner, qs []question, answers jsonvalue.Value, at string) []string {
	var out, order []string
	asked := map[string]bool{}
	for _, q := range qs {
		asked[q.name] = true
		if _, ok := answers.Get(q.name); !ok {
			out = append(out, at+" has no answer for question "+strconv.Quote(q.name))
		}
	}
	for _, m := range answers.Members() {
		switch {
		case asked[m.Name]:
			order = append(order, m.Name)
		case !composedName(qs, m.Name):
			out = append(out, at+" has an answer "+strconv.Quote(m.Name)+" for no question asked")
		}
	}
	if run.extended() && len(out) == 0 {
		var want []string
		for _, q := range qs {
			want = append(want, q.name)
		}
		if !slices.Equal(order, want) {
			out = append(out, fmt.Sprintf("%s are in the order %v, not the request's %v", at, order, want))
		}
	}
	return out
}

// composedName reports whether name is <set question>.<label>.
func composedName(qs []question, name string) bool {
	for _, q := range qs {
		if label, ok := strings.CutPrefix(name, q.name+"."); ok && q.typ == vocab.QuestionTypeSet && slices.Contains(q.options(), label) {
			return true
		}
	}
	return false
}

// checkAnswer checks one answer against its question.
func checkAnswer(run *runner, q question, a jsonvalue.Value, at string) []string {
	if a.Kind() != jsonvalue.KindObject {
		return []string{at + " is not an object"}
	}
	want := string(fieldtable.AnswerType(table.QuestionType(q.typ)))
	if t, _ := a.Get(vocab.AnswerType); t.Str() != want {
		return []string{fmt.Sprintf("%s.%s is %s, want %q", at, vocab.AnswerType, describe(t), want)}
	}
	var out []string
	switch q.typ {
	case vocab.QuestionTypeNoul, vocab.QuestionTypeSpan:
		out = append(out, unitNumber(a, vocab.AnswerNoul, at, true)...)
	case vocab.QuestionTypeChoice:
		out = append(out, checkChoice(q, a, at)...)
	case vocab.QuestionTypeScore:
		out = append(out, checkScore(q, a, at)...)
	case vocab.QuestionTypeSet:
		out = append(out, unitNumber(a, vocab.AnswerNoul, at, false)...)
	}
	if run.extended() {
		out = append(out, unitNumber(a, vocab.AnswerAbstainProbability, at, false)...)
	}
	return out
}

func checkChoice(q question, a jsonvalue.Value, at string) []string {
	opts := q.options()
	var out []string
	if c, _ := a.Get(vocab.AnswerChoice); c.Kind() != jsonvalue.KindString || !slices.Contains(opts, c.Str()) {
		out = append(out, fmt.Sprintf("%s.%s is %s, not one of the options %v", at, vocab.AnswerChoice, describe(c), opts))
	}
	out = append(out, distribution(a, opts, at)...)
	return append(out, unitNumber(a, vocab.AnswerConfidence, at, true)...)
}

func checkScore(q question, a jsonvalue.Value, at string) []string {
	keys := levelKeys(q.levels())
	var out []string
	s, _ := a.Get(vocab.AnswerScore)
	if f, ok := s.Float(); !ok || f < 0 || f > float64(q.levels()-1) {
		out = append(out, fmt.Sprintf("%s.%s is %s, outside 0..%d", at, vocab.AnswerScore, describe(s), q.levels()-1))
	}
	out = append(out, distribution(a, keys, at)...)
	legend, _ := a.Get(vocab.AnswerLegend)
	if got := memberNames(legend); legend.Kind() != jsonvalue.KindObject || !sameSet(got, keys) {
		out = append(out, fmt.Sprintf("%s.%s has the keys %v, want the level indexes %v", at, vocab.AnswerLegend, got, keys))
	}
	return append(out, unitNumber(a, vocab.AnswerConfidence, at, true)...)
}

// distribution: probabilities are keyed by exactly keys, each in 0..1,
// summing to about 1.
func distribution(a jsonvalue.Value, keys []string, at string) []string {
	at += "." + vocab.AnswerProbabilities
	p, _ := a.Get(vocab.AnswerProbabilities)
	if p.Kind() != jsonvalue.KindObject {
		return []string{at + " is not an object"}
	}
	var out []string
	if got := memberNames(p); !sameSet(got, keys) {
		out = append(out, fmt.Sprintf("%s has the keys %v, want exactly %v", at, got, keys))
	}
	sum := 0.0
	for _, m := range p.Members() {
		f, ok := m.Value.Float()
		if !ok || f < 0 || f > 1 {
			out = append(out, fmt.Sprintf("%s.%s is %s, outside 0..1", at, m.Name, describe(m.Value)))
		}
		sum += f
	}
	if math.Abs(sum-1) > probabilitySlack(len(keys)) {
		out = append(out, fmt.Sprintf("%s sum to %.4g, not about 1", at, sum))
	}
	return out
}

// unitNumber: member name of a is a number in 0..1; absent is a problem
// only when required.
func unitNumber(a jsonvalue.Value, name, at string, required bool) []string {
	v, ok := a.Get(name)
	if !ok {
		if required {
			return []string{at + " has no " + name}
		}
		return nil
	}
	if f, ok := v.Float(); !ok || f < 0 || f > 1 {
		return []string{fmt.Sprintf("%s.%s is %s, outside 0..1", at, name, describe(v))}
	}
	return nil
}

// checkExtensionMembers checks the response members a vllm-sr server adds
// for set and span questions: sets, spans and thresholds.
func checkExtensionMembers(run *runner, qs []question, v jsonvalue.Value, at string) []string {
	var out []string
	for _, q := range qs {
		switch q.typ {
		case vocab.QuestionTypeSet:
			out = append(out, checkSet(q, v, at+vocab.ResponseSets+"."+q.name)...)
		case vocab.QuestionTypeSpan:
			out = append(out, checkSpans(q, v, at+vocab.ResponseSpans+"."+q.name)...)
		default:
			continue
		}
		thresholds, _ := v.Get(vocab.ResponseThresholds)
		if _, has := thresholds.Get(q.name); has {
			out = append(out, unitNumber(thresholds, q.name, at+vocab.ResponseThresholds, true)...)
		}
	}
	return out
}

func checkSet(q question, v jsonvalue.Value, at string) []string {
	sets, _ := v.Get(vocab.ResponseSets)
	s, _ := sets.Get(q.name)
	if s.Kind() != jsonvalue.KindObject {
		return []string{at + " is not an object"}
	}
	var out []string
	sel, _ := s.Get(vocab.SetResultSelected)
	for _, item := range sel.Items() {
		if !slices.Contains(q.options(), item.Str()) {
			out = append(out, fmt.Sprintf("%s.%s holds %s, not one of the labels %v", at, vocab.SetResultSelected, describe(item), q.options()))
		}
	}
	if sel.Kind() != jsonvalue.KindArray {
		out = append(out, at+"."+vocab.SetResultSelected+" is not an array")
	}
	p, _ := s.Get(vocab.SetResultProbabilities)
	if got := memberNames(p); p.Kind() != jsonvalue.KindObject || !sameSet(got, q.options()) {
		out = append(out, fmt.Sprintf("%s.%s has the keys %v, want exactly %v", at, vocab.SetResultProbabilities, got, q.options()))
	}
	for _, m := range p.Members() {
		out = append(out, unitNumber(p, m.Name, at+"."+vocab.SetResultProbabilities, true)...)
	}
	return out
}

func checkSpans(q question, v jsonvalue.Value, at string) []string {
	spans, _ := v.Get(vocab.ResponseSpans)
	list, _ := spans.Get(q.name)
	if list.Kind() != jsonvalue.KindArray {
		return []string{at + " is not an array"}
	}
	var out []string
	for i, item := range list.Items() {
		where := at + "[" + strconv.Itoa(i) + "]"
		if l, _ := item.Get(vocab.SpanItemLabel); !slices.Contains(q.options(), l.Str()) {
			out = append(out, fmt.Sprintf("%s.%s is %s, not one of the labels %v", where, vocab.SpanItemLabel, describe(l), q.options()))
		}
		s, _ := item.Get(vocab.SpanItemStart)
		e, _ := item.Get(vocab.SpanItemEnd)
		start, okS := s.Int()
		end, okE := e.Int()
		if !okS || !okE || start < 0 || end < start {
			out = append(out, fmt.Sprintf("%s has start %s and end %s, not 0 <= start <= end", where, describe(s), describe(e)))
		}
		if t, _ := item.Get(vocab.SpanItemText); t.Kind() != jsonvalue.KindString || (okS && okE && end >= start && utf8.RuneCountInString(t.Str()) != int(end-start)) {
			out = append(out, fmt.Sprintf("%s.%s is not a string of end-start characters", where, vocab.SpanItemText))
		}
		out = append(out, unitNumber(item, vocab.SpanItemProbability, where, true)...)
	}
	return out
}

// levelKeys are a score's level indexes as keys: "0" to "n-1".
func levelKeys(n int) []string {
	keys := make([]string, n)
	for i := range keys {
		keys[i] = strconv.Itoa(i)
	}
	return keys
}

func memberNames(v jsonvalue.Value) []string {
	var names []string
	for _, m := range v.Members() {
		names = append(names, m.Name)
	}
	return names
}

func sameSet(a, b []string) bool {
	x, y := slices.Clone(a), slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y)
}

// describe is a short rendering of a value for a failed check's message:
// the value itself when it is a scalar, its kind otherwise, "absent" for
// none.
func describe(v jsonvalue.Value) string {
	switch v.Kind() {
	case jsonvalue.KindInvalid:
		return "absent"
	case jsonvalue.KindObject, jsonvalue.KindArray:
		return "an " + v.Kind().String()
	}
	s := string(v.Raw())
	if len(s) > 40 {
		s = s[:40] + "..."
	}
	return s
}
