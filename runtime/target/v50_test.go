package target_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/generated/validate"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/target"
)

// TestGoldenV50 runs every case under testdata/v50.
func TestGoldenV50(t *testing.T) {
	codecGolden(t, "testdata/v50", target.V50)
}

var serve = target.Target{Deployment: "serve-vela", Endpoint: "http://127.0.0.1:8100/v1/systemone", Model: "vllm-sr/vela3-fast"}

// TestBodiesAreVllmSR50: a plan is one call, whose body passes the
// generated 5.0 batch validator, or, for the 4.0 reading, the internal
// bundle validator.
func TestBodiesAreVllmSR50(t *testing.T) {
	dirs, _ := filepath.Glob("testdata/v50/*")
	for _, dir := range dirs {
		plan, _, err := target.V50.Plan(readCaseBatch(t, dir, nil), serve, target.Policy{})
		if err != nil {
			t.Fatal(err)
		}
		if len(plan.Calls) != 1 {
			t.Fatalf("%s: %d calls for one batch", dir, len(plan.Calls))
		}
		for _, call := range plan.Calls {
			v, err := jsonvalue.Decode(call.Body, jsonvalue.Options{})
			if err != nil {
				t.Fatal(err)
			}
			problems := validate.BatchRequestVllmSR50(v)
			if strings.HasSuffix(call.URL, "/v1/bundle") {
				problems = validate.BatchRequestInternal(v)
			}
			if problems != nil {
				t.Errorf("%s: %+v", dir, problems)
			}
		}
	}
}

// TestDecodeListing reads version, features and card.
func TestDecodeListing(t *testing.T) {
	l, err := target.V50.DecodeListing(200, []byte(`{"models":[{"name":"vllm-sr/vela3-fast","description":"d","release_date":"2026-10-01","version":"5.0","features":["noul","span"],"card":{"question_types":["noul"]}}]}`))
	if err != nil || len(l.Models) != 1 || *l.Models[0].Version != "5.0" || len(l.Models[0].Features) != 2 || !l.Models[0].Card.IsValid() {
		t.Fatalf("%+v %v", l, err)
	}
	if _, err := target.V50.DecodeListing(200, []byte(`{"models":[{"name":"x","features":"noul"}]}`)); err == nil {
		t.Fatal("features as a string was read")
	}
}

// TestItemOptionsMustAgree: a bundle whose items carry different options
// cannot be one 5.0 batch.
func TestItemOptionsMustAgree(t *testing.T) {
	b := readBatch(t, []byte(`{"requests":{"a":{"state":"s","questions":{"q":{"type":"noul"}}},"b":{"state":"t","questions":{"q":{"type":"noul"}}}}}`), nil)
	one, two := int64(100), int64(200)
	b.Items[0].Request.Options = &spOptions{DeadlineMs: &one}
	b.Items[1].Request.Options = &spOptions{DeadlineMs: &two}
	if _, _, err := target.V50.Plan(b, serve, target.Policy{}); err == nil {
		t.Fatal("differing item options were merged")
	}
	b.Items[1].Request.Options = &spOptions{DeadlineMs: &one}
	plan, _, err := target.V50.Plan(b, serve, target.Policy{})
	if err != nil || !json.Valid(plan.Calls[0].Body) {
		t.Fatal(err)
	}
}

// FuzzV50DecodeReply: any reply to the batch call decodes into
// one result per item.
//
// Besides the golden replies, its seeds walk the answer shapes' generated
// dispatch: members out of the writers' order, a failed answer beside
// answered ones, a box, spans (one that starts after its end) and sets,
// and members no spec defines at each level.
func FuzzV50DecodeReply(f *testing.F) {
	for _, body := range v50DispatchSeeds {
		f.Add(200, []byte(body))
	}
	fuzzDecodeReply(f, "testdata/v50", "batch-call", target.V50, serve)
}

var v50DispatchSeeds = []string{
	`{"usage":{"output_tokens":0,"input_tokens":3},"responses":{"doc_2":{"answers":{"urgent":{"noul":0.2,"input_coverage":"complete","type":"noul"},` +
		`"topics":{"noul":0.9,"type":"set"}},"sets":{"topics":{"probabilities":{"hours":0.9,"refunds":0.1},"selected":["hours"]}},` +
		`"usage":{"input_tokens":2,"output_tokens":0},"model":"m"},"doc_1":{"model":"m","answers":{"relevance":{"type":"noul","error":"unavailable",` +
		`"reason":"model_unavailable","message":"m"},"pii":{"type":"noul","noul":0.1,"abstain_probability":0.3}},"spans":{"pii":[{"label":"PHONE",` +
		`"start":9,"end":3,"text":"x","probability":0.5}]},"thresholds":{"pii":0.4},"span_heads":{"pii":"router"},"usage":{"input_tokens":1,"output_tokens":0}}},"model":"m"}`,
	`{"model":"m","responses":{"doc_1":{"model":"m","answers":{"relevance":{"type":"box","box":{"right":0.9,"left":0.1,"bottom":0.8,"top":0.2},` +
		`"confidence":0.5}},"usage":{"input_tokens":1,"output_tokens":0},"meta":{"engine":"e"}},"doc_2":{"model":"m","answers":{},"usage":{"input_tokens":1,` +
		`"output_tokens":0},"drill":1}},"usage":{"input_tokens":2,"output_tokens":0,"cost":1}}`,
}

type spOptions = ir.Options
