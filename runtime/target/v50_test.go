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
func FuzzV50DecodeReply(f *testing.F) {
	fuzzDecodeReply(f, "testdata/v50", "batch-call", target.V50, serve)
}

type spOptions = ir.Options
