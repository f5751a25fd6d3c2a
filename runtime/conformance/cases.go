package conformance

import (
	"net/http"
	"slices"
	"strconv"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/table"
)

// testCase is one conformance case: one request and the check of its
// answer.
type testCase struct {
	// name is the case's short name in the report.
	name   string
	method string
	path   string
	header http.Header
	// body is the request body; nil sends none.
	body func(*runner) []byte
	// valid reports whether the request follows the schema.
	valid bool
	// applies, when set, says whether the case runs against this server
	// (a question type its card declares).
	applies func(*runner) bool
	// answer, when set, wants a 200 JSON object and returns every way its
	// body breaks the specification; otherwise the server must refuse the
	// request as refuse says.
	answer func(*runner, jsonvalue.Value) []string
	refuse refusal
}

// unknownMember is a member name no specification defines.
const unknownMember = "x_conformance_unknown"

// casesFor are the cases of schema, in the order they run: the listing
// first (it names the model when the options do not), then the
// standard's cases, then the schema's own.
func casesFor(schema table.SchemaID) []testCase {
	cases := append([]testCase{listingCase()}, standardCases()...)
	switch schema {
	case table.SchemaVllmSR50:
		cases = append(cases, extensionCases()...)
	case table.SchemaVllmSR40:
		cases = append(cases, legacyCases()...)
	}
	return cases
}

// standardCases are what systemone/0.2 defines: standard questions of
// every text type, the state's kinds, the official SDK's forms, the
// limits, and unknown members. On a vllm-sr schema the same requests are
// answered as that schema says (its status and error code): vllm-sr/5.0
// as the standard, but for the unknown members (400 naming them, as the
// extension reference says); vllm-sr/4.0 as its frozen contract.
func standardCases() []testCase {
	return []testCase{
		answered("question/noul", ask(noulQuestion("urgent"))),
		answered("question/choice", ask(choiceQuestion("team", 3))),
		answered("question/score", ask(scoreQuestion("severity", 3))),
		answered("question/every-type", ask(noulQuestion("urgent"), choiceQuestion("team", 3), scoreQuestion("severity", 5), noulWithCriteria("blocked"))),
		answered("state/object", request{state: objectState(), questions: []question{noulQuestion("urgent")}}),
		answered("state/array", request{state: jsonvalue.Array(jsonvalue.String("The export fails."), jsonvalue.String("It is urgent.")),
			questions: []question{choiceQuestion("team", 2)}}),
		answered("sdk/typesafe-js-0.6.0", sdkRequest()),
		refused("limit/levels-below-min", ask(scoreQuestion("severity", int(vocab.LimitLevelsMin)-1)),
			questionRefusal("severity", vocab.LimitLevelsMin, vocab.ReasonTooFew, vocab.ReasonTooFewLevels)),
		refused("limit/levels-above-max", ask(scoreQuestion("severity", int(vocab.LimitLevelsMax)+1)),
			questionRefusal("severity", vocab.LimitLevelsMax, vocab.ReasonTooMany, vocab.ReasonTooManyLevels)),
		refused("limit/choices-above-max", ask(choiceQuestion("team", int(vocab.LimitChoicesMax)+1)),
			questionRefusal("team", vocab.LimitChoicesMax, vocab.ReasonTooMany, vocab.ReasonTooManyOptions)),
		refused("limit/questions-below-min", request{questions: []question{}},
			violation(vocab.ReasonTooFew, vocab.LimitQuestionsMin, vocab.RequestQuestions)),
		refused("unknown-member/request", ask(noulQuestion("urgent")).with(unknownMember, jsonvalue.Bool(true)),
			requestRefusal(vocab.CodeInvalidRequest, vocab.ReasonUnknownMember, 0, unknownMember)),
		refused("unknown-member/question", ask(withMember(noulQuestion("urgent"), unknownMember, jsonvalue.Bool(true))),
			requestRefusal(vocab.CodeInvalidRequest, vocab.ReasonUnknownMember, 0, unknownMember)),
		refused("unknown-member/noul-criteria", ask(withCriteriaMember(noulWithCriteria("blocked"), unknownMember)),
			requestRefusal(vocab.CodeInvalidRequest, vocab.ReasonUnknownMember, 0, unknownMember)),
		refused("invalid/state-number", request{state: jsonvalue.Int(7), questions: []question{noulQuestion("urgent")}},
			violation(vocab.ReasonWrongType, 0, vocab.RequestState)),
		refused("invalid/missing-questions", ask(), violation(vocab.ReasonMissingMember, 0, vocab.RequestQuestions)),
		refused("invalid/question-type", ask(question{name: "urgent", typ: "yes_or_no", instructions: jsonvalue.String("Is it urgent?")}),
			questionRefusal("urgent", 0, vocab.ReasonNotInEnum)),
	}
}

// answered is a POST /v1/systemone case whose answer must be a 200 with
// an answer of the right type and range for every question.
func answered(name string, req request) testCase {
	return testCase{name: name, method: http.MethodPost, path: vocab.PathSystemone, valid: true, body: req.bodyFor,
		answer: func(run *runner, v jsonvalue.Value) []string { return checkResponse(run, req, v, "") }}
}

// refused is a POST /v1/systemone case whose request the server must
// refuse as want says.
func refused(name string, req request, want refusal) testCase {
	return testCase{name: name, method: http.MethodPost, path: vocab.PathSystemone, body: req.bodyFor, refuse: want}
}

// question is one question a case asks.
type question struct {
	name string
	typ  string
	// instructions and criteria are omitted when zero.
	instructions jsonvalue.Value
	criteria     jsonvalue.Value
	// extra are more members, written after the others.
	extra []jsonvalue.Member
}

