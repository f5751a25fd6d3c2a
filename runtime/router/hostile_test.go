package router_test

import (
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/router"
	"github.com/vllm-sr/systemone/runtime/table"
	"github.com/vllm-sr/systemone/runtime/testkit"
)

// hostileConfig is the suite's Router: a vllm-sr/5.0 and a vllm-sr/4.0
// listener in front of a runtime serving the suite's model, under the
// model's own name.
const hostileConfig = `
listeners:
  - name: h5
    address: 127.0.0.1:{{P5}}
    apis:
      systemone: {schema: vllm-sr/5.0}
  - name: h4
    address: 127.0.0.1:{{P4}}
    apis:
      systemone: {schema: vllm-sr/4.0}
deployments:
  ` + testkit.HostileModel + `:
    provider: systemone
    endpoint: {{RUNTIME}}/v1/systemone
    model: ` + testkit.HostileModel + `
    schema: vllm-sr/5.0
`

// TestHostileInputs runs the hostile-input suite (runtime/testkit) against
// the Router's vllm-sr/5.0 and vllm-sr/4.0 listeners, over loopback HTTP,
// in front of a real runtime, and checks that no log line of the Router
// carries request data.
func TestHostileInputs(t *testing.T) {
	runtime := startRuntime(t, testkit.HostileModel)
	path := writeConfig(t, hostileConfig, map[string]string{"P5": freePort(t), "P4": freePort(t), "RUNTIME": runtime.URL()})
	cfg, err := router.LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	logs := &testkit.LogBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	run, err := router.Start(ctx, cfg, router.Options{Logger: slog.New(slog.NewJSONHandler(logs, nil))})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); _ = run.Wait() })
	cases := testkit.HostileCases()
	listeners := []struct {
		name   string
		schema table.SchemaID
	}{{"h5", table.SchemaVllmSR50}, {"h4", table.SchemaVllmSR40}}
	for _, l := range listeners {
		t.Run(string(l.schema), func(t *testing.T) {
			target := testkit.HostileTarget{Server: testkit.HostileRouter, Schema: l.schema, URL: run.URL(l.name)}
			testkit.RunHostile(t, target, cases, nil)
		})
	}
	t.Run("8 concurrent gzip bombs", func(t *testing.T) { testkit.CheckConcurrentBombs(t, run.URL("h5")+vocab.PathSystemone) })
	t.Run("whole-body client reads the 413", func(t *testing.T) {
		for _, chunked := range []bool{false, true} {
			testkit.CheckWholeBodyClient(t, run.URL("h5")+vocab.PathSystemone, chunked)
		}
	})
	t.Run("request smuggling", func(t *testing.T) {
		for _, l := range listeners {
			testkit.RunSmuggling(t, strings.TrimPrefix(run.URL(l.name), "http://"), vocab.PathSystemone, testkit.SmugglingBody, "/v1/models")
		}
	})
	cancel()
	if err := run.Wait(); err != nil {
		t.Errorf("router stopped: %v", err)
	}
	testkit.CheckHostileLogs(t, logs.Bytes())
}
