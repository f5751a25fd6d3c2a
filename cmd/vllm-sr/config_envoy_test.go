package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const (
	replicasConfig = "../../docs/examples/replicas.yaml"
	// replicasGolden is the bootstrap routerconfig's tests pin for the
	// same configuration and replicas.
	replicasGolden = "../../runtime/routerconfig/testdata/envoy/replicas.envoy.yaml"
)

// TestConfigEnvoy: the command writes routerconfig's bootstrap, to
// standard output or --out.
func TestConfigEnvoy(t *testing.T) {
	want, err := os.ReadFile(replicasGolden)
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"config", "envoy", replicasConfig, "--replica", "192.0.2.11", "--replica", "192.0.2.12"}
	out, _, err := runCmd(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	if out != string(want) {
		t.Errorf("stdout is not %s:\n%s", replicasGolden, out)
	}

	path := filepath.Join(t.TempDir(), "envoy.yaml")
	out, _, err = runCmd(t, append(args, "--out", path)...)
	if err != nil || out != "" {
		t.Fatalf("--out: %v, stdout %q", err, out)
	}
	if got, _ := os.ReadFile(path); string(got) != string(want) {
		t.Errorf("%s is not %s", path, replicasGolden)
	}
}

// TestConfigEnvoyListen: --listen moves Envoy off the ports of the one
// Router on its machine, which it refuses to take.
func TestConfigEnvoyListen(t *testing.T) {
	_, stderr, err := runCmd(t, "config", "envoy", "../../docs/examples/router.yaml")
	if err == nil || err.Error() != "../../docs/examples/router.yaml: 3 problems, no bootstrap written" ||
		!strings.HasPrefix(stderr, `listener "public": Envoy would listen on port 8080`) || strings.Count(stderr, "\n") != 3 {
		t.Fatalf("got %v, stderr:\n%s", err, stderr)
	}
	out, _, err := runCmd(t, "config", "envoy", "../../docs/examples/router.yaml",
		"--listen", "public=0.0.0.0:9080", "--listen", "internal=127.0.0.1:9081,decisions=127.0.0.1:9082")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"port_value: 9080", "port_value: 9081", "port_value: 9082", "cluster: vllm-sr-decisions"} {
		if !strings.Contains(out, want) {
			t.Errorf("the bootstrap lacks %q", want)
		}
	}
}

// TestConfigEnvoyRefusesABadConfiguration: a configuration that does not
// load writes no bootstrap, and says why.
func TestConfigEnvoyRefusesABadConfiguration(t *testing.T) {
	out, stderr, err := runCmd(t, "config", "envoy", "../../runtime/routerconfig/testdata/check/span-on-standard.yaml", "--replica", "192.0.2.11")
	if err == nil || out != "" || !strings.Contains(err.Error(), "4 problems, no bootstrap written") || strings.Count(stderr, "refused") != 4 {
		t.Fatalf("got %v, stdout %q, stderr:\n%s", err, out, stderr)
	}
}
