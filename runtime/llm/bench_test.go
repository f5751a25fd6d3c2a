//go:build unix

package llm_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vllm-sr/systemone/runtime/llm"
	"github.com/vllm-sr/systemone/runtime/srun"
	"github.com/vllm-sr/systemone/runtime/testkit"
)

// The engine's cost, measured over real HTTP in one process: a client
// posts System One requests to a vllm-srun (srun.Start) whose LLM engine
// calls a fake vLLM backend (testkit) that answers after a fixed latency.
// The numbers and the command are in docs/performance.md ("The LLM
// engine"):
//
//	go test -run '^$' -bench . -benchtime 200x ./runtime/llm/

// benchState is what every benchmark question reads.
const benchState = "My card was charged twice for the same order, please refund the second charge."

// benchRequest is a /v1/systemone request of n noul questions, each one
// backend call.
func benchRequest(n int) string {
	qs := make([]string, n)
	for i := range qs {
		qs[i] = fmt.Sprintf(`"q%d": {"type": "noul", "instructions": "Does the user report a problem with a charge? (%d)"}`, i, i)
	}
	return `{"state": {"request": "` + benchState + `"}, "roles": {"request": "user"}, "questions": {` + strings.Join(qs, ", ") + `}}`
}

// benchServer is a vllm-srun in front of a fake backend, ready, with a
// keep-alive client.
type benchServer struct {
	url     string
	backend *testkit.LLMBackend
	client  *http.Client
}

func startBench(b *testing.B, o testkit.LLMBackendOptions, maxConcurrency int) *benchServer {
	b.Helper()
	backend := testkit.NewLLMBackend(b, o)
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	e, err := llm.New(llm.Config{URL: backend.URL(), Model: "qwen3-8b", MaxConcurrency: maxConcurrency,
		CallTimeout: 10 * time.Second, ConnectTimeout: 10 * time.Second, Logger: quiet})
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	run, err := srun.Start(ctx, srun.Config{Engine: e, EngineName: llm.EngineName, Addr: "127.0.0.1:0", Logger: quiet})
	if err != nil {
		cancel()
		b.Fatal(err)
	}
	b.Cleanup(func() { cancel(); _ = run.Wait() })
	if err := run.WaitReady(20 * time.Second); err != nil {
		b.Fatalf("not ready: %v", err)
	}
	return &benchServer{url: run.URL(), backend: backend,
		client: &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 4, DisableCompression: true}}}
}

// post sends body to url and fails the benchmark unless it is answered
// 200; it returns the answer.
func (s *benchServer) post(b *testing.B, url string, body []byte) []byte {
	resp, err := s.client.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		b.Fatal(err)
	}
	data, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK {
		b.Fatalf("%s: status %d, %v: %s", url, resp.StatusCode, err, data)
	}
	return data
}

// processCPU is this process's user and system CPU time so far: the
// client, the server, the engine and the fake backend together.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// lastChatBody is the body of the last chat completion call the backend
// received: the very call the engine makes for a question.
func lastChatBody(b *testing.B, backend *testkit.LLMBackend) []byte {
	calls := backend.Calls()
	for i := len(calls) - 1; i >= 0; i-- {
		if calls[i].Path == "/v1/chat/completions" {
			return calls[i].Body
		}
	}
	b.Fatal("the engine made no chat completion call")
	return nil
}

