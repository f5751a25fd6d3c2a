package listener_test

import (
	"testing"

	"github.com/vllm-sr/systemone/runtime/listener"
)

// FuzzListener5Read: Read never panics on any path, refusals are named
// refusals, and whatever it accepts writes in the internal form and
// re-reads to the same IR. Seeded from generated/corpus and the request
// cases; crashers are kept in testdata/fuzz/FuzzListener5Read.
func FuzzListener5Read(f *testing.F) {
	seedReadFuzz(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, path := range []listener.Endpoint{listener.EndpointSystemOne, listener.EndpointBatch, listener.EndpointDecisions} {
			checkRead(t, listener.V50, path, body)
		}
	})
}
