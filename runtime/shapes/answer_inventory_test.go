package shapes

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/generated/fieldtable"
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/table"
)

// The answer shapes' tests: every IR field goes out through AnswerWriter
// and comes back through the readers unchanged, and every member the specs
// give an answer shape is one the writer writes, or one this file says why
// no server writes.

func fullAnswers(t *testing.T) []ir.Answer {
	return []ir.Answer{
		{Name: "n", Type: table.QuestionNoul, Noul: new(0.88), AbstainProbability: new(0.01), InputCoverage: ir.CoverageComplete},
		{Name: "c", Type: table.QuestionChoice, Choice: new("y"), Probabilities: []ir.Probability{{Key: "x", P: 0.1}, {Key: "y", P: 0.9}}, Confidence: new(0.8)},
		{Name: "s", Type: table.QuestionScore, Score: new(0.7), Probabilities: []ir.Probability{{Key: "0", P: 0.3}, {Key: "1", P: 0.7}},
			Confidence: new(0.4), Legend: decodeJSON(t, `{"0":"lo","1":{"text":"hi"}}`).Members()},
		{Name: "b", Type: table.QuestionBox, Box: &ir.Box{Top: 0.25, Bottom: 0.82, Left: 0.44, Right: 0.84}, Confidence: new(0.92)},
		{Name: "p", Type: table.QuestionSet, Noul: new(0.9)},
		{Name: "t", Type: table.QuestionTrack, Track: decodeJSON(t, `{"rate":1,"moments":[]}`)},
		{Name: "f", Type: table.QuestionChoice, Error: ir.QuestionErrorDeadlineExceeded, Reason: "deadline", Message: "the deadline passed"},
	}
}

func fullResponse(t *testing.T) *ir.Response {
	return &ir.Response{Model: new("m"), Answers: fullAnswers(t), Usage: &ir.Usage{InputTokens: 12, OutputTokens: 3},
		Spans:      []ir.QuestionSpans{{Question: "p", Spans: []ir.Span{{Label: "email", Start: 3, End: 9, Text: "a@b.co", Probability: 0.9}}}},
		Sets:       []ir.QuestionSet{{Question: "s", Selected: []string{"a"}, Probabilities: []ir.Probability{{Key: "a", P: 0.6}}}},
		Thresholds: []ir.QuestionThreshold{{Question: "p", Threshold: 0.5}},
		SpanHeads:  []ir.QuestionSpanHead{{Question: "p", Head: ir.SpanHeadBroad}},
		Meta:       decodeJSON(t, `{"engine":"e"}`),
		Routing: decodeJSON(t, `{"recipe":"r","decision":"capability","algorithm":"first_capable_member","stage":"forward",`+
			`"deployment":"d","model":"m","calls":1,"tries":[{"deployment":"d","outcome":"answered","calls":1}]}`),
	}
}

// withPassive is r with one member per passive slot the specs define at
// each of its levels in Extra, as a vllm-sr/5.0 server would send it (an
// answer's only on the types that carry it): what the writers carry at
// their slots and the readers read back. Without passive members in the
// specs it is r unchanged.
func withPassive(r *ir.Response) *ir.Response {
	rs := RepliesOf(table.SchemaVllmSR50)
	r.Extra = passiveExtra(table.LevelResponse, responseSlots, responsePassiveSlots, nil)
	r.Usage.Extra = passiveExtra(table.LevelUsage, usageSlots, usagePassiveSlots, nil)
	for i := range r.Answers {
		a := &r.Answers[i]
		a.Extra = passiveExtra(table.LevelAnswer, answerSlots, answerPassiveSlots, func(slot int) bool {
			return a.Error == "" && rs.answer[slot].carries(a.Type) || a.Error != "" && rs.answer[slot].defined
		})
		if a.Box != nil {
			a.Box.Extra = passiveExtra(table.LevelBoxRegion, boxRegionSlots, boxRegionPassiveSlots, nil)
		}
	}
	for i := range r.Spans {
		for j := range r.Spans[i].Spans {
			r.Spans[i].Spans[j].Extra = passiveExtra(table.LevelSpanItem, spanItemSlots, spanItemPassiveSlots, nil)
		}
	}
	for i := range r.Sets {
		r.Sets[i].Extra = passiveExtra(table.LevelSetResult, setResultSlots, setResultPassiveSlots, nil)
	}
	return r
}

