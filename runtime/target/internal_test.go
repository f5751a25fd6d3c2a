package target_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/vllm-sr/systemone/runtime/shapes"
	"github.com/vllm-sr/systemone/runtime/target"
)

var runtimeTarget = target.Target{Deployment: "runtime", Endpoint: "http://127.0.0.1:8100/v1/systemone", Model: "vllm-sr/vela3"}

// TestGoldenInternal runs every case under testdata/internal.
func TestGoldenInternal(t *testing.T) {
	codecGolden(t, "testdata/internal", target.Internal)
}

// TestLossless: a request the internal form reads goes on byte for byte
// as shapes writes it, whatever its spellings.
func TestLossless(t *testing.T) {
	files, _ := filepath.Glob("../shapes/testdata/requests/*.json")
	if len(files) == 0 {
		t.Skip("no shapes request corpus")
	}
	for _, f := range files {
		raw, _ := os.ReadFile(f)
		r, _, err := shapes.DecodeRequest(raw)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		model := runtimeTarget.Model
		if r.Model != nil {
			r.Model = &model
		}
		want, err := shapes.EncodeRequest(r)
		if err != nil {
			t.Fatal(err)
		}
		plan, _, err := target.Internal.Plan(batchOf(r), runtimeTarget, target.Policy{})
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if r.Model != nil && !bytes.Equal(plan.Calls[0].Body, want) {
			t.Errorf("%s:\n got %s\nwant %s", f, plan.Calls[0].Body, want)
		}
		if plan.Calls[0].URL != "http://127.0.0.1:8100/v1/decisions" {
			t.Errorf("%s: %s", f, plan.Calls[0].URL)
		}
	}
}

// FuzzInternalDecodeReply: any reply to the bundle call decodes into
// one result per item.
func FuzzInternalDecodeReply(f *testing.F) {
	fuzzDecodeReply(f, "testdata/internal", "bundle", target.Internal, runtimeTarget)
}
