package listener_test

import (
	"testing"

	"github.com/vllm-sr/systemone/runtime/listener"
)

// FuzzListener4Read: Read never panics on any path, refusals are named
// refusals, and whatever it accepts writes in the internal form and
// re-reads to the same IR. Seeded from generated/corpus and the request
// cases; crashers are kept in testdata/fuzz/FuzzListener4Read.
func FuzzListener4Read(f *testing.F) {
	seedReadFuzz(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, path := range []listener.Endpoint{listener.EndpointSystemOne, listener.EndpointBatch, listener.EndpointDecisions} {
			checkRead(t, listener.V40, path, body)
		}
	})
}
