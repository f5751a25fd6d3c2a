package conformance

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/vllm-sr/systemone/generated/corpus"
	"github.com/vllm-sr/systemone/generated/fieldtable"
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/table"
)

// extensionCases are vllm-sr/5.0's own: the cases both vllm-sr schemas
// share, the set and span types where the model's card declares them,
// options.return_meta, and the removed 4.0 forms, each refused with 400
// naming its replacement.
func extensionCases() []testCase {
	cases := sharedCases()
	cases = append(cases,
		cardCase(answered("question/set", ask(setQuestion("topics"))), vocab.QuestionTypeSet),
		cardCase(answered("question/span", request{state: jsonvalue.String("Send the contract to jo.muller@example.com before Friday."),
			questions: []question{spanQuestion("pii")}}), vocab.QuestionTypeSpan),
		metaCase(),
	)
	return append(cases, removedFormCases()...)
}

// legacyCases are vllm-sr/4.0's own: the shared cases, answered in the
// 4.0 shapes, and the corpus's 4.0 forms of the standard question types,
// accepted.
func legacyCases() []testCase {
	return append(sharedCases(), legacyFormCases()...)
}

// sharedCases are what vllm-sr/5.0 defines and a 4.0 listener also
// serves: /health, the batch endpoint, /v1/decisions, and the error table
// (unknown model and path, invalid JSON, the body limit).
func sharedCases() []testCase {
	failing := scoreQuestion("severity", int(vocab.LimitLevelsMin)-1)
	return []testCase{
		healthCase(),
		batchCase(),
		batchRefused("batch/question-failed", map[string]request{
			"a": ask(noulQuestion("urgent")),
			"b": ask(failing),
		}, refusal{code: vocab.CodeQuestionFailed, kind: vocab.QuestionErrorInvalidQuestion, question: "severity", state: "b",
			reasons: []string{vocab.ReasonTooFew, vocab.ReasonTooFewLevels}, limit: vocab.LimitLevelsMin}),
		batchRefused("batch/unknown-member", map[string]request{
			"a": ask(noulQuestion("urgent")).with(unknownMember, jsonvalue.Int(1)),
		}, requestRefusal(vocab.CodeInvalidRequest, vocab.ReasonUnknownMember, 0, unknownMember)),
		decisionsCase(ask(noulQuestion("urgent"), failing), "severity"),
		schemaValid(refused("error/unknown-model", request{questions: []question{noulQuestion("urgent")}, noModel: true}.
			with(vocab.RequestModel, jsonvalue.String("x-conformance/no-such-model")),
			requestRefusal(vocab.CodeModelNotFound, vocab.ReasonUnknownModel, 0))),
		{name: "error/unknown-path", method: http.MethodGet, path: "/v1/x-conformance-unknown",
			refuse: requestRefusal(vocab.CodeNotFound, vocab.ReasonUnknownPath, 0)},
		{name: "error/invalid-json", method: http.MethodPost, path: vocab.PathSystemone,
			body:   func(*runner) []byte { return []byte(`{"state": "unfinished`) },
			refuse: requestRefusal(vocab.CodeInvalidRequest, vocab.ReasonInvalidJSON, 0)},
		bodyLimitCase(),
	}
}

// schemaValid marks a refused case whose request follows the schema: the
// server refuses it for what it names (a model it does not serve).
func schemaValid(c testCase) testCase {
	c.valid = true
	return c
}

// listingCase checks GET /v1/models and keeps each model it lists with
// the question types its card declares; Run then picks the model the
// cases name (pickModel).
func listingCase() testCase {
	return testCase{name: "listing", method: http.MethodGet, path: vocab.PathModels, valid: true, answer: checkListing}
}

func checkListing(run *runner, v jsonvalue.Value) []string {
	var out []string
	if run.legacy() {
		out = append(out, checkLegacyListing(v)...)
	}
	models, has := v.Get(vocab.ListingModels)
	if !has && run.legacy() {
		return out
	}
	if models.Kind() != jsonvalue.KindArray {
		return append(out, vocab.ListingModels+" is not an array")
	}
	for i, m := range models.Items() {
		at := fmt.Sprintf("%s[%d].", vocab.ListingModels, i)
		out = append(out, wantStrings(m, at, vocab.ListingEntryName, vocab.ListingEntryDescription)...)
		out = append(out, checkReleaseDate(run, m, at)...)
		if run.schema() == table.SchemaVllmSR50 {
			out = append(out, checkEntryExtensions(m, at)...)
		}
		name, _ := m.Get(vocab.ListingEntryName)
		card, _ := m.Get(vocab.ListingEntryCard)
		types, _ := card.Get("question_types") // the card's own member; the spec leaves the card open
		var typeNames []string
		for _, t := range types.Items() {
			typeNames = append(typeNames, t.Str())
		}
		run.listed = append(run.listed, listedModel{name: name.Str(), questionTypes: typeNames})
	}
	return out
}

