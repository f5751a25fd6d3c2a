package srun_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/vllm-sr/systemone/runtime/srun"
)

// tryIt is the seed's "Try it" body, byte for byte: it names no model.
const tryIt = `{
"state": "Our export button fails with a 500 since this morning. Open a ticket.",
"questions": {"urgent": {"type": "noul",
"instructions": "Does the user report a problem that blocks their work?"}}
}`

// urgent is the same request naming the served model, as every standard
// client sends it.
const urgent = `{"model": "vllm-sr/vela3-fast",
"state": "Our export button fails with a 500 since this morning. Open a ticket.",
"questions": {"urgent": {"type": "noul",
"instructions": "Does the user report a problem that blocks their work?"}}
}`

// A Content-Length above 32 MiB is refused with 413 before the body is
// sent: the test sends the headers only and gets its answer.
func TestTooLargeIsRefusedBeforeTheBodyIsSent(t *testing.T) {
	s := start(t, srun.Config{})
	conn, err := net.DialTimeout("tcp", s.addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(5 * time.Second))
	fmt.Fprintf(conn, "POST /v1/systemone HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", 33<<20)
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer before the body was sent: %v", err)
	}
	defer resp.Body.Close()
	r := readReply(t, resp).wantError(t, http.StatusRequestEntityTooLarge, "request_too_large")
	if r.num("limit") != float64(srun.BodyLimit) || srun.BodyLimit != 32<<20 {
		t.Errorf("limit %v, want %d", r.at("limit"), 32<<20)
	}
	// The same reason as the Router's (router's testBodyLimit).
	if r.at("reason") != "body_too_large" {
		t.Errorf("reason %v, want body_too_large", r.at("reason"))
	}
}

// A chunked body (no Content-Length) that crosses the limit is cut off
// at the limit and refused with 413.
func TestChunkedBodyCrossingTheLimit(t *testing.T) {
	s := start(t, srun.Config{})
	// A valid JSON prefix followed by padding, sent chunked.
	body := io.MultiReader(strings.NewReader(`{"state": "`), &repeatReader{b: 'a', n: srun.BodyLimit})
	req, _ := http.NewRequest(http.MethodPost, s.url+"/v1/systemone", body)
	req.ContentLength = -1
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	readReply(t, resp).wantError(t, http.StatusRequestEntityTooLarge, "request_too_large")
}

// A body exactly at the limit is read (and refused for what it is, not
// for its size).
func TestBodyAtTheLimitIsRead(t *testing.T) {
	s := start(t, srun.Config{})
	pad := int(srun.BodyLimit) - len(urgent)
	body := urgent[:len(urgent)-1] + strings.Repeat(" ", pad) + "}"
	if int64(len(body)) != srun.BodyLimit {
		t.Fatalf("body is %d bytes", len(body))
	}
	r := s.post("/v1/systemone", body).want(t, http.StatusOK)
	if r.str("answers", "urgent", "type") != "noul" {
		t.Errorf("got %s", r.body)
	}
}

// A gzip body is accepted; the limit applies to its decoded size, so a
// small compressed body that inflates past 32 MiB is 413.
func TestGzipBodies(t *testing.T) {
	s := start(t, srun.Config{})
	r := s.do(http.MethodPost, "/v1/systemone", gzipped(t, []byte(urgent)),
		http.Header{"Content-Encoding": {"gzip"}, "Content-Type": {"application/json"}}).want(t, http.StatusOK)
	if r.str("answers", "urgent", "type") != "noul" {
		t.Errorf("got %s", r.body)
	}

	bomb := urgent[:len(urgent)-1] + strings.Repeat(" ", int(srun.BodyLimit)) + "}"
	packed := gzipped(t, []byte(bomb))
	if len(packed) > 1<<20 {
		t.Fatalf("the compressed body is %d bytes", len(packed))
	}
	s.do(http.MethodPost, "/v1/systemone", packed,
		http.Header{"Content-Encoding": {"gzip"}}).wantError(t, http.StatusRequestEntityTooLarge, "request_too_large")

	s.do(http.MethodPost, "/v1/systemone", []byte(urgent),
		http.Header{"Content-Encoding": {"gzip"}}).wantError(t, http.StatusBadRequest, "invalid_request")
	s.do(http.MethodPost, "/v1/systemone", []byte(urgent),
		http.Header{"Content-Encoding": {"br"}}).wantError(t, http.StatusBadRequest, "invalid_request")
}

func gzipped(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if _, err := zw.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// repeatReader yields n copies of b.
type repeatReader struct {
	b byte
	n int64
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.n <= 0 {
		return 0, io.EOF
	}
	k := min(int64(len(p)), r.n)
	for i := range k {
		p[i] = r.b
	}
	r.n -= k
	return int(k), nil
}
