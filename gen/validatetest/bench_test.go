package validatetest_test

import (
	"github.com/vllm-sr/systemone/runtime/testkit"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/generated/validate"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/table"
)

// benchRequest is a vllm-sr/5.0 request of about 5 KB (5029 bytes): an object state of
// four parts with roles, and five questions of five types.
func benchRequest() string {
	history := strings.Repeat("The customer asked how to export invoices as CSV and was sent the help page. ", 45)
	return `{
  "model": "vllm-sr/vela3-fast",
  "state": {
    "request": "Our export button fails with a 500 since this morning. Open a ticket and tell me when it is fixed.",
    "history": "` + history + `",
    "previous_answer": "We are looking into it.",
    "context": {"plan": "enterprise", "seats": 240, "region": "eu-west-1", "tags": ["billing", "export"]}
  },
  "roles": {"request": "user", "history": "context", "previous_answer": "answer", "context": "context"},
  "questions": {
    "team": {"type": "choice", "instructions": "Which team should handle this request?",
      "criteria": {"billing": "Payments, invoices and refunds", "engineering": "Outages, errors and bugs", "sales": null, "other": "Anything else"},
      "overflow": "window"},
    "urgent": {"type": "noul", "instructions": "Does the user report a problem that blocks their work?",
      "criteria": {"true": "Work is blocked", "false": null}},
    "tone": {"type": "score", "instructions": "How frustrated is the user?",
      "criteria": ["calm", "slightly annoyed", "annoyed", "frustrated", "angry"]},
    "pii": {"type": "span", "instructions": "Which personal data does the request contain?", "preset": "pii",
      "criteria": {"email": "An email address", "phone": "A phone number", "name": null}, "threshold": 0.4, "head": "router"},
    "topics": {"type": "set", "instructions": "Which topics does the request touch?",
      "criteria": {"export": null, "billing": null, "outage": "A service is down"}, "over": ["request", "history"]}
  },
  "options": {"deadline_ms": 1500, "return_meta": false}
}`
}

// BenchmarkRequestVllmSR50 validates a decoded ~5 KB 5.0 request.
func BenchmarkRequestVllmSR50(b *testing.B) {
	benchValidate(b, table.SchemaVllmSR50, benchRequest(), 0)
}

// BenchmarkRequestVllmSR50Invalid validates the same request with one
// unknown member in every question, to price the failure path.
func BenchmarkRequestVllmSR50Invalid(b *testing.B) {
	benchValidate(b, table.SchemaVllmSR50, strings.ReplaceAll(benchRequest(), `"instructions"`, `"colour": 1, "instructions"`), 5)
}

// BenchmarkRequestInternal validates the same request on the internal
// form, whose question and asset checks are the functions it shares with
// vllm-sr/4.0.
func BenchmarkRequestInternal(b *testing.B) {
	benchValidate(b, table.SchemaInternal, benchRequest(), 0)
}

// benchValidate times validate.Request on body under schema, which must
// give exactly problems problems.
func benchValidate(b *testing.B, schema table.SchemaID, body string, problems int) {
	v, err := jsonvalue.Decode([]byte(body), jsonvalue.Options{})
	if err != nil {
		b.Fatal(err)
	}
	if p := validate.Request(schema, v); len(p) != problems {
		b.Fatalf("want %d problems, got %v", problems, p)
	}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	defer testkit.CPUPerOp(b)()
	for b.Loop() {
		validate.Request(schema, v)
	}
}
