package router_test

import (
	"context"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// A vllm-sr/5.0 batch to a systemone/0.2 deployment, which has no batch
// endpoint, is one wire call per request, max_concurrency of them in
// flight (httpCaller.Call's sliding window). These measure and check that
// window against a real loopback upstream.

const fanOutConfig = `listeners:
  - name: public5
    address: 127.0.0.1:{{P5}}
    apis:
      systemone: {schema: vllm-sr/5.0}
deployments:
  standard:
    provider: systemone
    endpoint: {{UP}}/v1/systemone
    model: d3
    schema: systemone/0.2
    max_concurrency: {{WINDOW}}
`

// fanOutUpstream is a systemone/0.2 upstream that counts the calls in
// flight and answers each after hold returns.
type fanOutUpstream struct {
	srv *httptest.Server
	// hold is called with each call's body, the calls so far and the peak
	// in flight as the call arrived, while the call counts as in flight;
	// it returns when the call may be answered.
	hold func(body []byte, calls, peak int)

	mu            sync.Mutex
	inFlight, max int
	calls         int
	conns         int // connections opened to it
}

func newFanOutUpstream(tb testing.TB, hold func(body []byte, calls, peak int)) *fanOutUpstream {
	tb.Helper()
	u := &fanOutUpstream{hold: hold}
	u.srv = httptest.NewUnstartedServer(http.HandlerFunc(u.serve))
	u.srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			u.mu.Lock()
			u.conns++
			u.mu.Unlock()
		}
	}
	u.srv.Start()
	tb.Cleanup(u.srv.Close)
	return u
}

func (u *fanOutUpstream) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet {
		reply(w, 200, `{"models":[{"name":"d3","description":"a fan-out upstream","release_date":"2026-01-01"}]}`)
		return
	}
	body, _ := io.ReadAll(r.Body)
	u.mu.Lock()
	u.calls++
	u.inFlight++
	u.max = max(u.max, u.inFlight)
	calls, peak := u.calls, u.max
	u.mu.Unlock()
	u.hold(body, calls, peak)
	// The call stops counting before its reply is written: the Router
	// holds its slot until it has read the reply, so the count here never
	// exceeds the Router's own.
	u.mu.Lock()
	u.inFlight--
	u.mu.Unlock()
	reply(w, 200, `{"model":"d3","answers":{"q":{"type":"noul","noul":0.5}},"usage":{"input_tokens":1,"output_tokens":0}}`)
}

func (u *fanOutUpstream) counts() (calls, maxInFlight, conns int) {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.calls, u.max, u.conns
}

// startFanOut starts a Router whose deployment "standard" is u with the
// given max_concurrency, and returns its listener's URL.
func startFanOut(tb testing.TB, u *fanOutUpstream, window int) string {
	tb.Helper()
	path := writeConfig(tb, fanOutConfig, map[string]string{"P5": freePort(tb), "UP": u.srv.URL, "WINDOW": fmt.Sprint(window)})
	return startRouter(tb, path).URL("public5")
}

const batchPath = "/v1/systemone/batch"

// fanOutBatch is a batch of n requests r000..., each one noul question q,
// request i's state "ticket i".
func fanOutBatch(n int) string {
	reqs := make([]string, n)
	for i := range n {
		reqs[i] = fmt.Sprintf(`"r%03d":{"state":"ticket %d","questions":{"q":{"type":"noul","instructions":"Is it urgent?"}}}`, i, i)
	}
	return `{"model":"standard","requests":{` + strings.Join(reqs, ",") + `}}`
}

// TestBatchWindowKeepsEightInFlight: a batch of 24 to a max_concurrency 8
// deployment has exactly 8 calls in flight at its peak, and the window
// slides: while the first call is held, the other 23 are all sent (a
// window that waited for a whole wave of 8 would send no more than 7).
// No call is released by time: each waits until 8 are in flight, and the
// held one until every other call has arrived; giveUp only ends a failing
// run.
func TestBatchWindowKeepsEightInFlight(t *testing.T) {
	const n, window = 24, 8
	giveUp, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	full := make(chan struct{}) // closed when 8 calls were in flight at once
	othersIn := make(chan struct{})
	var once, othersOnce sync.Once
	var heldOut atomic.Bool
	u := newFanOutUpstream(t, func(body []byte, calls, peak int) {
		if peak >= window {
			once.Do(func() { close(full) })
		}
		if calls == n {
			othersOnce.Do(func() { close(othersIn) })
		}
		select {
		case <-full:
		case <-giveUp.Done():
		}
		if strings.Contains(string(body), `"ticket 0"`) {
			select {
			case <-othersIn:
			case <-giveUp.Done():
				heldOut.Store(true)
			}
		}
	})
	url := startFanOut(t, u, window) + batchPath
	status, out := post(t, url, fanOutBatch(n))
	if status != 200 {
		t.Fatalf("status %d: %.500s", status, out)
	}
	calls, peak, _ := u.counts()
	if calls != n || peak != window {
		t.Errorf("%d calls, at most %d in flight; want %d calls, %d in flight", calls, peak, n, window)
	}
	if heldOut.Load() {
		t.Errorf("while the first call was held the other %d were not all sent: the window does not slide", n-1)
	}
}

