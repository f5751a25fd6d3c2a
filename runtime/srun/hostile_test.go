package srun_test

import (
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/srun"
	"github.com/vllm-sr/systemone/runtime/table"
	"github.com/vllm-sr/systemone/runtime/testkit"
)

// TestHostileInputs runs the hostile-input suite (runtime/testkit) against
// vllm-srun speaking vllm-sr/5.0 and vllm-sr/4.0, over loopback HTTP, and
// checks that no log line of either carries request data.
func TestHostileInputs(t *testing.T) {
	cases := testkit.HostileCases()
	for _, schema := range []table.SchemaID{table.SchemaVllmSR50, table.SchemaVllmSR40} {
		t.Run(string(schema), func(t *testing.T) {
			s := start(t, srun.Config{Model: testkit.HostileModel, Schema: schema})
			target := testkit.HostileTarget{Server: testkit.HostileRuntime, Schema: schema, URL: s.url}
			testkit.RunHostile(t, target, cases, func() []byte {
				s.stop()
				<-s.run.Done()
				return []byte(s.logs.String())
			})
		})
	}
}

// TestWholeBodyClientReads413: a client that sends the whole of a body
// past the limit before reading reads the 413.
func TestWholeBodyClientReads413(t *testing.T) {
	s := start(t, srun.Config{})
	for _, chunked := range []bool{false, true} {
		testkit.CheckWholeBodyClient(t, s.url+vocab.PathSystemone, chunked)
	}
}

// TestConcurrentGzipBombs: 8 bombs at once cost at most about the shared
// inflating budget, each answered 413 or 503 with Retry-After.
func TestConcurrentGzipBombs(t *testing.T) {
	s := start(t, srun.Config{})
	testkit.CheckConcurrentBombs(t, s.url+vocab.PathSystemone)
}

// TestRequestSmuggling: a request framed both by its length and as
// chunked is answered alone and its connection closed, on both schemas.
func TestRequestSmuggling(t *testing.T) {
	for _, schema := range []table.SchemaID{table.SchemaVllmSR50, table.SchemaVllmSR40} {
		t.Run(string(schema), func(t *testing.T) {
			s := start(t, srun.Config{Model: testkit.HostileModel, Schema: schema})
			testkit.RunSmuggling(t, strings.TrimPrefix(s.url, "http://"), vocab.PathSystemone, testkit.SmugglingBody, vocab.PathModels)
		})
	}
}
