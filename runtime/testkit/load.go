package testkit

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"runtime/pprof"
	"slices"
	"sync"
	"testing"
	"time"
)

// LoadRequest is one kind of request of a fixed-rate load: Body POSTed
// to URL, to be answered 200.
type LoadRequest struct {
	URL  string
	Body []byte
}

// RunFixedRate sends rate requests a second for d, open-loop: request i
// leaves at start + i/rate whether or not the earlier ones were answered,
// so a server that slows down meets a growing queue, as in production,
// rather than a client that politely waits. The requests take turns
// among reqs. Each latency counts from when its request was due to
// leave, so a late sender does not hide a slow server. It fails t for
// every request not answered 200 (naming the first few), and logs the
// p50 and p99.
func RunFixedRate(t *testing.T, reqs []LoadRequest, rate int, d time.Duration) {
	t.Helper()
	skipTimingInShort(t)
	transport := &http.Transport{DisableCompression: true, MaxIdleConnsPerHost: 64}
	defer transport.CloseIdleConnections()
	client := &http.Client{Transport: transport, Timeout: 10 * time.Second}
	n := int(d.Seconds() * float64(rate))
	interval := time.Second / time.Duration(rate)
	latencies := make([]time.Duration, n)
	failures := make([]string, n)
	var wg sync.WaitGroup
	start := time.Now()
	for i := range n {
		due := start.Add(time.Duration(i) * interval)
		time.Sleep(time.Until(due)) // pacing, not synchronisation
		req := reqs[i%len(reqs)]
		wg.Go(func() {
			status, err := postLoad(client, req)
			latencies[i] = time.Since(due)
			if err != nil || status != http.StatusOK {
				failures[i] = fmt.Sprintf("#%d to %s: status %d, %v", i, req.URL, status, err)
			}
		})
	}
	wg.Wait() // each request is bounded by the client's timeout
	failed := 0
	var first []string
	for _, f := range failures {
		if f != "" {
			failed++
			if len(first) < 5 {
				first = append(first, f)
			}
		}
	}
	slices.Sort(latencies)
	round := func(d time.Duration) time.Duration { return d.Round(10 * time.Microsecond) }
	t.Logf("%d requests at %d/s over %v: p50 %v, p99 %v, max %v, %d not 200", n, rate, d,
		round(quantile(latencies, 0.50)), round(quantile(latencies, 0.99)), round(latencies[n-1]), failed)
	if failed > 0 {
		t.Errorf("%d of %d requests were not answered 200; the first: %v", failed, n, first)
	}
}

func postLoad(client *http.Client, req LoadRequest) (int, error) {
	resp, err := client.Post(req.URL, "application/json", bytes.NewReader(req.Body))
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	_, err = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, err
}

// quantile is the q-quantile of sorted, by the nearest rank.
func quantile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(q*float64(len(sorted))+0.5) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

// WaitGoroutines waits, for at most within, until the process runs at
// most limit goroutines, and fails t with what and a dump of every
// goroutine's stack when it does not get there: the leak check of a
// server running in the test's process, against a count taken before.
func WaitGoroutines(t *testing.T, limit int, within time.Duration, what string) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		n := runtime.NumGoroutine()
		if n <= limit {
			return
		}
		if time.Now().After(deadline) {
			var dump bytes.Buffer
			_ = pprof.Lookup("goroutine").WriteTo(&dump, 1)
			t.Errorf("%s: %d goroutines, want at most %d; the goroutines:\n%.30000s", what, n, limit, dump.String())
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// skipTimingInShort skips, under -short, a suite whose verdict rests on
// wall-clock deadlines or the sampled heap. No spec member reaches these
// suites, and the spec drill (gen's TestSpecDrill) runs the runtime's tests
// with -short beside the rest of make test, on cores too busy for their
// bounds to mean anything; make test itself runs them in full.
func skipTimingInShort(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("timing and memory bounds: run without -short")
	}
}
