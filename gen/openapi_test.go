package gen

import (
	"context"
	"io/fs"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/gen/openapicheck"
	"github.com/vllm-sr/systemone/generated/corpus"
	"github.com/vllm-sr/systemone/generated/validate"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/table"
)

// The generated vllm-sr/5.0 OpenAPI document against the generated
// validator: both come from the model, so on any body they must agree
// (the validator is what the server runs). The document is the committed
// file, docs/reference/vllm-sr-5.0.openapi.yaml, which `srgen check` and
// gen/emit's TestOpenAPIRealSpecs keep equal to what srgen emits.

// batchPath is the endpoint of the batch body; any other body is a request.
const batchPath = "/v1/systemone/batch"

func openAPI50(t *testing.T) *openapicheck.Document {
	t.Helper()
	doc, err := openapicheck.V50()
	if err != nil {
		t.Fatalf("kin-openapi refuses %s: %v", openapicheck.V50Path, err)
	}
	return doc
}

// verdicts are the generated validator's problems and the document's
// error for one body sent to path.
func verdicts(t *testing.T, doc *openapicheck.Document, path string, body []byte) (problems []string, docErr error) {
	t.Helper()
	v, err := jsonvalue.Decode(body, jsonvalue.Options{})
	if err != nil {
		t.Fatalf("%s: %v", body, err)
	}
	ps := validate.Request(table.SchemaVllmSR50, v)
	if path == batchPath {
		ps = validate.BatchRequest(table.SchemaVllmSR50, v)
	}
	for _, p := range ps {
		problems = append(problems, p.Message())
	}
	docErr = doc.CheckRequest(context.Background(), openapicheck.Exchange{Method: "POST", Path: path, Body: body})
	return problems, docErr
}

// firstLine keeps a kin-openapi error short: the rest is the schema and
// the value.
func firstLine(err error) string {
	s, _, _ := strings.Cut(err.Error(), "\n")
	return s
}

// agree fails the test when the validator and the document disagree on
// body, and reports whether the validator accepted it.
func agree(t *testing.T, doc *openapicheck.Document, what, path string, body []byte) bool {
	t.Helper()
	problems, docErr := verdicts(t, doc, path, body)
	switch {
	case problems == nil && docErr != nil:
		t.Errorf("%s: the validator accepts it and the document refuses it: %s\n%s", what, firstLine(docErr), body)
	case problems != nil && docErr == nil:
		t.Errorf("%s: the validator refuses it (%s) and the document accepts it\n%s", what, strings.Join(problems, "; "), body)
	}
	return problems == nil
}

// TestOpenAPIAgreesWithTheValidatorOnTheCorpus: every request of the
// golden corpus that a vllm-sr/5.0 server accepts validates against the
// document, and every one it refuses (4.0's forms) the document refuses.
func TestOpenAPIAgreesWithTheValidatorOnTheCorpus(t *testing.T) {
	doc := openAPI50(t)
	accepted, refused := 0, 0
	for _, c := range corpus.Cases {
		body, err := fs.ReadFile(corpus.FS, c.Path)
		if err != nil {
			t.Fatal(err)
		}
		if agree(t, doc, c.Name, c.Endpoint, body) {
			accepted++
		} else {
			refused++
		}
	}
	if accepted == 0 || refused == 0 {
		t.Errorf("the corpus gave %d accepted and %d refused bodies; the test needs both", accepted, refused)
	}
}

