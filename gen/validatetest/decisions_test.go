package validatetest_test

import (
	"testing"

	"github.com/vllm-sr/systemone/generated/validate"
	"github.com/vllm-sr/systemone/runtime/table"
)

// tryIt is the API guide's Try-it request, which names no model.
const tryIt = `{"state": "Our export button fails with a 500 since this morning. Open a ticket.",
 "questions": {"urgent": {"type": "noul", "instructions": "Does the user report a problem that blocks their work?"}}}`

// decisionCases pin the spec decisions the validators carry: model optional
// on vllm-sr/5.0 (the standard keeps it), options belong to a batch,
// preset-only questions on 4.0, roles null on the internal form.
var decisionCases = []requestCase{
	{"Try-it request without model", []table.SchemaID{s50, s40, sIn}, tryIt, nil},
	{"the standard requires model", []table.SchemaID{s02}, tryIt, []string{"/model missing_member"}},
	{"preset-only question", []table.SchemaID{s40, sIn}, request(`"pii":{"preset":"pii"}`), nil},
	{"preset-only question on 5.0", []table.SchemaID{s50}, request(`"pii":{"preset":"pii"}`), []string{
		"/questions/pii/type missing_member"}},
	{"neither type nor preset", []table.SchemaID{s40, sIn}, request(`"q":{"instructions":"x"}`), []string{
		"/questions/q/type missing_member"}},
	{"4.0 choice with neither criteria nor choices", []table.SchemaID{s40, sIn}, request(`"c":{"type":"choice","instructions":"Which?"}`), nil},
	{"roles null on the internal form", []table.SchemaID{sIn}, withRequest(`"roles":null`), nil},
	{"roles null elsewhere", []table.SchemaID{s50, s40}, withRequest(`"roles":null`), []string{
		"/roles not_allowed_null (object)"}},
}

func TestRequestDecisions(t *testing.T) { runCases(t, validate.Request, decisionCases) }

var batchDecisionCases = []requestCase{
	{"an item with options", []table.SchemaID{s50, s40},
		`{"model":"m","requests":{"a":{"state":"s","options":{"deadline_ms":5},"questions":{"q":{"type":"noul"}}},` +
			`"b":{"model":"m","state":"s","questions":{"q":{"type":"noul"}}}},"options":{"deadline_ms":3000}}`, []string{
			"/requests/a/options unknown_member"}},
	{"an internal bundle item with its own options", []table.SchemaID{sIn},
		`{"model":"m","requests":{"a":{"state":"s","options":{"deadline_ms":5,"long_context":true},"questions":{"q":{"type":"noul"}}},` +
			`"b":{"state":"s","options":{"return_meta":true},"questions":{"q":{"type":"noul"}}}}}`, nil},
	{"an internal bundle item with an unknown option", []table.SchemaID{sIn},
		`{"requests":{"a":{"state":"s","options":{"colour":"red"},"questions":{"q":{"type":"noul"}}}}}`, []string{
			"/requests/a/options/colour unknown_member"}},
	{"items take the batch's model and may repeat it", []table.SchemaID{s50, s40, sIn}, guideBatch, nil},
}

func TestBatchRequestDecisions(t *testing.T) { runCases(t, validate.BatchRequest, batchDecisionCases) }
