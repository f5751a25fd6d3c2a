package check

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// repoRoot is the repository root: this module is deploy/check.
const repoRoot = "../.."

// tryItBody is the README's "Try it" request.
const tryItBody = `{
"state": "Our export button fails with a 500 since this morning. Open a ticket.",
"questions": {"urgent": {"type": "noul",
"instructions": "Does the user report a problem that blocks their work?"}}
}`

// needTool skips the test when the system has no name on PATH, saying
// which Debian package has it.
func needTool(t *testing.T, name, pkg string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s is not installed (Debian package %s; .ci/run installs it): this check needs it", name, pkg)
	}
	return p
}

var (
	binOnce sync.Once
	binDir  string
	binErr  error
)

// binaries builds vllm-sr and vllm-srun from the main module once per
// test run and returns the directory holding them.
func binaries(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		binDir, binErr = os.MkdirTemp("", "deploy-check-bin-")
		if binErr != nil {
			return
		}
		cmd := exec.Command("go", "build", "-o", binDir+"/", "./cmd/vllm-sr", "./cmd/vllm-srun")
		cmd.Dir = repoRoot
		if out, err := cmd.CombinedOutput(); err != nil {
			binErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binDir
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// freePort returns a loopback port nothing listens on now.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// process is a server the test started; Stop ends it and its children.
type process struct {
	cmd  *exec.Cmd
	logs *bytes.Buffer
	mu   *sync.Mutex
	done chan struct{}
}

type lockedWriter struct {
	mu *sync.Mutex
	b  *bytes.Buffer
}

func (w lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

// start runs a server in a process group of its own, so Stop reaches the
// children a wrapper (buildah run) starts; the test's cleanup stops it.
func start(t *testing.T, name string, args ...string) *process {
	t.Helper()
	p := &process{cmd: exec.Command(name, args...), logs: &bytes.Buffer{}, mu: &sync.Mutex{}, done: make(chan struct{})}
	w := lockedWriter{p.mu, p.logs}
	p.cmd.Stdout, p.cmd.Stderr = w, w
	p.cmd.SysProcAttr = procGroup()
	if err := p.cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", name, err)
	}
	go func() { _ = p.cmd.Wait(); close(p.done) }()
	t.Cleanup(p.Stop)
	return p
}

// Stop sends SIGTERM to the group, then SIGKILL after 10 s.
func (p *process) Stop() {
	select {
	case <-p.done:
		return
	default:
	}
	signalGroup(p.cmd.Process.Pid, false)
	select {
	case <-p.done:
	case <-time.After(10 * time.Second):
		signalGroup(p.cmd.Process.Pid, true)
		<-p.done
	}
}

// Logs is what the process wrote so far.
func (p *process) Logs() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.logs.String()
}

// waitOK polls url until it answers 200, for at most d.
func waitOK(t *testing.T, p *process, url string, d time.Duration) {
	t.Helper()
	deadline := time.Now().Add(d)
	client := &http.Client{Timeout: 2 * time.Second}
	for time.Now().Before(deadline) {
		select {
		case <-p.done:
			t.Fatalf("%s exited before %s answered 200:\n%s", p.cmd.Path, url, p.Logs())
		default:
		}
		if resp, err := client.Get(url); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("%s did not answer 200 within %s:\n%s", url, d, p.Logs())
}

// tryIt posts the README's Try-it request to base and returns the noul
// probability of its answer "urgent", failing unless it is one in [0, 1].
func tryIt(t *testing.T, base string) float64 {
	t.Helper()
	client := &http.Client{Timeout: 10 * time.Second}
	resp, err := client.Post(base+"/v1/systemone", "application/json", strings.NewReader(tryItBody))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	var answer struct {
		Answers map[string]struct {
			Type string   `json:"type"`
			Noul *float64 `json:"noul"`
		} `json:"answers"`
	}
	if resp.StatusCode != http.StatusOK || json.Unmarshal(body, &answer) != nil {
		t.Fatalf("Try it: %s %s", resp.Status, body)
	}
	u, ok := answer.Answers["urgent"]
	if !ok || u.Type != "noul" || u.Noul == nil || *u.Noul < 0 || *u.Noul > 1 {
		t.Fatalf("Try it: no noul probability in %s", body)
	}
	return *u.Noul
}

// run runs a command with a deadline and returns its standard output,
// failing the test with its output when it fails.
func run(t *testing.T, d time.Duration, dir, name string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s%s", name, strings.Join(args, " "), err, stdout.String(), stderr.String())
	}
	return stdout.String()
}

// itoa is strconv.Itoa, for ports in argument lists.
func itoa(n int) string { return strconv.Itoa(n) }

// abs is the absolute form of a path relative to this package.
func abs(t *testing.T, p string) string {
	t.Helper()
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// runQuiet runs a cleanup command, whose failure the test does not judge.
func runQuiet(name string, args ...string) (string, error) {
	out, err := exec.Command(name, args...).CombinedOutput()
	return string(out), err
}

// needToolOrEmpty is the path of name on PATH, or "" when it is missing.
func needToolOrEmpty(name string) string {
	p, _ := exec.LookPath(name)
	return p
}
