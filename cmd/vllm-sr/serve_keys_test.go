package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vllm-sr/systemone/runtime/testkit"
)

// eventually polls cond every 20 ms until it holds, failing the test
// after 15 s.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(15 * time.Second); !cond(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within 15 s", what)
		}
	}
}

// The real binary rotates a listener's key file on SIGHUP: the new key
// is taken and the old one refused, /ready and vsr_config_info carry the
// SHA-256 of the configuration file, a key file that is gone refuses the
// next reload (counted, shown in /ready naming the file, the key in force
// still taken) until a good reload clears it, and no key is logged.
func TestServeBinaryRotatesKeyFiles(t *testing.T) {
	bin := buildBinary(t, "vllm-sr")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
	ln.Close()
	dir := t.TempDir()
	keys, config := filepath.Join(dir, "clients.keys"), filepath.Join(dir, "router.yaml")
	writeKeys := func(key string) {
		if err := os.WriteFile(keys, []byte("# the clients' keys\n"+key+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	writeKeys("sk-cli-old")
	body := "listeners:\n  - name: edge\n    address: " + strings.TrimPrefix(base, "http://") + "\n    api_keys_file: clients.keys\n" +
		"    apis:\n      chat_completions: {}\n" +
		"upstreams:\n  llm:\n    api_format: openai\n    endpoint: http://127.0.0.1:1/v1\n    models: [gpt-4o]\n"
	if err := os.WriteFile(config, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(body))
	sha := hex.EncodeToString(sum[:])

	cmd := exec.Command(bin, "serve", "--config", config, "--shutdown-timeout", "5s")
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill() }()
	logs := &syncLines{}
	exited := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			logs.add(sc.Text())
		}
		exited <- cmd.Wait()
	}()
	client := &http.Client{Timeout: 5 * time.Second}
	// chat is the status of a chat completion with key: 401 when the
	// listener refuses it, else the upstream's failure (nothing listens
	// on its port).
	chat := func(key string) int {
		req, _ := http.NewRequest(http.MethodPost, base+"/v1/chat/completions", strings.NewReader(`{"model":"gpt-4o","messages":[]}`))
		req.Header.Set("Authorization", "Bearer "+key)
		resp, err := client.Do(req)
		if err != nil {
			return 0
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	type configuration struct {
		Status, SHA256 string
		LastRefused    *struct{ Problems []string } `json:"last_refused"`
	}
	ready := func() configuration {
		resp, err := client.Get(base + "/ready")
		if err != nil {
			return configuration{}
		}
		defer resp.Body.Close()
		var r struct{ Configuration configuration }
		_ = json.NewDecoder(resp.Body).Decode(&r)
		return r.Configuration
	}
	hup := func() {
		if err := cmd.Process.Signal(syscall.SIGHUP); err != nil {
			t.Fatal(err)
		}
	}
	eventually(t, "serving", func() bool { return ready().SHA256 != "" })

	if c := ready(); c.Status != "loaded" || c.SHA256 != sha {
		t.Fatalf("/ready at start: %+v, want sha256 %s", c, sha)
	}
	if old, other := chat("sk-cli-old"), chat("sk-cli-new"); old == 401 || old == 0 || other != 401 {
		t.Fatalf("before the rotation: the old key %d, another %d", old, other)
	}
	writeKeys("sk-cli-new")
	hup()
	eventually(t, "the new key taken after SIGHUP", func() bool { s := chat("sk-cli-new"); return s != 401 && s != 0 })
	if s := chat("sk-cli-old"); s != 401 {
		t.Errorf("the old key after the rotation: %d, want 401", s)
	}

	if err := os.Remove(keys); err != nil {
		t.Fatal(err)
	}
	hup()
	eventually(t, "the refused reload in /ready", func() bool { return ready().Status == "reload_refused" })
	if c := ready(); c.SHA256 != sha || c.LastRefused == nil || len(c.LastRefused.Problems) != 1 ||
		!strings.Contains(c.LastRefused.Problems[0], "listeners[0].api_keys_file: the key file "+keys+" cannot be read") {
		t.Errorf("/ready after the refused reload: %+v", c)
	}
	if s := chat("sk-cli-new"); s == 401 || s == 0 {
		t.Errorf("the key in force after the refused reload: %d", s)
	}
	m := testkit.ScrapeMetrics(t, base+"/metrics")
	applied, _ := m.Value("vsr_config_reloads_total", "result", "applied")
	refused, _ := m.Value("vsr_config_reloads_total", "result", "refused")
	info, _ := m.Value("vsr_config_info", "sha256", sha)
	if applied != 1 || refused != 1 || info != 1 {
		t.Errorf("metrics: %v applied, %v refused, vsr_config_info{sha256=%s} %v", applied, refused, sha, info)
	}
	writeKeys("sk-cli-new")
	hup()
	eventually(t, "a good reload clears the refusal", func() bool { return ready().Status == "loaded" })

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("exited with %v after SIGTERM:\n%s", err, logs)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("the binary did not stop on SIGTERM")
	}
	if strings.Contains(logs.String(), "sk-cli") {
		t.Errorf("a key is in the log:\n%s", logs)
	}
	for _, want := range []string{`"msg":"configuration reloaded"`, `"sha256":"` + sha + `"`, `"msg":"reload refused: the configuration in force is kept"`} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("the log lacks %s:\n%s", want, logs)
		}
	}
}
