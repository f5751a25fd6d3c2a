package router_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vllm-sr/systemone/runtime/router"
	"github.com/vllm-sr/systemone/runtime/srun"
)

// startRuntime starts a vllm-srun runtime of model in-process on a
// loopback port and waits (bounded) until its self-test passed.
func startRuntime(t testing.TB, model string) *srun.Running {
	return startRuntimeWith(t, srun.Config{Model: model, Logger: quiet()})
}

// startRuntimeWith is startRuntime for cfg, on a loopback port.
func startRuntimeWith(t testing.TB, cfg srun.Config) *srun.Running {
	t.Helper()
	cfg.Addr = "127.0.0.1:0"
	ctx, cancel := context.WithCancel(context.Background())
	run, err := srun.Start(ctx, cfg)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); _ = run.Wait() })
	if err := run.WaitReady(20 * time.Second); err != nil {
		t.Fatal(err)
	}
	return run
}

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// freePort returns a loopback port free at the time of the call.
func freePort(t testing.TB) string {
	t.Helper()
	for range 100 {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
		ln.Close()
		// A port closed again may be the next one the kernel hands out:
		// a test that asks for several must get different ones.
		if _, given := portsGiven.LoadOrStore(port, true); !given {
			return port
		}
	}
	t.Fatal("no port free that this test process has not used")
	return ""
}

// portsGiven are the ports freePort has returned in this process.
var portsGiven sync.Map

// writeConfig fills the template's {{KEY}} placeholders and writes it.
func writeConfig(t testing.TB, template string, values map[string]string) string {
	t.Helper()
	for k, v := range values {
		template = strings.ReplaceAll(template, "{{"+k+"}}", v)
	}
	path := filepath.Join(t.TempDir(), "router.yaml")
	if err := os.WriteFile(path, []byte(template), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// startRouter loads the configuration and starts the Router through the
// same functions `vllm-sr serve` calls.
func startRouter(t testing.TB, path string) *router.Running {
	t.Helper()
	cfg, err := router.LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	run, err := router.Start(ctx, cfg, router.Options{Logger: quiet()})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		if err := run.Wait(); err != nil {
			t.Errorf("router stopped: %v", err)
		}
	})
	return run
}

// post sends body to url and returns the status and body.
func post(t testing.TB, url, body string) (int, []byte) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, out
}

func get(t *testing.T, url string) (int, []byte) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, out
}

// decodeJSON decodes a body into a generic value, failing the test on
// invalid JSON.
func decodeJSON(t testing.TB, body []byte) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("not JSON: %v: %s", err, body)
	}
	return v
}
