package llm_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/vllm-sr/systemone/runtime/conformance"
	"github.com/vllm-sr/systemone/runtime/table"
	"github.com/vllm-sr/systemone/runtime/testkit"
)

// TestConformanceKit: `vllm-sr conformance --schema vllm-sr/5.0` passes
// every case against the LLM-backed runtime, on each backend flavor (the
// profile the runtime claims: a vllm-sr/5.0 server answers an undefined
// member 400 naming it, where the standard's profile expects 422).
func TestConformanceKit(t *testing.T) {
	for _, f := range []testkit.LLMFlavor{testkit.LLMVLLM, testkit.LLMLlamaCpp, testkit.LLMOllama} {
		s := serve(t, testkit.LLMBackendOptions{Flavor: f})
		for _, schema := range []table.SchemaID{table.SchemaVllmSR50} {
			report, err := conformance.Run(context.Background(), conformance.Options{URL: s.url, Schema: schema})
			if err != nil {
				t.Fatal(err)
			}
			if report.Failed != 0 || report.Passed == 0 {
				var out bytes.Buffer
				_ = report.WriteText(&out)
				t.Errorf("%s %s: %s\n%s", f, schema, report.Summary(), out.String())
			}
		}
	}
}