// checkReleaseDate: the standard requires a release_date string. A vllm-sr
// listing may leave it out (the extension's override, for a name with no
// date of its own, such as a Router's pool), and one it gives is a real
// date: YYYY-MM-DD, or a timestamp that starts with one.
func checkReleaseDate(run *runner, m jsonvalue.Value, at string) []string {
	d, has := m.Get(vocab.ListingEntryReleaseDate)
	switch {
	case !run.extended():
		return wantStrings(m, at, vocab.ListingEntryReleaseDate)
	case !has:
		return nil
	case d.Kind() != jsonvalue.KindString:
		return []string{at + vocab.ListingEntryReleaseDate + " is not a string"}
	}
	if _, err := time.Parse(time.DateOnly, d.Str()[:min(len(d.Str()), len(time.DateOnly))]); err != nil {
		return []string{at + vocab.ListingEntryReleaseDate + " is " + describe(d) + ", not a date (YYYY-MM-DD)"}
	}
	return nil
}

// checkEntryExtensions: a 5.0 entry gives the extension set's version and
// its features, each a word of the extension spec's features, once, in
// that list's order; its card, when listed, is an object.
func checkEntryExtensions(m jsonvalue.Value, at string) []string {
	var out []string
	out = append(out, wantString(m, vocab.ListingEntryVersion, extensionVersion(table.SchemaVllmSR50), at)...)
	f, _ := m.Get(vocab.ListingEntryFeatures)
	if f.Kind() != jsonvalue.KindArray {
		out = append(out, at+vocab.ListingEntryFeatures+" is not an array")
	}
	last := -1
	for i, word := range f.Items() {
		where := fmt.Sprintf("%s%s[%d]", at, vocab.ListingEntryFeatures, i)
		switch n := slices.Index(vocab.Features, word.Str()); {
		case word.Kind() != jsonvalue.KindString || n < 0:
			out = append(out, where+" is "+describe(word)+", not a feature word of the specification")
		case n <= last:
			out = append(out, where+" is "+describe(word)+", out of the specification's order (or listed twice)")
		default:
			last = n
		}
	}
	if c, has := m.Get(vocab.ListingEntryCard); has && c.Kind() != jsonvalue.KindObject {
		out = append(out, at+vocab.ListingEntryCard+" is not an object")
	}
	return out
}

// checkLegacyListing: the 4.0 listing's data list of models.
func checkLegacyListing(v jsonvalue.Value) []string {
	var out []string
	if o, _ := v.Get(vocab.ListingObject); o.Str() != "list" {
		out = append(out, vocab.ListingObject+" is "+describe(o)+", want \"list\"")
	}
	data, _ := v.Get(vocab.ListingData)
	if data.Kind() != jsonvalue.KindArray {
		return append(out, vocab.ListingData+" is not an array")
	}
	for i, item := range data.Items() {
		id, _ := item.Get(vocab.LegacyListItemID)
		o, _ := item.Get(vocab.LegacyListItemObject)
		if id.Kind() != jsonvalue.KindString || o.Str() != "model" { //vocab:not-spec the 4.0 list item's object value, an enum value, not a member name
			out = append(out, fmt.Sprintf("%s[%d] has no string %s or its %s is not \"model\"", vocab.ListingData, i, vocab.LegacyListItemID, vocab.LegacyListItemObject))
		}
	}
	return out
}

// extensionVersion is the extension set version of a vllm-sr schema ID:
// "5.0" for vllm-sr/5.0.
func extensionVersion(schema table.SchemaID) string {
	_, v, _ := strings.Cut(string(schema), "/")
	return v
}

// healthCase: GET /health answers 200 with a status; 5.0 adds the
// extension set version.
func healthCase() testCase {
	return testCase{name: "health", method: http.MethodGet, path: vocab.PathHealth, valid: true,
		answer: func(run *runner, v jsonvalue.Value) []string {
			out := wantStrings(v, "", vocab.HealthStatus)
			if !run.legacy() {
				out = append(out, wantString(v, vocab.HealthVersion, extensionVersion(run.schema()), "")...)
			}
			return out
		}}
}

