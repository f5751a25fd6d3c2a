package main

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// BenchmarkRouterCost measures what a proxy costs per request, as the CPU
// time of its own process: the Router (`vllm-sr serve`, this package's
// binary, with its access logs on), the same Router with its calls on
// net/http's Transport instead of its own upstream connections
// (routerNetHTTPMain, this test binary re-run), Go's net/http/httputil
// ReverseProxy forwarding the same request unchanged (reverseProxyMain,
// likewise), and nginx where it is on PATH. All of them sit in front of
// one vllm-srun deployment (in this process) and get the same 5.0
// /v1/systemone request from costConcurrency keep-alive clients, in
// rounds of costRound requests that alternate between them, so a noisy
// machine slows them alike. Each proxy gets b.N requests (at least
// costMinRequests); the CPU time is its process's utime+stime from /proc
// (all threads, including exited ones), read before and after.
//
// A second Router process, router-traceparent, gets the same requests
// each with a client's W3C traceparent, which it passes on with a span id
// of its own (tracing off, as the other's): what propagating a trace
// costs.
//
// With VSR_BENCH_BASE_ROUTER set to a vllm-sr binary built from another
// revision (git worktree add /tmp/base REV && go build -o /tmp/vllm-sr-base
// ./cmd/vllm-sr there), a router-base process of it gets the same
// requests too: a change's cost as a ratio of one run.
//
// Reported: <proxy>-cpu-us/req, the ratios router/rproxy,
// router/router-nethttp, router-traceparent/router, router/nginx and
// router/router-base,
// and each proxy's p50 latency added over calling the deployment directly
// (<proxy>-added-p50-us). Run with a fixed count, so the tick-granular CPU
// clock (10 ms) is a small part of each reading:
//
//	go test -run '^$' -bench RouterCost -benchtime 20000x -count 6 ./cmd/vllm-sr/
func BenchmarkRouterCost(b *testing.B) {
	if _, err := processCPU(os.Getpid()); err != nil {
		b.Skipf("no per-process CPU time here: %v", err)
	}
	upstream := startRuntime(b) // serves vllm-sr/vela3-fast, costModel
	targets := []*costTarget{{name: "direct", url: upstream}}
	traced := startRouterProxy(b, upstream)
	traced.name, traced.traceparent = "router-traceparent", costTraceparent
	targets = append(targets, startRouterProxy(b, upstream), startRouterNetHTTP(b, upstream), startReverseProxy(b, upstream), traced)
	if nginx := startNginx(b, upstream); nginx != nil {
		targets = append(targets, nginx)
	}
	if base := os.Getenv(baseRouterEnv); base != "" {
		addr := freeAddr(b)
		targets = append(targets, startProcess(b, "router-base", addr, exec.Command(base, "serve", "--config", costConfig(b, addr, upstream))))
	}
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{
		MaxIdleConnsPerHost: costConcurrency, DisableCompression: true}}
	body := []byte(costRequest)
	for _, t := range targets {
		for range 50 { // warm up connections and caches; every proxy must answer 200
			if err := costPost(client, t.url, body, t.traceparent); err != nil {
				b.Fatalf("%s: %v", t.name, err)
			}
		}
	}

	// At least costMinRequests each, so that a run of one iteration (the
	// first, b.N = 1) is already a reading worth reporting.
	requests := max(b.N, costMinRequests)
	b.ResetTimer()
	for done := 0; done < requests; done += costRound {
		n := min(costRound, requests-done)
		for _, t := range targets {
			if err := t.run(client, body, n); err != nil {
				b.Fatalf("%s: %v", t.name, err)
			}
		}
	}
	b.StopTimer()

	direct := targets[0].p50()
	cpu := map[string]float64{}
	for _, t := range targets[1:] {
		cpu[t.name] = float64(t.cpu.Microseconds()) / float64(requests)
		b.ReportMetric(cpu[t.name], t.name+"-cpu-us/req")
		b.ReportMetric(float64((t.p50() - direct).Microseconds()), t.name+"-added-p50-us")
	}
	b.ReportMetric(cpu["router"]/cpu["rproxy"], "router/rproxy")
	b.ReportMetric(cpu["router"]/cpu["router-nethttp"], "router/router-nethttp")
	b.ReportMetric(cpu["router-traceparent"]/cpu["router"], "router-traceparent/router")
	if cpu["nginx"] > 0 {
		b.ReportMetric(cpu["router"]/cpu["nginx"], "router/nginx")
	}
	if cpu["router-base"] > 0 {
		b.ReportMetric(cpu["router"]/cpu["router-base"], "router/router-base")
	}
}

