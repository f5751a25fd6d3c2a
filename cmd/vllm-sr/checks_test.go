package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// checkEnv sets the variables runtime/routerconfig/testdata/check reads
// and unsets VSR_CHECK_UNSET.
func checkEnv(t *testing.T) {
	t.Helper()
	t.Setenv("VSR_CHECK_KEY", "sk-check-4f1c9a")
	t.Setenv("VSR_CHECK_KEYS", "sk-first,sk-second")
	t.Setenv("VSR_CHECK_UNSET", "")
	if err := os.Unsetenv("VSR_CHECK_UNSET"); err != nil {
		t.Fatal(err)
	}
}

// TestConfigCheckProductionRefusals: each check a production Router
// would otherwise fail later on is a line of config check naming it, and
// no key read from the environment is printed.
func TestConfigCheckProductionRefusals(t *testing.T) {
	checkEnv(t)
	out, _, err := runCmd(t, "config", "check", "../../runtime/routerconfig/testdata/check/production.yaml")
	if err == nil || !strings.Contains(err.Error(), "19 problems") {
		t.Fatalf("got %v\n%s", err, out)
	}
	for _, want := range []string{
		"listeners[0].address: the port must be a number from 1 to 65535",
		"listeners[2].address: listeners[1].address already listens on this port",
		"deployments.gateway-d3.endpoint: must end in /v1/systemone, the systemone/0.2 endpoint",
		"deployments.gateway-d3.api_key_env: the environment variable VSR_CHECK_UNSET is not set",
		`deployments.local-vela.model: "vllm-sr/vela3-fats" is not a model of the catalogue; did you mean "vllm-sr/vela3-fast"?`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("check does not print %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "sk-check") || strings.Contains(err.Error(), "sk-check") {
		t.Errorf("a key is printed:\n%s", out)
	}
	desc, _, err := runCmd(t, "config", "check", "../../runtime/routerconfig/testdata/check/traffic.yaml")
	if err != nil || !strings.Contains(desc, "api_key_env=VSR_CHECK_KEY") || strings.Contains(desc, "sk-") {
		t.Fatalf("%v\n%s", err, desc)
	}
}

func TestConfigMigrateRefusesDuplicateKeys(t *testing.T) {
	out, stderr, err := runCmd(t, "config", "migrate", "../../runtime/routerconfig/testdata/migrate/duplicate.yaml")
	if err == nil || out != "" || !strings.Contains(stderr, "listeners[0].models: duplicate key (first at line 6)") ||
		!strings.Contains(stderr, "upstreams.openai-main: duplicate key (first at line 9)") {
		t.Fatalf("%v\nstdout %q\nstderr %s", err, out, stderr)
	}
}

// TestDecidePrintsProblemsOnePerLine: a configuration decide cannot load
// prints its problems as config check does, one per line, and the error
// counts them.
func TestDecidePrintsProblemsOnePerLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "router.yaml")
	bad := "listeners:\n  - {name: a, address: '127.0.0.1:99999'}\n  - {name: b, address: '127.0.0.1:99999'}\nrules: {}\n"
	if err := os.WriteFile(path, []byte(bad), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := runDecide(t, "--config", path, "--rule", "urgent")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if err == nil || !strings.Contains(err.Error(), "2 problems") || len(lines) != 2 ||
		!strings.HasPrefix(lines[1], path+":3:") {
		t.Fatalf("%v\n%s", err, out)
	}
}

// TestServePrintsProblemsOnePerLine: serve refuses a configuration it
// cannot load before it listens, each problem on its own line.
func TestServePrintsProblemsOnePerLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "router.yaml")
	bad := "listeners:\n  - {name: a, address: '127.0.0.1:99999'}\ndeployments:\n" +
		"  d: {provider: systemone, endpoint: 'http://127.0.0.1:1/v1', model: vllm-sr/vela3-fats}\n"
	if err := os.WriteFile(path, []byte(bad), 0o600); err != nil {
		t.Fatal(err)
	}
	_, stderr, err := runCmd(t, "serve", "--config", path)
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	if err == nil || !strings.Contains(err.Error(), "3 problems") || len(lines) != 3 {
		t.Fatalf("%v\n%s", err, stderr)
	}
	for _, l := range lines {
		if !strings.HasPrefix(l, path+":") {
			t.Errorf("not a problem line: %q", l)
		}
	}
}