// cardCase runs c only when the model's card declares question type t.
func cardCase(c testCase, t string) testCase {
	c.applies = func(run *runner) bool { return slices.Contains(run.questionTypes, t) }
	return c
}

func setQuestion(name string) question {
	return question{name: name, typ: vocab.QuestionTypeSet, instructions: jsonvalue.String("Which topics does the message raise?"),
		criteria: texts("billing", "Payments and invoices", "outage", "Errors and downtime")}
}

func spanQuestion(name string) question {
	return question{name: name, typ: vocab.QuestionTypeSpan, instructions: jsonvalue.String("Which words are personal data?"),
		criteria: texts("EMAIL", "An email address")}
}

// metaCase: with options.return_meta the response adds a meta object.
func metaCase() testCase {
	req := ask(noulQuestion("urgent")).with(vocab.RequestOptions, object(member(vocab.OptionsReturnMeta, jsonvalue.Bool(true))))
	c := answered("options/return_meta", req)
	c.answer = func(run *runner, v jsonvalue.Value) []string {
		out := checkResponse(run, req, v, "")
		if m, _ := v.Get(vocab.ResponseMeta); m.Kind() != jsonvalue.KindObject {
			out = append(out, vocab.ResponseMeta+" is "+describe(m)+", want an object")
		}
		return out
	}
	return c
}

// bodyLimitCase sends a request that decodes to one byte more than the
// body limit: gzip keeps it small on the wire. A vllm-sr server refuses
// it with 413 request_too_large naming the limit.
func bodyLimitCase() testCase {
	return testCase{name: "limit/body-bytes", method: http.MethodPost, path: vocab.PathSystemone,
		header: http.Header{"Content-Encoding": {"gzip"}},
		body: func(run *runner) []byte {
			valid := request{questions: []question{noulQuestion("urgent")}}.bodyFor(run)
			pad := int(vocab.LimitBodyBytes) + 1 - len(valid)
			padded := append(append(valid[:len(valid)-1:len(valid)-1], bytes.Repeat([]byte(" "), pad)...), '}')
			return gzipped(padded, gzip.BestSpeed)
		},
		refuse: requestRefusal(vocab.CodeRequestTooLarge, vocab.ReasonBodyTooLarge, vocab.LimitBodyBytes)}
}

// gzipped is b compressed with gzip at level.
func gzipped(b []byte, level int) []byte {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, level)
	_, _ = zw.Write(b)
	_ = zw.Close()
	return buf.Bytes()
}

// removedFormCases send each corpus request of a 4.0 form that
// vllm-sr/5.0 removed from requests; each is refused with 400
// invalid_request removed_form, naming the form and its replacement.
func removedFormCases() []testCase {
	var cases []testCase
	for _, cc := range corpus.Cases {
		form, ok := removedRequestForm(cc.Form)
		if cc.Kind != table.CorpusLegacyForm || !ok {
			continue
		}
		cases = append(cases, testCase{name: "removed-form/" + cc.Name, method: http.MethodPost, path: vocab.PathSystemone,
			body:   func(run *runner) []byte { return corpusBody(cc, run.model) },
			refuse: requestRefusal(vocab.CodeInvalidRequest, vocab.ReasonRemovedForm, 0, form.Form, form.ReplacedBy)})
	}
	return cases
}

// removedRequestForm is the removed form named form that a request body
// can carry (in the request, a question or the options).
func removedRequestForm(form string) (table.RemovedForm, bool) {
	for _, level := range []table.Level{table.LevelRequest, table.LevelQuestion, table.LevelOptions} {
		if f, ok := fieldtable.Replacement(level, form); ok {
			return f, true
		}
	}
	return table.RemovedForm{}, false
}

// corpusBody is a corpus request with its model replaced by model, or
// left out when model is "".
func corpusBody(cc table.CorpusCase, model string) []byte {
	raw, err := corpus.FS.ReadFile(cc.Path)
	if err != nil {
		return nil
	}
	v, err := jsonvalue.Decode(raw, jsonvalue.Options{})
	if err != nil {
		return raw
	}
	var ms []jsonvalue.Member
	if model != "" {
		ms = append(ms, member(vocab.RequestModel, jsonvalue.String(model)))
	}
	for _, m := range v.Members() {
		if m.Name != vocab.RequestModel {
			ms = append(ms, m)
		}
	}
	return jsonvalue.Compact(object(ms...))
}
