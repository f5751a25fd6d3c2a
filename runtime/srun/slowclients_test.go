package srun_test

import (
	"bufio"
	"net"
	"net/http"
	"runtime"
	"testing"
	"time"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/front"
	"github.com/vllm-sr/systemone/runtime/srun"
	"github.com/vllm-sr/systemone/runtime/table"
	"github.com/vllm-sr/systemone/runtime/testkit"
)

// slowConfig is a runtime under testkit.SlowTimeouts that admits 4 requests at
// once, fewer than the suite's 64 stalled bodies: a body being sent must
// hold no admission slot.
func slowConfig(schema table.SchemaID) srun.Config {
	return srun.Config{Model: testkit.HostileModel, Schema: schema, MaxInFlight: 4,
		Timeouts: testkit.SlowTimeouts}
}

// TestSlowClients runs the slow-client suite (runtime/testkit) against
// vllm-srun speaking vllm-sr/5.0 and vllm-sr/4.0: stalled bodies,
// slowloris headers, silent connections, slow readers of a multi-MiB
// answer (on 5.0 only: both write their answers through the same front,
// and each such answer costs a second of CPU) and 500 idle keep-alive
// connections, each let go of within its deadline while good clients are
// answered 200.
func TestSlowClients(t *testing.T) {
	for _, schema := range []table.SchemaID{table.SchemaVllmSR50, table.SchemaVllmSR40} {
		t.Run(string(schema), func(t *testing.T) {
			s := start(t, slowConfig(schema))
			testkit.RunSlowClients(t, testkit.SlowTarget{Name: "vllm-srun " + string(schema), URL: s.url, Timeouts: testkit.SlowTimeouts,
				NoBigAnswers: schema != table.SchemaVllmSR50})
		})
	}
}

// A client that does not read its answer holds no admission slot while
// the answer is written: with one slot, a client that never reads its
// multi-MiB answer leaves the next request answered 200, not 529, for
// all the write deadline lets it hold its connection. (Before, the slot
// was held until the write ended: 64 such clients locked every other
// client out for the write timeout.)
func TestSlowReaderHoldsNoSlot(t *testing.T) {
	s := start(t, srun.Config{Model: testkit.HostileModel, MaxInFlight: 1, Timeouts: front.Timeouts{WriteTimeout: 10 * time.Second}})
	c, err := net.DialTimeout("tcp", s.addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(30 * time.Second))
	if _, err := testkit.AskBigAnswer(c, bufio.NewReader(c)); err != nil {
		t.Fatal(err)
	}
	// The answer's head has arrived and its body is too big for the
	// socket buffers: the server is blocked writing it.
	for range 3 {
		s.post(vocab.PathSystemone, urgent).want(t, http.StatusOK)
	}
}

// TestFixedRateLoad sends 200 requests a second for 2.5 s, open-loop,
// taking turns between a vllm-sr/5.0 and a vllm-sr/4.0 runtime: every
// one is answered 200, and once both have shut down gracefully no
// goroutine of theirs is left.
func TestFixedRateLoad(t *testing.T) {
	baseline := runtime.NumGoroutine()
	var reqs []testkit.LoadRequest
	var servers []*testServer
	for _, schema := range []table.SchemaID{table.SchemaVllmSR50, table.SchemaVllmSR40} {
		s := start(t, srun.Config{Model: testkit.HostileModel, Schema: schema})
		servers = append(servers, s)
		reqs = append(reqs, testkit.LoadRequest{URL: s.url + vocab.PathSystemone, Body: testkit.SlowGoodRequest})
	}
	testkit.RunFixedRate(t, reqs, 200, 2500*time.Millisecond)
	for _, s := range servers {
		s.stop()
		if err := s.run.Wait(); err != nil {
			t.Errorf("the runtime stopped: %v", err)
		}
	}
	client.CloseIdleConnections() // the harness's readiness probes
	testkit.WaitGoroutines(t, baseline, 5*time.Second, "after the runtimes shut down")
}