// TestWindowConnectionsKept: a deployment whose window (96) is wider than
// the default client's minimum of idle connections per host keeps a
// connection for every call of its window, so a second batch opens none.
// Each batch's calls are held until all 96 are in flight at once, so
// each batch needs 96 connections.
func TestWindowConnectionsKept(t *testing.T) {
	const window = 96
	giveUp, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	full := [2]chan struct{}{make(chan struct{}), make(chan struct{})} // per batch: all its calls in flight
	u := newFanOutUpstream(t, func(_ []byte, calls, _ int) {
		batch := min((calls-1)/window, 1)
		if calls%window == 0 {
			close(full[batch])
		}
		select {
		case <-full[batch]:
		case <-giveUp.Done():
		}
	})
	base := startFanOut(t, u, window)
	waitReady(t, base+"/ready") // the first readiness check's connection is made before the batches
	var opened [2]int
	for i := range opened {
		if status, out := post(t, base+batchPath, fanOutBatch(window)); status != 200 {
			t.Fatalf("batch %d: status %d: %.500s", i, status, out)
		}
		_, _, opened[i] = u.counts()
	}
	if giveUp.Err() != nil {
		t.Fatalf("the calls of a batch were never all in flight at once")
	}
	if again := opened[1] - opened[0]; opened[0] < window || again != 0 {
		t.Errorf("the first batch opened %d connections, the second %d more; want at least %d, then none", opened[0], again, window)
	}
}

// BenchmarkBatchFanOut sends a batch of 100 requests through a Router
// listener to a systemone/0.2 deployment at max_concurrency 8, whose
// upstream answers each call after 20 ms: at best ceil(100/8) x 20 ms =
// 260 ms. It reports the batch's wall time (ms/batch), its ratio to that
// ideal (x-ideal; the goal is at most 1.05) and the upstream connections
// each batch opened (conns/batch; 0 when the Router reuses them).
// direct-client is the floor the machine allows: the same 100 calls to
// the same upstream from a plain net/http client with the same window,
// no Router.
func BenchmarkBatchFanOut(b *testing.B) {
	const n, window, callTime = 100, 8, 20 * time.Millisecond
	ideal := time.Duration(math.Ceil(float64(n)/window)) * callTime
	b.Run("router", func(b *testing.B) {
		u := newFanOutUpstream(b, func([]byte, int, int) { time.Sleep(callTime) })
		url, body := startFanOut(b, u, window)+batchPath, fanOutBatch(n)
		batch := func() {
			if status, out := post(b, url, body); status != 200 {
				b.Fatalf("status %d: %.500s", status, out)
			}
		}
		batch() // opens the upstream connections
		_, _, warm := u.counts()
		measureFanOut(b, ideal, batch)
		_, _, conns := u.counts()
		b.ReportMetric(float64(conns-warm)/float64(b.N), "conns/batch")
	})
	b.Run("direct-client", func(b *testing.B) {
		u := newFanOutUpstream(b, func([]byte, int, int) { time.Sleep(callTime) })
		client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: window}}
		b.Cleanup(client.CloseIdleConnections)
		call := `{"model":"d3","state":"ticket","questions":{"q":{"type":"noul","instructions":"Is it urgent?"}}}`
		batch := func() {
			slots := make(chan struct{}, window)
			var wg sync.WaitGroup
			for range n {
				slots <- struct{}{}
				wg.Go(func() {
					defer func() { <-slots }()
					resp, err := client.Post(u.srv.URL+"/v1/systemone", "application/json", strings.NewReader(call))
					if err != nil {
						b.Error(err)
						return
					}
					_, _ = io.Copy(io.Discard, resp.Body)
					_ = resp.Body.Close()
				})
			}
			wg.Wait()
		}
		batch()
		measureFanOut(b, ideal, batch)
	})
}

// measureFanOut runs batch once per iteration and reports its mean wall
// time in ms/batch and as a ratio to ideal (x-ideal).
func measureFanOut(b *testing.B, ideal time.Duration, batch func()) {
	var total time.Duration
	for b.Loop() {
		start := time.Now()
		batch()
		total += time.Since(start)
	}
	mean := total / time.Duration(b.N)
	b.ReportMetric(float64(mean)/float64(time.Millisecond), "ms/batch")
	b.ReportMetric(float64(mean)/float64(ideal), "x-ideal")
}
