package listener_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/vllm-sr/systemone/generated/catalog"
	"github.com/vllm-sr/systemone/generated/corpus"
	"github.com/vllm-sr/systemone/generated/fieldtable"
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/refscorer"
	"github.com/vllm-sr/systemone/runtime/table"
)

// Every family's self-test, answered by the reference scorer and written
// by this codec, carries only members the vllm-sr/4.0 field tables define
// (scorerAnswersUseOnlyKnownMembers says why).
func TestV40ScorerAnswersUseOnlyKnownMembers(t *testing.T) {
	scorerAnswersUseOnlyKnownMembers(t, listener.V40, table.SchemaVllmSR40)
}

// Every family's self-test, answered by the reference scorer and written
// by this codec, carries only members the vllm-sr/5.0 field tables define
// (scorerAnswersUseOnlyKnownMembers says why).
func TestV50ScorerAnswersUseOnlyKnownMembers(t *testing.T) {
	scorerAnswersUseOnlyKnownMembers(t, listener.V50, table.SchemaVllmSR50)
}

// scorerAnswersUseOnlyKnownMembers checks that every family's self-test,
// read and answered by codec with the reference scorer deciding, carries
// only members schema's field tables define, at every level of the
// response the tables name (response, answer, box, usage, span item, set
// result). An answer member the schema lacks would reach clients as an
// undocumented field, and strict clients refuse it.
func scorerAnswersUseOnlyKnownMembers(t *testing.T, codec listener.Codec, schema table.SchemaID) {
	t.Helper()
	cases := 0
	for _, c := range corpus.Cases {
		if c.Kind != table.CorpusFamilySelfTest {
			continue
		}
		cases++
		t.Run(c.Name, func(t *testing.T) {
			body, err := corpus.FS.ReadFile(c.Path)
			if err != nil {
				t.Fatal(err)
			}
			cr, err := codec.Read(listener.EndpointDecisions, body, nil)
			if err != nil {
				t.Fatal(err)
			}
			model, ok := catalog.Model(*cr.Request.Model)
			if !ok {
				t.Fatalf("the case names model %q, which the catalogue lacks", *cr.Request.Model)
			}
			resp, err := (&refscorer.Scorer{}).Decide(context.Background(), model, cr.Request)
			if err != nil {
				t.Fatal(err)
			}
			out, err := codec.AnswerSuccess(cr, listener.Outcome{Response: resp})
			if err != nil {
				t.Fatal(err)
			}
			var doc map[string]any
			if err := json.Unmarshal(out, &doc); err != nil {
				t.Fatalf("the answer is not a JSON object: %v\n%s", err, out)
			}
			if answers, _ := doc[vocab.ResponseAnswers].(map[string]any); len(answers) < len(cr.Request.Questions) { // a set question also answers a noul per label
				t.Fatalf("%d answers for %d questions: %s", len(answers), len(cr.Request.Questions), out)
			}
			for _, u := range unknownMembers(schema, doc) {
				t.Errorf("%s\n%s", u, out)
			}
		})
	}
	if cases == 0 {
		t.Fatal("the corpus has no family self-tests")
	}
}

// unknownMembers walks a response body and names every member the field
// tables of schema do not define at its level, sorted.
func unknownMembers(schema table.SchemaID, response map[string]any) []string {
	var found []string
	check := func(level table.Level, at string, obj any) {
		m, _ := obj.(map[string]any)
		for name := range m {
			if !fieldtable.Known(schema, level, name) {
				found = append(found, fmt.Sprintf("%s member %q at %s is not defined by %s", level, name, at, schema))
			}
		}
	}
	check(table.LevelResponse, "/", response)
	check(table.LevelUsage, "/usage", response[vocab.ResponseUsage])
	answers, _ := response[vocab.ResponseAnswers].(map[string]any)
	for q, a := range answers {
		check(table.LevelAnswer, "/answers/"+q, a)
		if m, ok := a.(map[string]any); ok {
			check(table.LevelBoxRegion, "/answers/"+q+"/box", m[vocab.AnswerBox])
		}
	}
	spans, _ := response[vocab.ResponseSpans].(map[string]any)
	for q, items := range spans {
		list, _ := items.([]any)
		for i, item := range list {
			check(table.LevelSpanItem, fmt.Sprintf("/spans/%s/%d", q, i), item)
		}
	}
	sets, _ := response[vocab.ResponseSets].(map[string]any)
	for q, s := range sets {
		check(table.LevelSetResult, "/sets/"+q, s)
	}
	slices.Sort(found) // maps are walked in no fixed order
	return found
}
