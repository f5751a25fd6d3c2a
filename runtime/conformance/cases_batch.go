package conformance

import (
	"fmt"
	"maps"
	"net/http"
	"slices"

	"github.com/vllm-sr/systemone/generated/corpus"
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/table"
)

// batch is a batch of named requests, in order.
type batch struct {
	names []string
	items map[string]request
}

func newBatch(items map[string]request) batch {
	return batch{names: slices.Sorted(maps.Keys(items)), items: items}
}

func (b batch) bodyFor(run *runner) []byte {
	var ms []jsonvalue.Member
	if run.model != "" {
		ms = append(ms, member(vocab.BatchModel, jsonvalue.String(run.model)))
	}
	var reqs []jsonvalue.Member
	for _, name := range b.names {
		reqs = append(reqs, member(name, b.items[name].value("")))
	}
	ms = append(ms, member(vocab.BatchRequests, object(reqs...)))
	return jsonvalue.Compact(object(ms...))
}

// batchCase: each request of a batch is answered under its name, in
// order, as it would be alone, and the batch's usage sums theirs.
func batchCase() testCase {
	b := newBatch(map[string]request{
		"doc_1": {questions: []question{noulQuestion("urgent")}},
		"doc_2": {state: objectState(), questions: []question{choiceQuestion("team", 3), scoreQuestion("severity", 3)}},
	})
	return testCase{name: "batch", method: http.MethodPost, path: vocab.PathSystemoneBatch, valid: true, body: b.bodyFor, //vocab:not-spec the case's name
		answer: func(run *runner, v jsonvalue.Value) []string { return checkBatch(run, b, v) }}
}

func checkBatch(run *runner, b batch, v jsonvalue.Value) []string {
	out := wantStrings(v, "", vocab.BatchResponseModel)
	responses, _ := v.Get(vocab.BatchResponseResponses)
	if got := memberNames(responses); !slices.Equal(got, b.names) {
		return append(out, fmt.Sprintf("%s are %v, want %v in that order", vocab.BatchResponseResponses, got, b.names))
	}
	sums := map[string]int64{}
	for _, name := range b.names {
		resp, _ := responses.Get(name)
		out = append(out, checkResponse(run, b.items[name], resp, vocab.BatchResponseResponses+"."+name+".")...)
		usage, _ := resp.Get(vocab.ResponseUsage)
		for _, m := range usage.Members() {
			n, _ := m.Value.Int()
			sums[m.Name] += n
		}
	}
	usage, _ := v.Get(vocab.BatchResponseUsage)
	out = append(out, checkUsage(usage, vocab.BatchResponseUsage)...)
	for _, name := range []string{vocab.UsageInputTokens, vocab.UsageOutputTokens} {
		if n, _ := usage.Get(name); !sameInt(n, sums[name]) {
			out = append(out, fmt.Sprintf("%s.%s is %s, not the sum %d of the responses'", vocab.BatchResponseUsage, name, describe(n), sums[name]))
		}
	}
	return out
}

func sameInt(v jsonvalue.Value, n int64) bool {
	got, ok := v.Int()
	return ok && got == n
}

// batchRefused is a batch the server must refuse as want says.
func batchRefused(name string, items map[string]request, want refusal) testCase {
	return testCase{name: name, method: http.MethodPost, path: vocab.PathSystemoneBatch, body: newBatch(items).bodyFor, refuse: want}
}

// decisionsCase: POST /v1/decisions answers the valid questions and the
// failed one in the same 200, the failed one with its error kind, reason
// and message in place of an answer. The failed question breaks a limit
// of the schema, so every server fails it.
func decisionsCase(req request, failed string) testCase {
	return testCase{name: "decisions/failed-question", method: http.MethodPost, path: vocab.PathDecisions, body: req.bodyFor,
		answer: func(run *runner, v jsonvalue.Value) []string {
			answers, _ := v.Get(vocab.ResponseAnswers)
			return append(checkEnvelope(run, v, ""), checkAnswers(run, req.questions, answers, vocab.ResponseAnswers, failed)...)
		}}
}