// BenchmarkQuestion is one noul question a request, asked in turn (one
// request in flight), over a fake backend answering at once (latency=0)
// or after 5 ms (latency=5ms).
//
// Each iteration makes the engine's own chat call for the same question
// to the fake backend directly, then asks the question through
// vllm-srun, so that both see the same load on a busy machine; each is
// timed, wall and process CPU (getrusage), on its own. backend-cpu-us/call
// is the direct call's CPU (the client and the fake), cpu-us/question the
// question's (the client, vllm-srun's HTTP and pipeline, the engine, its
// HTTP call and the fake), added-cpu-us/question their difference: what a
// question costs on top of the backend call it makes, the runtime and the
// engine with their extra HTTP hop. p50-us/question and
// p50-us/backend-call are the median wall times, added-p50-us/question
// their difference; over-latency-p50-us/question is the question's median
// less the backend's nominal latency. ns/op is a direct call and a
// question together.
func BenchmarkQuestion(b *testing.B) {
	for _, latency := range []time.Duration{0, 5 * time.Millisecond} {
		b.Run("latency="+latencyName(latency), func(b *testing.B) {
			s := startBench(b, testkit.LLMBackendOptions{Latency: latency}, 0)
			req := []byte(benchRequest(1))
			if got := s.post(b, s.url+"/v1/systemone", req); !bytes.Contains(got, []byte(`"noul"`)) {
				b.Fatalf("no noul answer: %s", got)
			}
			chat := lastChatBody(b, s.backend)
			direct := s.backend.URL() + "/chat/completions"
			for range 10 { // warm both paths' connections
				s.post(b, direct, chat)
				s.post(b, s.url+"/v1/systemone", req)
			}
			var directCPU, questionCPU time.Duration
			directWall := make([]time.Duration, 0, b.N)
			questionWall := make([]time.Duration, 0, b.N)
			timed := func(url string, body []byte, cpu *time.Duration, wall *[]time.Duration) {
				c0, w0 := processCPU(b), time.Now()
				s.post(b, url, body)
				*wall = append(*wall, time.Since(w0))
				*cpu += processCPU(b) - c0
			}
			b.ResetTimer()
			for range b.N {
				timed(direct, chat, &directCPU, &directWall)
				timed(s.url+"/v1/systemone", req, &questionCPU, &questionWall)
			}
			b.StopTimer()
			n := float64(b.N)
			us := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 }
			b.ReportMetric(us(questionCPU)/n, "cpu-us/question")
			b.ReportMetric(us(directCPU)/n, "backend-cpu-us/call")
			b.ReportMetric(us(questionCPU-directCPU)/n, "added-cpu-us/question")
			q50, d50 := median(questionWall), median(directWall)
			b.ReportMetric(us(q50), "p50-us/question")
			b.ReportMetric(us(d50), "p50-us/backend-call")
			b.ReportMetric(us(q50-d50), "added-p50-us/question")
			b.ReportMetric(us(q50-latency), "over-latency-p50-us/question")
		})
	}
}

// median is the middle of ds (sorted in place).
func median(ds []time.Duration) time.Duration {
	slices.Sort(ds)
	return ds[len(ds)/2]
}

func latencyName(d time.Duration) string {
	if d == 0 {
		return "0"
	}
	return d.String()
}

// BenchmarkRequestConcurrency is one request of n noul questions (n
// backend calls) over a fake backend answering after 5 ms, under
// --max-concurrency c: the request takes about ceil(n/c) backend
// latencies. ideal-ms is that bound; ms/request what it took (ns/op in
// ms); backend-max-in-flight the most calls the backend saw at once,
// which must not pass c.
func BenchmarkRequestConcurrency(b *testing.B) {
	const latency = 5 * time.Millisecond
	for _, n := range []int{1, 4, 16} {
		for _, c := range []int{1, 4, 16} {
			b.Run(fmt.Sprintf("questions=%d/max-concurrency=%d", n, c), func(b *testing.B) {
				s := startBench(b, testkit.LLMBackendOptions{Latency: latency}, c)
				req := []byte(benchRequest(n))
				for range 3 {
					s.post(b, s.url+"/v1/systemone", req)
				}
				b.ResetTimer()
				for range b.N {
					s.post(b, s.url+"/v1/systemone", req)
				}
				b.StopTimer()
				if got := s.backend.MaxInFlight(); got > c {
					b.Fatalf("the backend saw %d calls at once, more than --max-concurrency %d", got, c)
				}
				waves := (n + c - 1) / c
				b.ReportMetric(float64(waves)*float64(latency.Milliseconds()), "ideal-ms")
				b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/request")
				b.ReportMetric(float64(s.backend.MaxInFlight()), "backend-max-in-flight")
			})
		}
	}
}

// BenchmarkBatch is one /v1/systemone/batch call of n requests of one
// noul question each over a fake backend answering after 5 ms, under
// --max-concurrency n: ms/batch against ideal-ms, one backend latency if
// the requests were asked concurrently, as the questions of one request
// are.
func BenchmarkBatch(b *testing.B) {
	const latency = 5 * time.Millisecond
	for _, n := range []int{1, 4} {
		b.Run(fmt.Sprintf("requests=%d/max-concurrency=%d", n, n), func(b *testing.B) {
			s := startBench(b, testkit.LLMBackendOptions{Latency: latency}, n)
			items := make([]string, n)
			for i := range items {
				items[i] = fmt.Sprintf(`"r%d": %s`, i, benchRequest(1))
			}
			req := []byte(`{"requests": {` + strings.Join(items, ", ") + `}}`)
			for range 3 {
				s.post(b, s.url+"/v1/systemone/batch", req)
			}
			b.ResetTimer()
			for range b.N {
				s.post(b, s.url+"/v1/systemone/batch", req)
			}
			b.StopTimer()
			b.ReportMetric(float64(latency.Milliseconds()), "ideal-ms")
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/batch")
		})
	}
}
