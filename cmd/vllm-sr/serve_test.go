package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// buildBinary builds the command into a temporary directory with its VCS
// stamp (as `make build` does), or skips without a go tool.
func buildBinary(t testing.TB, name string) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool on PATH to build the binary with")
	}
	bin := filepath.Join(t.TempDir(), name)
	if out, err := exec.Command(goTool, "build", "-buildvcs=auto", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// inGit reports whether the test runs inside a git work tree with git on
// PATH, where a build is stamped with a revision.
func inGit() bool {
	return exec.Command("git", "rev-parse", "--is-inside-work-tree").Run() == nil
}

// --version prints the module version and the VCS revision.
func TestVersion(t *testing.T) {
	var out bytes.Buffer
	root := newRoot()
	root.SetArgs([]string{"--version"})
	root.SetOut(&out)
	if err := root.Execute(); err != nil || !strings.HasPrefix(out.String(), "vllm-sr ") || !strings.Contains(out.String(), "revision ") {
		t.Fatalf("--version: %v %q", err, out.String())
	}
}

// syncLines collects a process's log lines.
type syncLines struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncLines) add(line string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.b.WriteString(line + "\n")
}

func (s *syncLines) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// The real binary: --version names a revision; SIGHUP reloads a good
// configuration and refuses a bad one with each problem on its own log
// line, serving throughout; SIGTERM drains and exits 0.
func TestServeBinarySignals(t *testing.T) {
	bin := buildBinary(t, "vllm-sr")
	version, err := exec.Command(bin, "--version").Output()
	if err != nil || !strings.HasPrefix(string(version), "vllm-sr ") {
		t.Fatalf("--version: %v %q", err, version)
	}
	if inGit() && strings.Contains(string(version), "revision unknown") {
		t.Errorf("a build in a git tree names no revision: %q", version)
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	ln.Close()
	config := filepath.Join(t.TempDir(), "router.yaml")
	write := func(models string) {
		body := "listeners:\n  - name: edge\n    address: 127.0.0.1:" + port + "\n    apis:\n      chat_completions: {}\n" +
			"upstreams:\n  llm:\n    api_format: openai\n    endpoint: http://127.0.0.1:1/v1\n    models: " + models + "\n"
		if err := os.WriteFile(config, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("[gpt-4o]")

	cmd := exec.Command(bin, "serve", "--config", config, "--log-level", "debug", "--shutdown-timeout", "5s")
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill() }()
	logs := &syncLines{}
	msgs := make(chan string, 256)
	exited := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			logs.add(sc.Text())
			var line struct{ Msg string }
			if json.Unmarshal(sc.Bytes(), &line) == nil {
				select {
				case msgs <- line.Msg:
				default:
				}
			}
		}
		exited <- cmd.Wait()
	}()
	waitFor := func(msg string) {
		t.Helper()
		deadline := time.After(15 * time.Second)
		for {
			select {
			case m := <-msgs:
				if m == msg {
					return
				}
			case <-deadline:
				t.Fatalf("no %q logged:\n%s", msg, logs)
			}
		}
	}
	waitFor("listening")
	base := "http://127.0.0.1:" + port

	write("[gpt-4o, gpt-4o-mini]")
	if err := cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	waitFor("configuration reloaded")
	if err := os.WriteFile(config, []byte("listeners: 7\nnonsense: [\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	waitFor("reload refused: the configuration in force is kept")
	if !strings.Contains(logs.String(), `"msg":"configuration problem"`) {
		t.Errorf("the refused reload logged no problem:\n%s", logs)
	}
	resp, err := http.Get(base + "/health")
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("serving after the refused reload: %v %v", err, resp)
	}
	resp.Body.Close()

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("exited with %v after SIGTERM, want 0:\n%s", err, logs)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("the binary did not stop on SIGTERM")
	}
	if !strings.Contains(logs.String(), `"msg":"stopped"`) {
		t.Errorf("no stop logged:\n%s", logs)
	}
}
