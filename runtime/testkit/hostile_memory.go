package testkit

import (
	"bytes"
	"net/http"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/bodylimit"
)

// CheckConcurrentBombs sends 8 gzip bombs (each about 1 MiB inflating far
// past the body limit) at once to url, a System One endpoint of a server
// running in this process, and checks that each is answered 413
// request_too_large or 503 unavailable with Retry-After (the shared
// inflating budget in use), and that the heap grew by at most 2.5x the
// budget while they were read (before the budget, 8 bombs took 745 MiB
// on the Router). The budget bounds what is reserved exactly; the sampled
// heap also holds garbage not yet collected and whatever the rest of the
// test binary allocates meanwhile, hence the margin. It reports the peak.
func CheckConcurrentBombs(t *testing.T, url string) {
	t.Helper()
	bomb := gzipBomb()
	budget := bodylimit.Shared.Size()
	defer debug.SetGCPercent(debug.SetGCPercent(25))
	runtime.GC()
	base := heapBytes()
	var peak atomic.Uint64
	stop, sampled := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(sampled)
		for {
			peak.Store(max(peak.Load(), heapBytes()))
			select {
			case <-stop:
				return
			case <-time.After(500 * time.Microsecond):
			}
		}
	}()
	statuses := make([]int, 8)
	var wg sync.WaitGroup
	for i := range statuses {
		wg.Go(func() { statuses[i] = postBomb(t, url, bomb) })
	}
	wg.Wait()
	close(stop)
	<-sampled
	grew := peak.Load() - min(base, peak.Load())
	t.Logf("8 concurrent 1 MiB bombs: statuses %v; the heap grew by %.1f MiB at most (budget %d MiB)", statuses, float64(grew)/(1<<20), budget>>20)
	if limit := uint64(budget) * 5 / 2; grew > limit {
		t.Fatalf("the heap grew by %d bytes, over 2.5x the %d-byte inflating budget", grew, budget)
	}
}

// postBomb sends one bomb and returns the status, failing the test on an
// answer that is neither 413 nor a 503 with Retry-After.
func postBomb(t *testing.T, url string, bomb []byte) int {
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(bomb))
	if err != nil {
		t.Error(err)
		return 0
	}
	req.Header.Set(vocab.HeaderContentType, "application/json")
	req.Header.Set("Content-Encoding", "gzip")
	resp, err := hostileClient.Do(req)
	if err != nil {
		t.Errorf("a bomb: %v", err)
		return 0
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusRequestEntityTooLarge:
	case resp.StatusCode == http.StatusServiceUnavailable && resp.Header.Get(vocab.HeaderRetryAfter) != "":
	default:
		t.Errorf("a bomb: status %d (Retry-After %q)", resp.StatusCode, resp.Header.Get(vocab.HeaderRetryAfter))
	}
	return resp.StatusCode
}

func heapBytes() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}
