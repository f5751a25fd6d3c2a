package validatetest_test

import (
	"testing"

	"github.com/vllm-sr/systemone/generated/validate"
	"github.com/vllm-sr/systemone/runtime/table"
)

// guideBatch is the API guide's batch example.
const guideBatch = `{
  "model": "vllm-sr/vela3-fast",
  "requests": {
    "doc_1": {
      "state": {"request": "How long is the refund window?", "candidate": "Refunds are accepted within 30 days of purchase."},
      "roles": {"request": "user", "candidate": "context"},
      "questions": {"relevance": {"type": "noul", "instructions": "Does the candidate passage help answer the request?"}}
    },
    "doc_2": {
      "model": "vllm-sr/vela3-fast",
      "state": {"request": "How long is the refund window?", "candidate": "Our offices close on public holidays."},
      "roles": {"request": "user", "candidate": "context"},
      "questions": {"relevance": {"type": "noul", "instructions": "Does the candidate passage help answer the request?"}}
    }
  },
  "options": {"deadline_ms": 3000}
}`

var both = []table.SchemaID{s50, s40}

var batchCases = []requestCase{
	{"guide batch", both, guideBatch, nil},
	{"no batch on the standard", []table.SchemaID{s02}, guideBatch, []string{
		" unknown_schema (vllm-sr/5.0, vllm-sr/4.0 or internal)"}},
	{"unknown members at every level", both, `{"colour":1,"options":{"colour":2},"requests":{"r":{"colour":3,"state":"s",` +
		`"questions":{"q":{"type":"noul","colour":4,"criteria":{"colour":5}}}}}}`, []string{
		"/colour unknown_member", "/options/colour unknown_member", "/requests/r/colour unknown_member",
		"/requests/r/questions/q/colour unknown_member", "/requests/r/questions/q/criteria/colour unknown_member"}},
	{"missing and empty requests", both, `{"model":"m"}`, []string{"/requests missing_member"}},
	{"empty requests", both, `{"requests":{}}`, []string{"/requests too_few 1"}},
	{"item problems", []table.SchemaID{s50}, `{"requests":{"a":{"state":null,"questions":{}},"b":5,"c":{"states":{"x":"y"},"questions":{"q":{"type":"noul"}}}}}`, []string{
		"/requests/a/state not_allowed_null (string, object or array)", "/requests/a/questions too_few 1",
		"/requests/b wrong_type (object)",
		"/requests/c/states removed_form -> POST /v1/systemone/batch", "/requests/c/state missing_member"}},
}

func TestBatchRequest(t *testing.T) { runCases(t, validate.BatchRequest, batchCases) }

// TestQuestionTypeEscapes: a type spelled with escapes still selects its
// variant (here noul, whose criteria take only true and false).
func TestQuestionTypeEscapes(t *testing.T) {
	runCases(t, validate.Request, []requestCase{
		{"escaped noul", allSchemas, request(`"q":{"type":"\u006eoul","criteria":{"maybe":null}}`), []string{
			"/questions/q/criteria/maybe unknown_member"}},
	})
}

// TestValidBodiesDoNotAllocate: checking a valid body returns nil and
// allocates nothing.
func TestValidBodiesDoNotAllocate(t *testing.T) {
	bodies := map[table.SchemaID]string{s02: jsSDKRequest, s50: benchRequest(), s40: benchRequest(), sIn: benchRequest()}
	for _, schema := range everySchema {
		v := decode(t, bodies[schema])
		if got := validate.Request(schema, v); got != nil {
			t.Fatalf("%s: benchmark body is not valid: %v", schema, got)
		}
		if allocs := testing.AllocsPerRun(50, func() { validate.Request(schema, v) }); allocs != 0 {
			t.Errorf("%s: %v allocations for a valid body, want 0", schema, allocs)
		}
	}
}
