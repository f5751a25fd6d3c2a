package bodylimit

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestLingerLetsAWholeBodyClientReadThe413: a client that writes a whole
// 33 MiB body before it reads (as Python's http.client does) gets the
// 413, with Content-Length and with chunks, instead of a connection reset
// mid-write: the server answers early, then reads the rest and closes.
func TestLingerLetsAWholeBodyClientReadThe413(t *testing.T) {
	const limit = 32 << 20
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := ReadDecoded(w, r, limit); err != nil {
			w.WriteHeader(http.StatusRequestEntityTooLarge)
			Linger(w, r)
			return
		}
		w.WriteHeader(http.StatusOK)
	}))
	defer srv.Close()
	for _, chunked := range []bool{false, true} {
		status, err := sendWholeThenRead(srv.Listener.Addr().String(), limit+1<<20, chunked)
		if err != nil || status != "HTTP/1.1 413 Request Entity Too Large" {
			t.Fatalf("chunked %v: status %q, %v", chunked, status, err)
		}
	}
}

// sendWholeThenRead writes a request with an n-byte body to addr, all of
// it, then reads the status line; every step within 10 s.
func sendWholeThenRead(addr string, n int, chunked bool) (string, error) {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		return "", err
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	w := bufio.NewWriterSize(conn, 1<<20)
	head := fmt.Sprintf("POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", n)
	if chunked {
		head = "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
	}
	_, _ = io.WriteString(w, head)
	block := bytes.Repeat([]byte("x"), 1<<20)
	for sent := 0; sent < n; sent += len(block) {
		part := block[:min(len(block), n-sent)]
		if chunked {
			fmt.Fprintf(w, "%x\r\n", len(part))
		}
		if _, err := w.Write(part); err != nil {
			return "", fmt.Errorf("writing the body at %d bytes: %w", sent, err)
		}
		if chunked {
			_, _ = io.WriteString(w, "\r\n")
		}
	}
	if chunked {
		_, _ = io.WriteString(w, "0\r\n\r\n")
	}
	if err := w.Flush(); err != nil {
		return "", fmt.Errorf("writing the body: %w", err)
	}
	line, err := bufio.NewReader(conn).ReadString('\n')
	return strings.TrimSpace(line), err
}

// TestLingerIsBounded: a client that keeps sending past LingerBytes, or
// stops sending, is cut off; Linger returns within LingerTime.
func TestLingerIsBounded(t *testing.T) {
	defer func(d time.Duration) { lingerTime = d }(lingerTime)
	lingerTime = time.Second
	done := make(chan time.Duration, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = Read(w, r, 16)
		w.WriteHeader(http.StatusRequestEntityTooLarge)
		start := time.Now()
		Linger(w, r)
		done <- time.Since(start)
	}))
	defer srv.Close()
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// A declared body it never finishes sending.
	_, _ = io.WriteString(conn, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n0123456789abcdefghij")
	select {
	case took := <-done:
		if took < lingerTime/2 {
			t.Fatalf("Linger returned after %v on a stalled body, want about %v", took, lingerTime)
		}
	case <-time.After(lingerTime + 5*time.Second):
		t.Fatal("Linger did not return on a stalled body")
	}
}