// passiveExtra is one member for each passive slot of slots (the bits of
// mask) that carries allows (nil: every one), in slot order, with a value
// of the type its spec gives it at level; nil when there is none.
func passiveExtra(level table.Level, slots []string, mask uint64, carries func(slot int) bool) []jsonvalue.Member {
	var out []jsonvalue.Member
	for i, name := range slots {
		if mask&(1<<i) != 0 && (carries == nil || carries(i)) {
			out = append(out, jsonvalue.Member{Name: name, Value: passiveValue(level, name)})
		}
	}
	return out
}

// passiveValue is a value of the type the specs give level.name: an
// object, array, number, boolean or string.
func passiveValue(level table.Level, name string) jsonvalue.Value {
	var typ string
	for _, schema := range []table.SchemaID{table.SchemaStandard02, table.SchemaVllmSR50, table.SchemaVllmSR40} {
		if f, ok := fieldtable.FieldOf(schema, level, name); ok {
			typ = f.Type
		}
	}
	text := `"passive ` + name + `"`
	switch {
	case typ == "object" || strings.HasPrefix(typ, "map<"):
		text = `{"passive":["` + name + `"]}`
	case strings.HasPrefix(typ, "array<"):
		text = `[]`
	case typ == "integer" || typ == "number":
		text = `1`
	case typ == "boolean":
		text = `true`
	}
	v, _ := jsonvalue.Decode([]byte(text), jsonvalue.Options{})
	return v
}

func decodeJSON(t *testing.T, s string) jsonvalue.Value {
	t.Helper()
	v, err := jsonvalue.Decode([]byte(s), jsonvalue.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestAnswerShapesRoundTrip: what AnswerWriter writes, the readers read
// back into the same IR.
func TestAnswerShapesRoundTrip(t *testing.T) {
	want := withPassive(fullResponse(t))
	body, err := AnswerWriter{}.Response(want, want.Answers, nil)
	if err != nil {
		t.Fatal(err)
	}
	root := decodeJSON(t, string(body))
	check, err := CheckResponse(table.SchemaVllmSR50, root)
	if err != nil {
		t.Fatalf("the written response breaks its schema: %v", err)
	}
	rs := RepliesOf(table.SchemaVllmSR50)
	got, answers, err := ReadResponse(root, rs, "")
	if err != nil {
		t.Fatal(err)
	}
	rd := AnswerReader{Replies: rs, Check: check}
	for _, w := range want.Answers {
		v, _ := answers.Get(w.Name)
		var a ir.Answer
		reason, _ := rd.Read(&a, v, w.Name, w.Type)
		a.Name = w.Name
		if reason != "" || !sameJSON(a, w) {
			t.Errorf("answer %s: read %+v (%s), want %+v", w.Name, a, reason, w)
		}
		got.Answers = append(got.Answers, a)
	}
	if !sameJSON(got, want) {
		t.Errorf("response: read %+v, want %+v", got, want)
	}

	card := decodeJSON(t, `{"limits":{"tokens":8}}`)
	listing := &ir.Listing{Models: []ir.ListedModel{{Name: "a", Description: "d", ReleaseDate: "2025-01-01", Version: new("5.0"), Features: []string{"noul"}, Card: card}}}
	body, _ = AnswerWriter{Legacy: true}.Listing(listing)
	if l, err := ReadListing(decodeJSON(t, string(body)), RepliesOf(table.SchemaInternal)); err != nil || !sameJSON(l, listing) {
		t.Errorf("listing: read %+v (%v), want %+v", l, err, listing)
	}

	e := fullError()
	_, body = AnswerWriter{Legacy: true}.Error(e)
	report := ReadErrorReport(decodeJSON(t, string(body)), RepliesOf(table.SchemaInternal))
	wantReport := ErrorReport{Code: string(e.Code), Reason: e.Reason, Question: e.Question, State: e.State, Limit: e.Limit,
		Questions: []QuestionReport{{Question: "q", Kind: "invalid_question", Reason: "too_many", Limit: e.Limit}}} // the detail item's type and ctx
	if !reflect.DeepEqual(report, wantReport) {
		t.Errorf("error report %+v, want %+v", report, wantReport)
	}
}

func fullError() *ir.ErrorBody {
	return &ir.ErrorBody{Status: 422, Code: ir.ErrorQuestionFailed, Message: "m", Question: "q", State: "s", Reason: "too_many", Limit: new(int64(3)),
		Detail: []ir.DetailItem{{Loc: ir.Path{{Name: "body"}, {Name: "questions"}, {Name: "q"}, {Index: 0, IsIndex: true}}, Msg: "x", Type: "invalid_question",
			Reason: "too_many", Limit: new(int64(3))}}}
}

// sameJSON compares two IR values by their Go representation, content
// values by their compact JSON.
func sameJSON(a, b any) bool {
	return reflect.DeepEqual(normalize(reflect.ValueOf(a)), normalize(reflect.ValueOf(b)))
}

func normalize(v reflect.Value) any {
	if v.Type() == reflect.TypeFor[jsonvalue.Value]() {
		return string(jsonvalue.AppendCompact(nil, v.Interface().(jsonvalue.Value)))
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return nil
		}
		return normalize(v.Elem())
	case reflect.Slice:
		out := make([]any, v.Len())
		for i := range out {
			out[i] = normalize(v.Index(i))
		}
		return out
	case reflect.Struct:
		out := map[string]any{}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				out[v.Type().Field(i).Name] = normalize(v.Field(i))
			}
		}
		return out
	}
	return v.Interface()
}

