package bodylimit

import (
	"bytes"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestReadWithinLimit(t *testing.T) {
	for _, body := range []string{"", "{}", strings.Repeat("x", 64)} {
		r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
		got, err := Read(httptest.NewRecorder(), r, 64)
		if err != nil || string(got) != body {
			t.Fatalf("%d bytes: got %d bytes, %v", len(body), len(got), err)
		}
	}
}

func TestReadRefusesByContentLengthWithoutReading(t *testing.T) {
	src := &countingReader{r: strings.NewReader(strings.Repeat("x", 100))}
	r := httptest.NewRequest(http.MethodPost, "/", src)
	r.ContentLength = 100
	_, err := Read(httptest.NewRecorder(), r, 64)
	var tl *TooLargeError
	if !errors.As(err, &tl) || tl.Limit != 64 {
		t.Fatalf("err %v, want a TooLargeError with limit 64", err)
	}
	if n := src.n.Load(); n != 0 {
		t.Fatalf("read %d bytes of a body whose Content-Length is over the limit", n)
	}
}

func TestReadStopsOnePastTheLimit(t *testing.T) {
	// Unknown length (chunked), and a Content-Length that lies low.
	for _, declared := range []int64{-1, 10} {
		src := &countingReader{r: strings.NewReader(strings.Repeat("x", 1<<20))}
		r := httptest.NewRequest(http.MethodPost, "/", src)
		r.ContentLength = declared
		_, err := Read(httptest.NewRecorder(), r, 64)
		var tl *TooLargeError
		if !errors.As(err, &tl) {
			t.Fatalf("declared %d: err %v, want a TooLargeError", declared, err)
		}
		// What matters is that reading stops near the limit (limit+1
		// bytes), not after the whole body.
		if n := src.n.Load(); n > 4096 {
			t.Fatalf("declared %d: read %d bytes for a 64-byte limit", declared, n)
		}
	}
}

func TestReadPassesOtherErrors(t *testing.T) {
	boom := errors.New("boom")
	r := httptest.NewRequest(http.MethodPost, "/", io.MultiReader(strings.NewReader("ab"), errReader{boom}))
	r.ContentLength = -1
	_, err := Read(httptest.NewRecorder(), r, 64)
	var tl *TooLargeError
	if !errors.Is(err, boom) || errors.As(err, &tl) {
		t.Fatalf("err %v, want the read error", err)
	}
	if _, err := Read(httptest.NewRecorder(), r, -1); err == nil {
		t.Fatal("a negative limit is accepted")
	}
}

// TestServerAnswersBeforeTheBodyEnds: over a real connection, a chunked
// body past the limit is answered at once, with Connection: close, while
// the client is still sending: the server does not wait for the body.
// Both readers, and through a wrapping ResponseWriter, which must be
// unwrapped for MaxBytesReader to reach the connection.
func TestServerAnswersBeforeTheBodyEnds(t *testing.T) {
	for _, rd := range readers {
		for _, wrapped := range []bool{false, true} {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if wrapped {
					w = unwrapper{w}
				}
				if _, err := rd.read(w, r, 1024); err != nil {
					w.WriteHeader(http.StatusRequestEntityTooLarge)
					return
				}
				w.WriteHeader(http.StatusOK)
			}))
			reply := unfinishedChunkedExchange(t, srv.Listener.Addr().String())
			srv.Close()
			if !bytes.HasPrefix(reply, []byte("HTTP/1.1 413")) || !bytes.Contains(reply, []byte("Connection: close")) {
				t.Fatalf("%s, wrapped %v: reply %q", rd.name, wrapped, reply)
			}
		}
	}
}

// unfinishedChunkedExchange sends 2 KiB of chunks and never the last
// chunk, and returns the reply head, which must come anyway.
func unfinishedChunkedExchange(t *testing.T, addr string) []byte {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(5 * time.Second))
	req := "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n800\r\n" + strings.Repeat("y", 0x800) + "\r\n"
	if _, err := io.WriteString(conn, req); err != nil {
		t.Fatal(err)
	}
	var reply []byte
	buf := make([]byte, 512)
	for !bytes.Contains(reply, []byte("\r\n\r\n")) {
		n, err := conn.Read(buf)
		if err != nil {
			t.Fatalf("no reply while the body is unfinished: %v (%q)", err, reply)
		}
		reply = append(reply, buf[:n]...)
	}
	return reply
}

// unwrapper stands for a metrics or logging wrapper around the server's
// ResponseWriter; it hides http.ResponseController's methods.
type unwrapper struct{ w http.ResponseWriter }

func (u unwrapper) Header() http.Header         { return u.w.Header() }
func (u unwrapper) Write(b []byte) (int, error) { return u.w.Write(b) }
func (u unwrapper) WriteHeader(status int)      { u.w.WriteHeader(status) }
func (u unwrapper) Unwrap() http.ResponseWriter { return u.w }

type countingReader struct {
	r io.Reader
	n atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }
