package check

import (
	"bufio"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const unitsDir = "../systemd"

// installUnit is a unit as this test installs it: the binaries from
// binDir in place of /usr/local/bin, the configuration from config in
// place of /etc/vllm-sr/router.yaml; nothing else changes.
func installUnit(t *testing.T, name, binDir, config string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(unitsDir, name))
	if err != nil {
		t.Fatal(err)
	}
	s := strings.ReplaceAll(string(data), "/usr/local/bin/", binDir+"/")
	if config != "" {
		s = strings.ReplaceAll(s, "/etc/vllm-sr/router.yaml", config)
	}
	return s
}

// verify runs systemd-analyze verify on unit files and returns its
// output: empty when systemd finds nothing to say.
func verify(t *testing.T, tool string, files ...string) (string, error) {
	t.Helper()
	out, err := exec.Command(tool, append([]string{"verify"}, files...)...).CombinedOutput()
	return string(out), err
}

// TestSystemdUnits: `systemd-analyze verify` passes both units with no
// warning (the binaries at a path of the test's: verify checks that
// ExecStart's program exists), and fails one with a misspelt value, so
// the check can fail. The Router's unit's ExecStartPre, ExecStart and
// ExecReload, run as systemd would, check the configuration, serve it
// and reload it: vsr_config_reloads_total{result="applied"} counts the
// reload.
func TestSystemdUnits(t *testing.T) {
	tool := needTool(t, "systemd-analyze", "systemd")
	bins := binaries(t)
	dir := t.TempDir()
	port, admin := freePort(t), freePort(t)
	config := filepath.Join(dir, "router.yaml")
	if err := os.WriteFile(config, []byte("admin_address: 127.0.0.1:"+itoa(admin)+"\nlisteners:\n  - name: public\n    address: 127.0.0.1:"+itoa(port)+
		"\n    apis:\n      systemone: {}\ndeployments:\n  local:\n    provider: systemone\n    endpoint: http://127.0.0.1:1/v1/systemone\n    model: vllm-sr/vela3-fast\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	units := map[string]string{}
	var files []string
	for _, name := range []string{"vllm-sr.service", "vllm-srun.service"} {
		units[name] = installUnit(t, name, bins, config)
		f := filepath.Join(dir, name)
		if err := os.WriteFile(f, []byte(units[name]), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	if out, err := verify(t, tool, files...); err != nil || strings.TrimSpace(out) != "" {
		t.Errorf("systemd-analyze verify: %v\n%s", err, out)
	}
	bad := filepath.Join(dir, "bad.service")
	if err := os.WriteFile(bad, []byte(strings.Replace(units["vllm-sr.service"], "ProtectSystem=strict", "ProtectSystem=strikt", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, _ := verify(t, tool, bad); !strings.Contains(out, "strikt") {
		t.Errorf("systemd-analyze verify said nothing of a misspelt value: %q", out)
	}

	for _, want := range []string{"NoNewPrivileges=yes", "ProtectSystem=strict", "CapabilityBoundingSet=\n", "SystemCallFilter=@system-service"} {
		for name, u := range units {
			if !strings.Contains(u, want) {
				t.Errorf("%s lacks %q", name, want)
			}
		}
	}

	// The Router's unit, run as systemd would run it.
	unit := unitValues(units["vllm-sr.service"])
	pre := strings.Fields(unit["ExecStartPre"])
	run(t, time.Minute, "", pre[0], pre[1:]...)
	startArgs := strings.Fields(unit["ExecStart"])
	router := start(t, startArgs[0], startArgs[1:]...)
	adminURL := "http://127.0.0.1:" + itoa(admin)
	waitOK(t, router, adminURL+"/health", 30*time.Second)
	reload := strings.Fields(strings.ReplaceAll(unit["ExecReload"], "$MAINPID", itoa(router.cmd.Process.Pid)))
	run(t, time.Minute, "", reload[0], reload[1:]...)
	waitFor(t, 20*time.Second, "the reload ExecReload sent applied", func() bool {
		return strings.Contains(scrape(t, adminURL), `vsr_config_reloads_total{result="applied"} 1`)
	})
}

// unitValues is each key's last value in a unit file.
func unitValues(unit string) map[string]string {
	v := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(unit))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if k, val, ok := strings.Cut(line, "="); ok && !strings.HasPrefix(line, "#") {
			v[k] = val
		}
	}
	return v
}

// scrape returns a server's /metrics text.
func scrape(t *testing.T, base string) string {
	t.Helper()
	resp, err := (&http.Client{Timeout: 5 * time.Second}).Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	return string(data)
}