// notWritten are the answer-shape members the specs define that no server
// of this repository writes, each with why; the readers ignore them.
var notWritten = map[table.Level]map[string]string{
	table.LevelValidationItem: {vocab.ValidationItemInput: "the value that failed: never echoed", vocab.ValidationItemCtx: "free-form check parameters"},
	table.LevelErrorDetail:    {vocab.ErrorDetailErrorType: "the standard's object detail: this runtime answers a string or a list", vocab.ErrorDetailMessage: "as error_type"},
	table.LevelLegacyListItem: {vocab.LegacyListItemCreated: "optional in 4.0; no creation time is known"},
	table.LevelBatchResponse:  {},
	table.LevelLegacyError:    {},
	table.LevelListing:        {},
	table.LevelListingEntry:   {},
	table.LevelAnswer:         {},
	table.LevelBoxRegion:      {},
	table.LevelResponse:       {},
	table.LevelUsage:          {},
	table.LevelSpanItem:       {},
	table.LevelSetResult:      {},
	table.LevelError:          {},
	table.LevelHealth:         {},
}

// TestEveryAnswerMemberIsWritten: every member the specs give an answer
// shape, on every schema, is one AnswerWriter writes for a full IR (a
// passive one from the object's Extra), or one notWritten explains. A
// bound member that fails here has its write<Level><Member> writing
// nothing for a full IR: it needs its field in runtime/ir.
func TestEveryAnswerMemberIsWritten(t *testing.T) {
	written := map[table.Level][]string{}
	r := withPassive(fullResponse(t))
	body, _ := AnswerWriter{}.Response(r, r.Answers, nil)
	collect(written, decodeJSON(t, string(body)), table.LevelResponse)
	batch := &ir.BatchResponse{Model: new("m"), Responses: []ir.NamedResponse{{Name: "x", Response: *r}},
		Extra: passiveExtra(table.LevelBatchResponse, batchResponseSlots, batchResponsePassiveSlots, nil)}
	body, _ = AnswerWriter{}.Batch(batch, func(nr *ir.NamedResponse) []ir.Answer { return nr.Response.Answers })
	collect(written, decodeJSON(t, string(body)), table.LevelBatchResponse)
	body, _ = AnswerWriter{Legacy: true}.States(batch, func(nr *ir.NamedResponse) []ir.Answer { return nr.Response.Answers })
	collect(written, decodeJSON(t, string(body)), table.LevelResponse)
	_, body = AnswerWriter{Legacy: true}.Error(fullError())
	collect(written, decodeJSON(t, string(body)), table.LevelError)
	body, _ = AnswerWriter{Legacy: true}.Listing(&ir.Listing{Models: []ir.ListedModel{{Name: "a", ReleaseDate: "2025-01-01", Version: new("5"), Features: []string{}, Card: decodeJSON(t, `{}`),
		Extra: passiveExtra(table.LevelListingEntry, listingEntrySlots, listingEntryPassiveSlots, nil)}}, Extra: passiveExtra(table.LevelListing, listingSlots, listingPassiveSlots, nil)})
	collect(written, decodeJSON(t, string(body)), table.LevelListing)
	h := fullHealth()
	collect(written, decodeJSON(t, string(AnswerWriter{}.Health(&h))), table.LevelHealth)

	checked := 0
	for level, skipped := range notWritten {
		for _, schema := range []table.SchemaID{table.SchemaStandard02, table.SchemaVllmSR50, table.SchemaVllmSR40, table.SchemaInternal} {
			for _, m := range vocab.MembersOf(schema, level) {
				checked++
				if _, ok := skipped[m.Name]; !ok && !slices.Contains(written[level], m.Name) {
					t.Errorf("%s defines %s member %q, which AnswerWriter does not write: bind it in runtime/ir and runtime/shapes' answer bindings", schema, level, m.Name)
				}
			}
		}
	}
	if checked < 60 {
		t.Fatalf("the generated member lists give only %d answer-shape members", checked)
	}
}

