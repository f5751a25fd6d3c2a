package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// serialUpstream is a deployment with the capacity of one: every System
// One call waits for the one before it, then takes work (and, while gate
// is closed, waits for it too) before vllm-srun answers it. A Router that
// queued whatever arrives would make its clients wait for the whole queue.
type serialUpstream struct {
	proxy          *httputil.ReverseProxy
	work           time.Duration
	mu             sync.Mutex
	gate           atomic.Pointer[chan struct{}]
	arrived        atomic.Int64
	inFlight, most atomic.Int64
}

func (u *serialUpstream) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodPost {
		u.arrived.Add(1)
		n := u.inFlight.Add(1)
		defer u.inFlight.Add(-1)
		for m := u.most.Load(); n > m && !u.most.CompareAndSwap(m, n); m = u.most.Load() {
		}
		u.mu.Lock()
		if g := u.gate.Load(); g != nil {
			<-*g
		}
		time.Sleep(u.work)
		u.mu.Unlock()
	}
	u.proxy.ServeHTTP(w, r)
}

// startRouterBinary runs `vllm-sr serve` with one vllm-sr/5.0 listener of
// maxInFlight in front of upstream's vela3-fast deployment, and returns
// its URL and process.
func startRouterBinary(t *testing.T, bin, upstream string, maxInFlight int) (string, *os.Process) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	config := filepath.Join(t.TempDir(), "router.yaml")
	yaml := fmt.Sprintf(`listeners:
  - {name: edge, address: "%s", max_in_flight: %d, apis: {systemone: {schema: vllm-sr/5.0}}}
deployments:
  "%s":
    provider: systemone
    endpoint: %s/v1/systemone
    model: %s
    schema: vllm-sr/5.0
`, addr, maxInFlight, costModel, upstream, costModel)
	if err := os.WriteFile(config, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "serve", "--config", config)
	cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	eventually(t, "the Router answers /health", func() bool {
		resp, err := http.Get("http://" + addr + "/health")
		if err == nil {
			resp.Body.Close()
		}
		return err == nil && resp.StatusCode == http.StatusOK
	})
	return "http://" + addr, cmd.Process
}

// overloadLoad is what clients saw of one load run.
type overloadLoad struct {
	statuses map[int]int
	admitted []time.Duration // latencies of the 200s, sorted
	other    []string        // what was neither 200 nor a well-formed 529
}

func (l overloadLoad) p(q float64) time.Duration {
	return l.admitted[min(len(l.admitted)-1, int(q*float64(len(l.admitted))))]
}

// runOverloadLoad sends body from clients keep-alive clients as fast as
// each is answered, for d.
func runOverloadLoad(url string, body []byte, clients int, d time.Duration) overloadLoad {
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: clients}}
	defer client.CloseIdleConnections()
	var (
		mu  sync.Mutex
		out = overloadLoad{statuses: map[int]int{}}
		wg  sync.WaitGroup
	)
	end := time.Now().Add(d)
	for range clients {
		wg.Go(func() {
			for time.Now().Before(end) {
				start := time.Now()
				status, problem := overloadPost(client, url, body)
				took := time.Since(start)
				mu.Lock()
				out.statuses[status]++
				if status == http.StatusOK {
					out.admitted = append(out.admitted, took)
				}
				if problem != "" && len(out.other) < 5 {
					out.other = append(out.other, problem)
				}
				mu.Unlock()
				if status == 529 { // back off, as a client told Retry-After would (shorter, to keep the load on)
					time.Sleep(50 * time.Millisecond)
				}
			}
		})
	}
	wg.Wait()
	slices.Sort(out.admitted)
	return out
}

// overloadPost sends one request and checks its answer: a 200, or a 529
// overloaded with Retry-After and retry-after-ms; anything else is a
// problem.
func overloadPost(client *http.Client, url string, body []byte) (int, string) {
	resp, err := client.Post(url+"/v1/systemone", "application/json", bytes.NewReader(body))
	if err != nil {
		return 0, err.Error()
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusOK:
		return 200, ""
	case 529:
		var e struct{ Code, Reason string }
		if json.Unmarshal(got, &e) != nil || e.Code != "overloaded" || e.Reason != "overloaded" ||
			resp.Header.Get("Retry-After") != "1" || resp.Header.Get("retry-after-ms") != "1000" {
			return 529, fmt.Sprintf("529 %v %.300s", resp.Header, got)
		}
		return 529, ""
	}
	return resp.StatusCode, fmt.Sprintf("%d %.300s", resp.StatusCode, got)
}

// peakRSS is the most resident memory process pid has used (VmHWM), in
// bytes; 0 where /proc does not say.
func peakRSS(pid int) int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	m := regexp.MustCompile(`VmHWM:\s+(\d+) kB`).FindSubmatch(data)
	if m == nil {
		return 0
	}
	kb, _ := strconv.ParseInt(string(m[1]), 10, 64)
	return kb << 10
}