// checkFailedAnswer: a failed question's answer names its type, an error
// kind of the spec, a reason word and a message, and carries no answer.
func checkFailedAnswer(q question, a jsonvalue.Value, at string) []string {
	if a.Kind() != jsonvalue.KindObject {
		return []string{at + " is " + describe(a) + ", want the failed question's error"}
	}
	var out []string
	out = append(out, wantString(a, vocab.AnswerType, q.typ, at+".")...)
	out = append(out, wantString(a, vocab.AnswerError, vocab.QuestionErrorInvalidQuestion, at+".")...)
	out = append(out, checkReason(a, refusal{}, at+".")...)
	out = append(out, wantStrings(a, at+".", vocab.AnswerMessage)...)
	if _, has := a.Get(q.typ); has {
		out = append(out, at+" carries an answer ("+q.typ+") beside its error")
	}
	return out
}

// legacyFormCases send the corpus's 4.0 forms that use only the
// standard's text question types (choices, levels, states, long_context,
// implicit roles); a vllm-sr/4.0 server answers each in the 4.0 shape.
func legacyFormCases() []testCase {
	var cases []testCase
	for _, cc := range corpus.Cases {
		if cc.Kind != table.CorpusLegacyForm {
			continue
		}
		req, ok := legacyRequest(cc)
		if !ok {
			continue
		}
		cases = append(cases, testCase{name: "legacy-form/" + cc.Name, method: http.MethodPost, path: cc.Endpoint, valid: true,
			body:   func(run *runner) []byte { return corpusBody(cc, run.model) },
			answer: func(run *runner, v jsonvalue.Value) []string { return checkLegacyResponse(run, req, v) }})
	}
	return cases
}

// legacyRequest reads a corpus request's states and questions, 4.0's
// choices and levels read as criteria; false when it asks for anything
// but the standard's text question types (presets, media, set, span).
func legacyRequest(cc table.CorpusCase) (legacyForm, bool) {
	v, err := jsonvalue.Decode(corpusBody(cc, ""), jsonvalue.Options{})
	if err != nil {
		return legacyForm{}, false
	}
	var req legacyForm
	for _, name := range []string{vocab.RequestImages, vocab.RequestVideos, vocab.RequestAssets} {
		if _, has := v.Get(name); has {
			return legacyForm{}, false
		}
	}
	states, _ := v.Get(vocab.RequestStates)
	req.states = memberNames(states)
	qs, _ := v.Get(vocab.RequestQuestions)
	for _, m := range qs.Members() {
		q, ok := legacyQuestion(m.Name, m.Value)
		if !ok {
			return legacyForm{}, false
		}
		req.questions = append(req.questions, q)
	}
	return req, len(req.questions) > 0
}

func legacyQuestion(name string, v jsonvalue.Value) (question, bool) {
	t, _ := v.Get(vocab.QuestionType)
	q := question{name: name, typ: t.Str()}
	if !slices.Contains([]string{vocab.QuestionTypeNoul, vocab.QuestionTypeChoice, vocab.QuestionTypeScore}, q.typ) {
		return q, false
	}
	if _, preset := v.Get(vocab.QuestionPreset); preset {
		return q, false
	}
	for _, name := range []string{vocab.QuestionCriteria, vocab.QuestionChoices, vocab.QuestionLevels} {
		if c, has := v.Get(name); has {
			q.criteria = c
		}
	}
	return q, true
}

// legacyForm is a 4.0 request: its questions, and its states' names when
// it is a states request.
type legacyForm struct {
	states    []string
	questions []question
}

// checkLegacyResponse checks a 4.0 answer: a states request's answers
// under each state's name, in order; any other's as a standard response.
func checkLegacyResponse(run *runner, req legacyForm, v jsonvalue.Value) []string {
	if req.states == nil {
		return checkResponse(run, request{questions: req.questions}, v, "")
	}
	states, _ := v.Get(vocab.ResponseStates)
	if got := memberNames(states); !slices.Equal(got, req.states) {
		return []string{fmt.Sprintf("%s are %v, want %v in that order", vocab.ResponseStates, got, req.states)}
	}
	var out []string
	for _, name := range req.states {
		answers, _ := states.Get(name)
		out = append(out, checkAnswers(run, req.questions, answers, vocab.ResponseStates+"."+name, "")...)
	}
	return out
}