// seeds are valid vllm-sr/5.0 bodies of every question type, both asset
// types, options and a batch, which the mutation test varies.
var seeds = []struct{ name, path, body string }{
	{"standard", "/v1/systemone", `{"model":"m","state":{"request":"hi","history":"before"},"roles":{"request":"user","history":"context"},
		"questions":{"n":{"type":"noul","instructions":"Yes?","criteria":{"true":"yes","false":null}},
		"c":{"type":"choice","instructions":null,"criteria":{"a":"A","b":null},"decision_adapter":true},
		"s":{"type":"score","criteria":["lo","hi"],"over":["request"],"overflow":"window"}},
		"options":{"deadline_ms":1500,"return_meta":true,"max_tokens":4096}}`},
	{"extension types", "/v1/decisions", `{"state":"text","questions":{"p":{"type":"span","preset":"pii","criteria":{"EMAIL":"An email"},"head":"router","threshold":0.5},
		"t":{"type":"set","criteria":{"x":null,"y":"Y"},"threshold":1,"require_full_input":true}}}`},
	{"media", "/v1/systemone", `{"state":["⟦img⟧","⟦vid⟧","Where?"],"assets":{"⟦img⟧":{"type":"image","format":"png","data_base64":"AA=="},
		"⟦vid⟧":{"type":"video","format":"webm","data_base64":"AA=="}},
		"questions":{"b":{"type":"box","at":1.5},"r":{"type":"track","rate":2}}}`},
	{"batch", batchPath, `{"model":"m","requests":{"a":{"model":"m","state":"s","questions":{"q":{"type":"noul"}}},
		"b":{"state":{"k":1},"roles":{"k":"user"},"questions":{"q":{"type":"choice","criteria":{"x":null}}}}},"options":{"deadline_ms":5}}`},
}

// TestOpenAPIAgreesWithTheValidatorOnMutations varies every node of the
// seeds (an unknown member in every object, every member removed, every
// scalar replaced by probe values, every object and array resized across
// the limits) and requires the validator and the document to agree on
// each: the document refuses an unknown member wherever the server does,
// and its limits, enums and ranges are the server's.
func TestOpenAPIAgreesWithTheValidatorOnMutations(t *testing.T) {
	doc := openAPI50(t)
	for _, s := range seeds {
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			if !agree(t, doc, "seed", s.path, []byte(s.body)) {
				t.Fatal("the seed is not a valid body")
			}
			for _, m := range mutate(t, []byte(s.body)) {
				if testing.Short() && !strings.HasPrefix(m.what, "unknown member") && !strings.HasPrefix(m.what, "without") {
					continue
				}
				agree(t, doc, m.what, s.path, m.body)
			}
		})
	}
}

// TestOpenAPIRefusesUnknownMembers names the objects a vllm-sr server
// closes: the document refuses an unknown member in each.
func TestOpenAPIRefusesUnknownMembers(t *testing.T) {
	doc := openAPI50(t)
	closed := map[string]bool{}
	for _, s := range seeds {
		for _, m := range mutate(t, []byte(s.body)) {
			if !strings.HasPrefix(m.what, "unknown member at ") {
				continue
			}
			problems, docErr := verdicts(t, doc, s.path, m.body)
			if problems != nil && docErr != nil {
				closed[s.path+" "+strings.TrimPrefix(m.what, "unknown member at ")] = true
			}
		}
	}
	// A batch's items take the batch's options (an override), so an
	// item's own is refused like any unknown member.
	item := `{"requests":{"a":{"state":"s","questions":{"q":{"type":"noul"}},"options":{}}}}`
	if problems, docErr := verdicts(t, doc, batchPath, []byte(item)); problems == nil || docErr == nil {
		t.Errorf("a batch item's options: validator %v, document %v; want both to refuse", problems, docErr)
	}
	for _, want := range []string{
		"/v1/systemone /", "/v1/systemone /options", "/v1/systemone /questions/n", "/v1/systemone /questions/n/criteria",
		"/v1/systemone /questions/c", "/v1/systemone /questions/s", "/v1/decisions /questions/p", "/v1/decisions /questions/t",
		"/v1/systemone /questions/b", "/v1/systemone /questions/r", "/v1/systemone /assets/⟦img⟧", "/v1/systemone /assets/⟦vid⟧",
		batchPath + " /", batchPath + " /options", batchPath + " /requests/a", batchPath + " /requests/b/questions/q",
	} {
		if !closed[want] {
			t.Errorf("an unknown member at %s is not refused by both", want)
		}
	}
}