// TestRouterAnswersItsOwnOverload: a listener serves at most its
// max_in_flight requests at once. Past it, a request is answered 529
// overloaded with Retry-After before its body is read (the client has
// sent only its headers), the probes still answer, and
// vsr_requests_total counts every 529. Under six times the bound, from
// clients sending 1 MiB bodies to a deployment that serves one call at a
// time, every answer is 200 or 529, the deployment never sees more than
// the bound, and the admitted requests' latency and the Router's memory
// stay bounded: far below the same load on a listener whose bound is
// never reached, which queues all of it.
func TestRouterAnswersItsOwnOverload(t *testing.T) {
	if testing.Short() {
		t.Skip("judged by latency and resident memory, which a busy machine's -short runs (the spec drill's) would measure")
	}
	const (
		bound   = 4
		clients = 6 * bound
		work    = 40 * time.Millisecond
	)
	runtimeURL, _ := url.Parse(startRuntime(t))
	up := &serialUpstream{proxy: httputil.NewSingleHostReverseProxy(runtimeURL), work: work}
	upstream := httptest.NewServer(up)
	t.Cleanup(upstream.Close)
	bin := buildBinary(t, "vllm-sr")
	routerURL, proc := startRouterBinary(t, bin, upstream.URL, bound)

	// The bound's requests wait at the deployment's gate.
	gate := make(chan struct{})
	up.gate.Store(&gate)
	held := make(chan int, bound)
	for range bound {
		go func() {
			status, _ := overloadPost(http.DefaultClient, routerURL, []byte(costRequest))
			held <- status
		}()
	}
	eventually(t, "the bound's requests reach the deployment", func() bool { return up.arrived.Load() == bound })

	// One more is answered at once, having sent only its headers.
	conn, err := net.Dial("tcp", strings.TrimPrefix(routerURL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(5 * time.Second))
	fmt.Fprintf(conn, "POST /v1/systemone HTTP/1.1\r\nHost: router\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", 1<<20)
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer to a request past the bound whose body was not sent: %v", err)
	}
	answer, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	if resp.StatusCode != 529 || resp.Header.Get("Retry-After") != "1" || resp.Header.Get("retry-after-ms") != "1000" ||
		!bytes.Contains(answer, []byte(`"code":"overloaded"`)) || !bytes.Contains(answer, []byte(`max_in_flight (4)`)) {
		t.Errorf("past the bound: %d %v %s; want 529 overloaded with Retry-After 1 and retry-after-ms 1000", resp.StatusCode, resp.Header, answer)
	}
	for _, probe := range []string{"/health", "/metrics"} {
		if resp, err := http.Get(routerURL + probe); err != nil || resp.StatusCode != http.StatusOK {
			t.Errorf("GET %s while the listener is full: %v %v", probe, err, resp)
		} else {
			resp.Body.Close()
		}
	}
	close(gate)
	for range bound {
		if status := <-held; status != http.StatusOK {
			t.Errorf("a request admitted before the listener filled: %d", status)
		}
	}
	up.gate.Store(nil)

	// Six times the bound, each request a 1 MiB body (the request and
	// whitespace, which the Router reads and decodes).
	body := append([]byte(costRequest), bytes.Repeat([]byte(" "), 1<<20)...)
	rssBefore := peakRSS(proc.Pid)
	up.most.Store(0)
	bounded := runOverloadLoad(routerURL, body, clients, 2*time.Second)
	rssBounded := peakRSS(proc.Pid) - rssBefore
	mostBounded := up.most.Load()

	if len(bounded.other) > 0 {
		t.Errorf("answers neither 200 nor a well-formed 529: %q", bounded.other)
	}
	if len(bounded.statuses) != 2 || bounded.statuses[200] == 0 || bounded.statuses[529] == 0 {
		t.Fatalf("statuses %v; want 200s and 529s only", bounded.statuses)
	}
	if mostBounded > bound {
		t.Errorf("the deployment saw %d calls at once through a listener bound to %d", mostBounded, bound)
	}
	metrics, err := http.Get(routerURL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	text, _ := io.ReadAll(metrics.Body)
	metrics.Body.Close()
	counted := regexp.MustCompile(`vsr_requests_total\{api="systemone",code="overloaded",endpoint="/v1/systemone",listener="edge",status="529"\} (\d+)`).FindSubmatch(text)
	if want := bounded.statuses[529] + 1; counted == nil || string(counted[1]) != strconv.Itoa(want) {
		t.Errorf("vsr_requests_total counts %q overloaded answers, want %d", counted, want)
	}

	// The same load where the bound is never reached.
	openURL, openProc := startRouterBinary(t, bin, upstream.URL, 65536)
	rssOpenBefore := peakRSS(openProc.Pid)
	up.most.Store(0)
	open := runOverloadLoad(openURL, body, clients, 2*time.Second)
	rssOpen := peakRSS(openProc.Pid) - rssOpenBefore
	if len(open.other) > 0 || open.statuses[529] > 0 {
		t.Errorf("unbounded listener: %v %q", open.statuses, open.other)
	}
	t.Logf("max_in_flight %d: %v, admitted p50 %v p95 %v max %v, peak RSS +%d MiB, deployment's most at once %d",
		bound, bounded.statuses, bounded.p(0.5), bounded.p(0.95), bounded.p(1), rssBounded>>20, mostBounded)
	t.Logf("never reached: %v, p50 %v p95 %v max %v, peak RSS +%d MiB, deployment's most at once %d",
		open.statuses, open.p(0.5), open.p(0.95), open.p(1), rssOpen>>20, up.most.Load())

	// An admitted request waits for at most the bound's calls ahead of
	// it at the deployment (bound × work, and the Router's own time); the
	// queue of the unbounded one holds every client's.
	if limit := 5 * bound * work; bounded.p(0.95) > limit {
		t.Errorf("admitted p95 %v past %v", bounded.p(0.95), limit)
	}
	if bounded.p(0.95)*2 > open.p(0.5) {
		t.Errorf("admitted p95 %v is not well under the unbounded listener's p50 %v", bounded.p(0.95), open.p(0.5))
	}
	if rssBefore > 0 && rssBounded > rssOpen {
		t.Errorf("peak RSS grew %d MiB under the bound, more than the unbounded listener's %d MiB", rssBounded>>20, rssOpen>>20)
	}
}