// collect records the member names of v, an object of level, and of the
// answer-shape objects inside it.
func collect(written map[table.Level][]string, v jsonvalue.Value, level table.Level) {
	for _, m := range v.Members() {
		written[level] = append(written[level], m.Name)
		for _, inner := range innerLevels[level] {
			if inner.member != m.Name {
				continue
			}
			for _, x := range inner.objects(m.Value) {
				collect(written, x, inner.level)
			}
		}
	}
}

var (
	values = func(v jsonvalue.Value) []jsonvalue.Value {
		var out []jsonvalue.Value
		for _, m := range v.Members() {
			out = append(out, m.Value)
		}
		return out
	}
	self  = func(v jsonvalue.Value) []jsonvalue.Value { return []jsonvalue.Value{v} }
	items = func(v jsonvalue.Value) []jsonvalue.Value { return v.Items() }
)

// innerLevels says where each level holds objects of another.
var innerLevels = map[table.Level][]struct {
	member  string
	level   table.Level
	objects func(jsonvalue.Value) []jsonvalue.Value
}{
	table.LevelResponse: {{vocab.ResponseAnswers, table.LevelAnswer, values}, {vocab.ResponseUsage, table.LevelUsage, self},
		{vocab.ResponseSets, table.LevelSetResult, values}, {vocab.ResponseStates, table.LevelAnswer, func(v jsonvalue.Value) []jsonvalue.Value {
			var out []jsonvalue.Value
			for _, s := range values(v) {
				out = append(out, values(s)...)
			}
			return out
		}}, {vocab.ResponseSpans, table.LevelSpanItem, func(v jsonvalue.Value) []jsonvalue.Value {
			var out []jsonvalue.Value
			for _, s := range values(v) {
				out = append(out, s.Items()...)
			}
			return out
		}}},
	table.LevelAnswer:        {{vocab.AnswerBox, table.LevelBoxRegion, self}},
	table.LevelBatchResponse: {{vocab.BatchResponseResponses, table.LevelResponse, values}, {vocab.BatchResponseUsage, table.LevelUsage, self}},
	table.LevelError:         {{vocab.ErrorDetail, table.LevelValidationItem, items}, {vocab.ErrorError, table.LevelLegacyError, self}},
	table.LevelListing:       {{vocab.ListingModels, table.LevelListingEntry, items}, {vocab.ListingData, table.LevelLegacyListItem, items}},
}

// TestAnswerBindingsReadWhatTheSpecsGive: every answer member a schema
// defines has its slot in the generated answerSlots, and the reply reader
// reads each on the answer types that schema's member list gives it.
func TestAnswerBindingsReadWhatTheSpecsGive(t *testing.T) {
	for _, schema := range []table.SchemaID{table.SchemaStandard02, table.SchemaVllmSR50, table.SchemaVllmSR40, table.SchemaInternal} {
		rs := RepliesOf(schema)
		for _, m := range vocab.MembersOf(schema, table.LevelAnswer) {
			i := slices.Index(answerSlots, m.Name)
			if i < 0 {
				t.Errorf("%s defines answer member %q, which the generated answerSlots lack", schema, m.Name)
				continue
			}
			for _, qt := range m.QuestionTypes {
				if !rs.answer[i].carries(qt) {
					t.Errorf("%s gives answer member %q to %s answers, which AnswerReader does not read it on", schema, m.Name, qt)
				}
			}
		}
	}
}

// TestQuestionTypeSetsAreTheSpecs: the question types check_ir.go's sets
// name are the specifications' question types, in order, so a type the
// specs add fails here until it has its bit.
func TestQuestionTypeSetsAreTheSpecs(t *testing.T) {
	var spec []string
	for _, m := range vocab.MembersOf(table.SchemaVllmSR50, table.LevelQuestion) {
		if m.Name == vocab.QuestionType {
			spec = m.Enum
		}
	}
	got := make([]string, len(definedTypes))
	for i, qt := range definedTypes {
		got[i] = string(qt)
	}
	if len(spec) == 0 || !slices.Equal(got, spec) {
		t.Errorf("the question type sets name %v, the specs give %v", got, spec)
	}
}
