package router_test

import (
	"context"
	"net/http"
	"runtime"
	"testing"
	"time"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/router"
	"github.com/vllm-sr/systemone/runtime/srun"
	"github.com/vllm-sr/systemone/runtime/table"
	"github.com/vllm-sr/systemone/runtime/testkit"
)

// TestSlowClients runs the slow-client suite (runtime/testkit) against
// the Router's vllm-sr/5.0 and vllm-sr/4.0 listeners (hostileConfig) in
// front of a runtime: stalled bodies, slowloris headers, silent
// connections, slow readers of a multi-MiB answer (on 5.0 only: both
// listeners write their answers through the same front, and each such
// answer costs seconds of CPU) and 500 idle keep-alive connections, each
// let go of within its deadline while good clients are answered 200.
func TestSlowClients(t *testing.T) {
	upstream := startRuntime(t, testkit.HostileModel)
	path := writeConfig(t, hostileConfig, map[string]string{"P5": freePort(t), "P4": freePort(t), "RUNTIME": upstream.URL()})
	cfg, err := router.LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	// The Router's own client, so the suite can close its idle upstream
	// connections before it counts goroutines.
	transport := &http.Transport{MaxIdleConnsPerHost: 64, IdleConnTimeout: 90 * time.Second}
	ctx, cancel := context.WithCancel(context.Background())
	run, err := router.Start(ctx, cfg, router.Options{Logger: quiet(), Client: &http.Client{Transport: transport},
		Timeouts: testkit.SlowTimeouts})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); _ = run.Wait() })
	for _, l := range []struct {
		name   string
		schema table.SchemaID
	}{{"h5", table.SchemaVllmSR50}, {"h4", table.SchemaVllmSR40}} {
		t.Run(string(l.schema), func(t *testing.T) {
			testkit.RunSlowClients(t, testkit.SlowTarget{Name: "router " + string(l.schema), URL: run.URL(l.name),
				Timeouts: testkit.SlowTimeouts, Quiesce: transport.CloseIdleConnections, NoBigAnswers: l.schema != table.SchemaVllmSR50})
		})
	}
}

// TestFixedRateLoad sends 200 requests a second for 2.5 s, open-loop,
// taking turns between the Router's vllm-sr/5.0 and vllm-sr/4.0
// listeners in front of a runtime: every one is answered 200. Once the
// Router has shut down gracefully, with the runtime still up, no
// goroutine of the Router's is left (its idle upstream connections
// included); once the runtime has too, none of the runtime's.
func TestFixedRateLoad(t *testing.T) {
	before := runtime.NumGoroutine()
	ctx, stopRuntime := context.WithCancel(context.Background())
	defer stopRuntime()
	upstream, err := srun.Start(ctx, srun.Config{Model: testkit.HostileModel, Addr: "127.0.0.1:0", Logger: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	if err := upstream.WaitReady(20 * time.Second); err != nil {
		t.Fatal(err)
	}
	withRuntime := runtime.NumGoroutine()

	path := writeConfig(t, hostileConfig, map[string]string{"P5": freePort(t), "P4": freePort(t), "RUNTIME": upstream.URL()})
	cfg, err := router.LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	rctx, stopRouter := context.WithCancel(context.Background())
	defer stopRouter()
	run, err := router.Start(rctx, cfg, router.Options{Logger: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	reqs := []testkit.LoadRequest{
		{URL: run.URL("h5") + vocab.PathSystemone, Body: testkit.SlowGoodRequest},
		{URL: run.URL("h4") + vocab.PathSystemone, Body: testkit.SlowGoodRequest},
	}
	testkit.RunFixedRate(t, reqs, 200, 2500*time.Millisecond)

	stopRouter()
	if err := run.Wait(); err != nil {
		t.Errorf("the Router stopped: %v", err)
	}
	testkit.WaitGoroutines(t, withRuntime, 5*time.Second, "after the Router shut down, the runtime still up")
	stopRuntime()
	if err := upstream.Wait(); err != nil {
		t.Errorf("the runtime stopped: %v", err)
	}
	testkit.WaitGoroutines(t, before, 5*time.Second, "after the runtime shut down too")
}