const (
	// baseRouterEnv names the vllm-sr binary of the router-base target.
	baseRouterEnv   = "VSR_BENCH_BASE_ROUTER"
	costModel       = "vllm-sr/vela3-fast"
	costConcurrency = 8
	costRound       = 1000
	// costTraceparent is the router-traceparent target's client trace.
	costTraceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	costMinRequests = 5000
	// costRequest is a 5.0 request of a few question types, about 1 KB.
	costRequest = `{"model":"` + costModel + `","state":"Customer writes: my card was charged twice for the same order and the support line keeps hanging up. I need this fixed today or I will dispute it with the bank.",` +
		`"questions":{"urgent":{"type":"noul","instructions":"Does the customer need an answer today?"},` +
		`"topic":{"type":"choice","instructions":"What is the message about?","criteria":{"billing":"Payments, charges and refunds","delivery":"Shipping and delivery","account":"Logins and settings"}},` +
		`"angry":{"type":"noul","instructions":"Is the customer angry?"},` +
		`"refund":{"type":"noul","instructions":"Does the customer ask for money back?"}}}`
)

// costTarget is one way to reach the deployment, and what it cost.
type costTarget struct {
	name, url string
	pid       int // 0: no process of its own (direct)
	cpu       time.Duration
	latencies []time.Duration
	// traceparent is sent with each request when not "".
	traceparent string
}

