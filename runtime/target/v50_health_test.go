package target_test

import (
	"reflect"
	"testing"

	"github.com/vllm-sr/systemone/generated/validate"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/shapes"
	"github.com/vllm-sr/systemone/runtime/target"
)

// v50HealthSeeds are GET /health bodies: a runtime's, the Router's, and
// ones that break the 5.0 health schema.
var v50HealthSeeds = []string{
	`{"status":"ready","api_version":"5.0.0","version":"5.0","model":"vllm-sr/vela3-fast","schema":"vllm-sr/5.0"}`,
	`{"status":"ok","version":"5.0"}`,
	`{"status":"starting","api_version":"5.0.0","version":"5.0","code":"starting"}`,
	`{"status":"ready","api_version":5,"version":"5.0"}`,
	`{"status":"ready","api_version":"4.0.0"}`,
	`[]`,
	`{"status":"ready","version":"5.0","api_version":"5.0.0; x"}`,
}

// TestDecodeHealth reads a vllm-sr/5.0 runtime's health through the
// generated validator and the binding, and refuses one that breaks the
// schema.
func TestDecodeHealth(t *testing.T) {
	var decoder target.HealthDecoder = target.V50
	h, err := decoder.DecodeHealth([]byte(v50HealthSeeds[0]))
	want := ir.Health{Status: "ready", APIVersion: "5.0.0", Version: "5.0", Model: "vllm-sr/vela3-fast", Schema: "vllm-sr/5.0"}
	if err != nil || !reflect.DeepEqual(*h, want) {
		t.Fatalf("%+v %v", h, err)
	}
	for _, body := range v50HealthSeeds[2:6] {
		if _, err := decoder.DecodeHealth([]byte(body)); err == nil {
			t.Errorf("%s was read", body)
		}
	}
}

// FuzzV50DecodeHealth: DecodeHealth never panics, and a health it reads,
// written back through the binding, passes the 5.0 validator and reads
// back the same.
func FuzzV50DecodeHealth(f *testing.F) {
	for _, body := range v50HealthSeeds {
		f.Add([]byte(body))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		h, err := target.V50.DecodeHealth(body)
		if err != nil {
			return
		}
		out := shapes.AnswerWriter{}.Health(h)
		v, err := jsonvalue.Decode(out, jsonvalue.Options{})
		if err != nil {
			t.Fatalf("written %s: %v", out, err)
		}
		if problems := validate.HealthVllmSR50(v); problems != nil {
			t.Fatalf("written %s breaks the schema: %+v", out, problems)
		}
		again, err := target.V50.DecodeHealth(out)
		if err != nil || !reflect.DeepEqual(again, h) {
			t.Fatalf("read back %+v (%v), want %+v", again, err, h)
		}
	})
}
