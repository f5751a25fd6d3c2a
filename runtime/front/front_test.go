package front_test

import (
	"bufio"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/vllm-sr/systemone/runtime/bodylimit"
	"github.com/vllm-sr/systemone/runtime/front"
)

// frontServer serves handle through a Front with the given deadlines.
func frontServer(t *testing.T, read, write time.Duration, handle func(*front.Served, *http.Request)) *httptest.Server {
	t.Helper()
	f := &front.Front{Metrics: front.NewMetrics("test"), IDs: front.NewRequestIDs(),
		Log: front.WithRequestIDs(slog.New(slog.NewTextHandler(io.Discard, nil))), ReadTimeout: read, WriteTimeout: write}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s, r := f.Begin(w, r, "test")
		defer f.Finish(s, r)
		handle(s, r)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// A client that stops reading an answer is cut off within the write
// timeout: the handler's write fails instead of holding on.
func TestWriteTimeoutCutsOffAStalledReader(t *testing.T) {
	failed := make(chan time.Duration, 1)
	srv := frontServer(t, time.Second, 300*time.Millisecond, func(w *front.Served, _ *http.Request) {
		start := time.Now()
		chunk := make([]byte, 1<<20)
		for range 64 {
			if _, err := w.Write(chunk); err != nil {
				failed <- time.Since(start)
				return
			}
		}
		failed <- -1
	})
	c, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprint(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n") // and never read
	select {
	case took := <-failed:
		if took < 0 || took > 3*time.Second {
			t.Fatalf("the write to a client that reads nothing ended after %v", took)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the write to a stalled reader was never cut off")
	}
}

// A stream whose writes keep coming is never cut, however long it runs:
// each write gets its own deadline.
func TestWriteTimeoutSparesAFlowingStream(t *testing.T) {
	srv := frontServer(t, time.Second, 200*time.Millisecond, func(w *front.Served, _ *http.Request) {
		for i := range 5 {
			fmt.Fprintf(w, "chunk %d\n", i)
			_ = http.NewResponseController(w).Flush()
			time.Sleep(150 * time.Millisecond)
		}
	})
	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || strings.Count(string(body), "chunk") != 5 {
		t.Fatalf("the stream: %v %q", err, body)
	}
	if resp.Header.Get("X-Request-Id") == "" || resp.Header.Get("X-Typesafe-Request-Id") != resp.Header.Get("X-Request-Id") {
		t.Errorf("id headers: %v", resp.Header)
	}
}

// The body-read deadline bounds a body that stalls, and is lifted once the
// body is read: a handler working past it keeps its context.
func TestReadTimeout(t *testing.T) {
	srv := frontServer(t, 300*time.Millisecond, time.Second, func(w *front.Served, r *http.Request) {
		if _, err := io.ReadAll(r.Body); err != nil {
			w.WriteHeader(http.StatusRequestTimeout)
			return
		}
		select {
		case <-time.After(700 * time.Millisecond):
			_, _ = io.WriteString(w, "done")
		case <-r.Context().Done():
			w.WriteHeader(http.StatusTeapot)
		}
	})
	resp, err := http.Post(srv.URL, "text/plain", strings.NewReader("whole body"))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(body) != "done" {
		t.Errorf("a handler working past the read timeout: %d %q", resp.StatusCode, body)
	}

	c, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprint(c, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nonly part")
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	stalled, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil || stalled.StatusCode != http.StatusRequestTimeout {
		t.Fatalf("a stalled body: %v %v", err, stalled)
	}
}

// A body that stalled past the read deadline is not lingered on: the
// client is not sending, so the refusal's lingering read
// (bodylimit.Linger) returns at once and the connection closes within
// about the read timeout, not bodylimit.LingerTime later.
func TestStalledBodyIsNotLingeredOn(t *testing.T) {
	const readTimeout = 300 * time.Millisecond
	srv := frontServer(t, readTimeout, time.Second, func(w *front.Served, r *http.Request) {
		if _, err := io.ReadAll(r.Body); err != nil {
			w.Header().Set("Connection", "close")
			w.WriteHeader(http.StatusRequestTimeout)
			bodylimit.Linger(w, r)
		}
	})
	c, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	start := time.Now()
	fmt.Fprint(c, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nonly part")
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.Copy(io.Discard, c); err != nil { // the answer, then the server's close
		t.Fatalf("the server did not close the connection: %v", err)
	}
	if took := time.Since(start); took > readTimeout+2*time.Second {
		t.Errorf("the stalled connection closed after %v, want about the read timeout (%v), not the lingering time (%v) more",
			took, readTimeout, bodylimit.LingerTime)
	}
}

// BenchmarkFront is the front's cost per request: Begin, a 200 answer,
// Finish with its metrics and one JSON access line into a LogWriter
// (httptest.ResponseRecorder's own allocations, and its refusal of
// deadlines, included).
func BenchmarkFront(b *testing.B) {
	logs := front.NewLogWriter(io.Discard)
	defer logs.Close()
	f := &front.Front{Metrics: front.NewMetrics("bench"), IDs: front.NewRequestIDs(),
		Log: front.WithRequestIDs(slog.New(slog.NewJSONHandler(logs, nil))), ReadTimeout: time.Second, WriteTimeout: time.Second}
	req := httptest.NewRequest(http.MethodPost, "/v1/systemone", strings.NewReader("{}"))
	body := []byte(`{"ok":true}`)
	b.ReportAllocs()
	for b.Loop() {
		w := httptest.NewRecorder()
		s, r := f.Begin(w, req, "bench")
		s.Endpoint, s.API = "/v1/systemone", "systemone"
		s.WriteHeader(http.StatusOK)
		_, _ = s.Write(body)
		f.Finish(s, r)
	}
}