// run sends n requests from costConcurrency clients and adds the CPU time
// its process spent meanwhile.
func (t *costTarget) run(client *http.Client, body []byte, n int) error {
	before, err := processCPU(t.pid)
	if err != nil {
		return err
	}
	var (
		mu    sync.Mutex
		first error
		wg    sync.WaitGroup
		next  = make(chan struct{}, n)
	)
	for range n {
		next <- struct{}{}
	}
	close(next)
	for range costConcurrency {
		wg.Go(func() {
			for range next {
				start := time.Now()
				err := costPost(client, t.url, body, t.traceparent)
				took := time.Since(start)
				mu.Lock()
				t.latencies = append(t.latencies, took)
				first = cmpErr(first, err)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	after, err := processCPU(t.pid)
	t.cpu += after - before
	return cmpErr(first, err)
}

func (t *costTarget) p50() time.Duration {
	slices.Sort(t.latencies)
	return t.latencies[len(t.latencies)/2]
}

func cmpErr(first, err error) error {
	if first != nil {
		return first
	}
	return err
}

// costPost sends the request, with traceparent when it is not "".
func costPost(client *http.Client, url string, body []byte, traceparent string) error {
	req, err := http.NewRequest(http.MethodPost, url+"/v1/systemone", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if traceparent != "" {
		req.Header.Set("Traceparent", traceparent)
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	got, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err == nil && resp.StatusCode != http.StatusOK {
		err = fmt.Errorf("status %d: %.300s", resp.StatusCode, got)
	}
	return err
}

// processCPU is the user and system CPU time of process pid (0: none)
// so far, from /proc/<pid>/stat, in clock ticks of 10 ms (USER_HZ 100).
func processCPU(pid int) (time.Duration, error) {
	if pid == 0 {
		return 0, nil
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The command name, field 2, is in parentheses and may hold spaces.
	fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	var utime, stime int64
	if len(fields) < 13 {
		return 0, fmt.Errorf("short /proc/%d/stat", pid)
	}
	if _, err := fmt.Sscan(fields[11], &utime); err != nil {
		return 0, err
	}
	if _, err := fmt.Sscan(fields[12], &stime); err != nil {
		return 0, err
	}
	return time.Duration(utime+stime) * 10 * time.Millisecond, nil
}

// startRouterProxy builds vllm-sr and serves one vllm-sr/5.0 listener in
// front of the deployment, as an operator would run it.
func startRouterProxy(b *testing.B, upstream string) *costTarget {
	addr := freeAddr(b)
	return startProcess(b, "router", addr, exec.Command(buildBinary(b, "vllm-sr"), "serve", "--config", costConfig(b, addr, upstream)))
}

// startRouterNetHTTP re-runs this test binary as routerNetHTTPMain: the
// same Router and configuration, its calls on net/http's Transport.
func startRouterNetHTTP(b *testing.B, upstream string) *costTarget {
	addr := freeAddr(b)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), routerNetHTTPEnv+"="+costConfig(b, addr, upstream))
	return startProcess(b, "router-nethttp", addr, cmd)
}

// costConfig writes the configuration of a Router with one vllm-sr/5.0
// listener at addr in front of the deployment.
func costConfig(b *testing.B, addr, upstream string) string {
	config := filepath.Join(b.TempDir(), "router.yaml")
	yaml := `listeners:
  - {name: bench, address: "` + addr + `", apis: {systemone: {schema: vllm-sr/5.0}}}
deployments:
  "` + costModel + `": # the deployment's name is the model's, so the same request reaches it
    provider: systemone
    endpoint: ` + upstream + `/v1/systemone
    model: ` + costModel + `
    schema: vllm-sr/5.0
    max_concurrency: 64
`
	if err := os.WriteFile(config, []byte(yaml), 0o600); err != nil {
		b.Fatal(err)
	}
	return config
}

// startReverseProxy re-runs this test binary as reverseProxyMain.
func startReverseProxy(b *testing.B, upstream string) *costTarget {
	addr := freeAddr(b)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), reverseProxyEnv+"="+addr+" "+upstream)
	return startProcess(b, "rproxy", addr, cmd)
}

// startNginx runs nginx as one process (no master, one worker's loop)
// proxying to the deployment over kept-alive connections, with a buffered
// access log as the Router's; nil when nginx is not on PATH.
func startNginx(b *testing.B, upstream string) *costTarget {
	bin, err := exec.LookPath("nginx")
	if err != nil {
		return nil
	}
	dir, addr := b.TempDir(), freeAddr(b)
	conf := `daemon off; master_process off; worker_processes 1; pid ` + dir + `/nginx.pid;
error_log ` + dir + `/error.log;
events { worker_connections 1024; }
http {
  access_log ` + dir + `/access.log combined buffer=64k flush=100ms;
  client_body_temp_path ` + dir + `; proxy_temp_path ` + dir + `;
  fastcgi_temp_path ` + dir + `; uwsgi_temp_path ` + dir + `; scgi_temp_path ` + dir + `;
  upstream deployment { server ` + strings.TrimPrefix(upstream, "http://") + `; keepalive 64; }
  server {
    listen ` + addr + `;
    location / { proxy_pass http://deployment; proxy_http_version 1.1; proxy_set_header Connection ""; }
  }
}
`
	path := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(path, []byte(conf), 0o600); err != nil {
		b.Fatal(err)
	}
	return startProcess(b, "nginx", addr, exec.Command(bin, "-p", dir, "-c", path, "-e", dir+"/error.log"))
}

// startProcess starts cmd, stops it when the benchmark ends, and waits
// (bounded) until addr accepts connections.
func startProcess(b *testing.B, name, addr string, cmd *exec.Cmd) *costTarget {
	cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	if err := cmd.Start(); err != nil {
		b.Fatalf("%s: %v", name, err)
	}
	b.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	waitFor(b, func() bool {
		c, err := net.DialTimeout("tcp", addr, 100*time.Millisecond)
		if err == nil {
			c.Close()
		}
		return err == nil
	})
	return &costTarget{name: name, url: "http://" + addr, pid: cmd.Process.Pid}
}

func freeAddr(b *testing.B) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func waitFor(b *testing.B, ready func() bool) {
	for deadline := time.Now().Add(30 * time.Second); !ready(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			b.Fatal("not ready within 30s")
		}
	}
}