func (q question) value() jsonvalue.Value {
	ms := []jsonvalue.Member{member(vocab.QuestionType, jsonvalue.String(q.typ))}
	if q.instructions.IsValid() {
		ms = append(ms, member(vocab.QuestionInstructions, q.instructions))
	}
	if q.criteria.IsValid() {
		ms = append(ms, member(vocab.QuestionCriteria, q.criteria))
	}
	return object(append(ms, q.extra...)...)
}

// options are a choice's option keys, or a set's or span's labels, in
// order; nil for other types.
func (q question) options() []string {
	if q.criteria.Kind() != jsonvalue.KindObject || q.typ == vocab.QuestionTypeNoul {
		return nil
	}
	return memberNames(q.criteria)
}

// levels is a score's number of levels.
func (q question) levels() int { return q.criteria.Len() }

// request is one standard request a case sends.
type request struct {
	// state defaults to a sentence when zero.
	state jsonvalue.Value
	// questions nil leaves the member out.
	questions []question
	// extra are more request members, written last.
	extra []jsonvalue.Member
	// noModel leaves the model out even when the run names one.
	noModel bool
}

// ask is a request of the default state asking qs.
func ask(qs ...question) request { return request{questions: qs} }

func (req request) value(model string) jsonvalue.Value {
	var ms []jsonvalue.Member
	if model != "" && !req.noModel {
		ms = append(ms, member(vocab.RequestModel, jsonvalue.String(model)))
	}
	state := req.state
	if !state.IsValid() {
		state = jsonvalue.String("Our export button fails with a 500 since this morning. Open a ticket.")
	}
	ms = append(ms, member(vocab.RequestState, state))
	if req.questions != nil {
		var qs []jsonvalue.Member
		for _, q := range req.questions {
			qs = append(qs, member(q.name, q.value()))
		}
		ms = append(ms, member(vocab.RequestQuestions, object(qs...)))
	}
	return object(append(ms, req.extra...)...)
}

func (req request) bodyFor(run *runner) []byte { return jsonvalue.Compact(req.value(run.model)) }

// with is req with one more member, written last.
func (req request) with(name string, v jsonvalue.Value) request {
	req.extra = append(slices.Clone(req.extra), member(name, v))
	return req
}

// object builds an object of members the kit writes itself, whose names
// are distinct.
func object(ms ...jsonvalue.Member) jsonvalue.Value {
	v, _ := jsonvalue.Object(ms...)
	return v
}

func member(name string, v jsonvalue.Value) jsonvalue.Member {
	return jsonvalue.Member{Name: name, Value: v}
}

// texts is an object of string members, given as name, value pairs.
func texts(pairs ...string) jsonvalue.Value {
	var ms []jsonvalue.Member
	for i := 0; i+1 < len(pairs); i += 2 {
		ms = append(ms, member(pairs[i], jsonvalue.String(pairs[i+1])))
	}
	return object(ms...)
}

func noulQuestion(name string) question {
	return question{name: name, typ: vocab.QuestionTypeNoul,
		instructions: jsonvalue.String("Does the user report a problem that blocks their work?")}
}

func noulWithCriteria(name string) question {
	q := noulQuestion(name)
	q.criteria = texts(vocab.NoulCriteriaTrue, "The user cannot go on with their task", vocab.NoulCriteriaFalse, "The user can go on")
	return q
}

// choiceQuestion has n options, o1 to on; the last option's description
// is null, as the standard allows.
func choiceQuestion(name string, n int) question {
	var ms []jsonvalue.Member
	for i := 1; i <= n; i++ {
		desc := jsonvalue.String("Team " + strconv.Itoa(i) + " of the support desk")
		if i == n {
			desc = jsonvalue.Null()
		}
		ms = append(ms, member("o"+strconv.Itoa(i), desc))
	}
	return question{name: name, typ: vocab.QuestionTypeChoice,
		instructions: jsonvalue.String("Which team should handle this request?"), criteria: object(ms...)}
}

// scoreQuestion has n levels, lowest first.
func scoreQuestion(name string, n int) question {
	var items []jsonvalue.Value
	for i := range n {
		items = append(items, jsonvalue.String("Severity level "+strconv.Itoa(i)))
	}
	return question{name: name, typ: vocab.QuestionTypeScore,
		instructions: jsonvalue.String("How severe is the problem?"), criteria: jsonvalue.Array(items...)}
}

func withMember(q question, name string, v jsonvalue.Value) question {
	q.extra = append(slices.Clone(q.extra), member(name, v))
	return q
}

// withCriteriaMember adds a member named name to a noul's criteria.
func withCriteriaMember(q question, name string) question {
	q.criteria = object(append(slices.Clone(q.criteria.Members()), member(name, jsonvalue.String("Maybe")))...)
	return q
}

// objectState is an object state with free keys and a number in it.
func objectState() jsonvalue.Value {
	return object(member("ticket", jsonvalue.String("The export button fails with a 500.")), member("amount_usd", jsonvalue.Int(49)))
}

// sdkRequest is the body the official JavaScript SDK @typesafe-ai/sdk
// 0.6.0 sends: a noul without criteria, a choice with a null description,
// a score, and a noul whose instructions are null.
func sdkRequest() request {
	choice := choiceQuestion("b", 2)
	choice.instructions = jsonvalue.String("Which?")
	score := scoreQuestion("s", 2)
	score.instructions = jsonvalue.String("How?")
	return request{state: texts("note", "hi"), questions: []question{
		{name: "a", typ: vocab.QuestionTypeNoul, instructions: jsonvalue.String("Is it?")},
		choice, score,
		{name: "n", typ: vocab.QuestionTypeNoul, instructions: jsonvalue.Null()},
	}}
}
