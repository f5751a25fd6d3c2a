package upstream

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

// replyHeadSeeds are reply heads and bodies of every framing, and
// malformed ones.
var replyHeadSeeds = []string{
	"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}",
	"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\n{\"a\r\n2\r\n\":\r\n2\r\n1}\r\n0\r\nX-Trailer: t\r\n\r\n",
	"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}",
	"HTTP/1.0 200 OK\r\n\r\n{\"until\":\"close\"}",
	"HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 2\r\n\r\n{}",
	"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 3\r\nretry-after-ms: 50\r\nContent-Length: 0\r\n\r\n",
	"HTTP/1.1 302 Found\r\nLocation: http://elsewhere.invalid/\r\nContent-Length: 5\r\n\r\nmoved",
	"HTTP/1.1 204 No Content\r\n\r\n",
	"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\n{}",
	"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}x",
	"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
	"HTTP/1.1 200 OK\r\nX: a\r\n folded\r\nContent-Length: 2\r\n\r\n{}",
	"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n{}",
	"HTTP/1.1 2000 OK\r\n\r\n",
	"HTTP/2.0 200 OK\r\n\r\n",
	"HTTP/1.1 200\r\nContent-Length: 0\r\n\r\n",
	"garbage\r\n\r\n",
	"",
}

// readWithHead reads one reply with readReplyHead and its body.
func readWithHead(raw string) (status int, body []byte, header http.Header, err error) {
	br := bufio.NewReader(strings.NewReader(raw))
	h, err := readReplyHead(br, nil)
	if err != nil {
		return 0, nil, nil, err
	}
	body, err = io.ReadAll(h.body(br, new(lengthBody)))
	return h.status, body, h.header, err
}

// readWithNetHTTP reads one reply as net/http's client does.
func readWithNetHTTP(raw string) (status int, body []byte, header http.Header, err error) {
	br := bufio.NewReader(strings.NewReader(raw))
	resp, err := http.ReadResponse(br, &http.Request{Method: http.MethodPost})
	for err == nil && resp.StatusCode < 200 && resp.StatusCode != http.StatusSwitchingProtocols {
		resp, err = http.ReadResponse(br, &http.Request{Method: http.MethodPost}) // as net/http's client skips 1xx
	}
	if err != nil {
		return 0, nil, nil, err
	}
	body, err = io.ReadAll(resp.Body)
	return resp.StatusCode, body, resp.Header, err
}

// TestReplyHeadReadsAsNetHTTP: every seed reply the Router's head reader
// accepts, net/http reads the same way (status, body, and for a reply
// that is not a success the headers the error mapping reads).
func TestReplyHeadReadsAsNetHTTP(t *testing.T) {
	for _, raw := range replyHeadSeeds {
		checkReplyHeadAgainstNetHTTP(t, raw)
	}
	if _, _, _, err := readWithHead(replyHeadSeeds[0]); err != nil {
		t.Fatalf("a plain reply is refused: %v", err)
	}
	for _, bad := range []int{9, 11, 12, 13, 14, 16, 17} { // conflicting lengths, folding, a cut body, bad status lines, empty
		if _, _, _, err := readWithHead(replyHeadSeeds[bad]); err == nil {
			t.Errorf("accepted %q", replyHeadSeeds[bad])
		}
	}
}

func checkReplyHeadAgainstNetHTTP(t *testing.T, raw string) {
	t.Helper()
	status, body, header, err := readWithHead(raw)
	if err != nil {
		return // refusing is always safe: the call fails as a malformed reply
	}
	wantStatus, wantBody, wantHeader, wantErr := readWithNetHTTP(raw)
	if wantErr != nil {
		t.Errorf("accepted what net/http refuses (%v): %q", wantErr, raw)
		return
	}
	if status != wantStatus || !bytes.Equal(body, wantBody) {
		t.Errorf("%q: got %d %q, net/http %d %q", raw, status, body, wantStatus, wantBody)
	}
	if status < 200 || status > 299 {
		for _, k := range []string{"Retry-After", "Retry-After-Ms", "Location", "Date"} {
			if header.Get(k) != wantHeader.Get(k) {
				t.Errorf("%q: header %s %q, net/http %q", raw, k, header.Get(k), wantHeader.Get(k))
			}
		}
	}
}

// FuzzReplyHead: whatever an upstream sends, the head reader never
// panics, and what it accepts net/http reads the same.
func FuzzReplyHead(f *testing.F) {
	for _, s := range replyHeadSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		checkReplyHeadAgainstNetHTTP(t, raw)
	})
}

// framingSeeds add to replyHeadSeeds replies followed by bytes no call
// asked for, and the framings a connection must not be kept after.
var framingSeeds = []string{
	"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}",
	"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}garbage",
	"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\nHTTP/1.1 200 OK\r\n\r\n",
	"HTTP/1.1 200 OK\r\nContent-Length: 40\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
	"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\n{}",
	"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
	"HTTP/1.1 204 No Content\r\nContent-Length: 2\r\n\r\n{}",
	"HTTP/1.1 100 Continue\r\nContent-Length: 2\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}",
	"HTTP/1.1 101 Switching Protocols\r\nUpgrade: h2c\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}",
	"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n",
}

// bytesConn is a connection whose peer sent exactly the bytes of r, and
// then nothing more: what is left in r is what would arrive next.
type bytesConn struct{ r *strings.Reader }

func (c *bytesConn) Read(p []byte) (int, error)       { return c.r.Read(p) }
func (c *bytesConn) Write(p []byte) (int, error)      { return len(p), nil }
func (c *bytesConn) Close() error                     { return nil }
func (c *bytesConn) LocalAddr() net.Addr              { return &net.TCPAddr{} }
func (c *bytesConn) RemoteAddr() net.Addr             { return &net.TCPAddr{} }
func (c *bytesConn) SetDeadline(time.Time) error      { return nil }
func (c *bytesConn) SetReadDeadline(time.Time) error  { return nil }
func (c *bytesConn) SetWriteDeadline(time.Time) error { return nil }

// checkFraming: after reading one reply from raw, the connection is kept
// only when it is positioned exactly at the reply's end, with nothing
// after it (raw is all the upstream sent, so any byte left is one no call
// asked for), and net/http reads the same reply ending at the same place
// on a connection it would keep too.
func checkFraming(t *testing.T, raw string) {
	t.Helper()
	peer := &bytesConn{r: strings.NewReader(raw)}
	conn := newUpstreamConn(peer)
	reply, keep := readReply(context.Background(), conn, nil)
	if !keep {
		return // closing the connection is always safe
	}
	if left := peer.r.Len() + conn.br.Buffered(); left > 0 {
		t.Fatalf("kept a connection with %d bytes after the reply: %q", left, raw)
	}
	br := bufio.NewReader(strings.NewReader(raw))
	resp, err := http.ReadResponse(br, &http.Request{Method: http.MethodPost})
	for err == nil && resp.StatusCode < 200 {
		resp, err = http.ReadResponse(br, &http.Request{Method: http.MethodPost})
	}
	if err != nil {
		t.Fatalf("kept the connection after a reply net/http refuses (%v): %q", err, raw)
	}
	body, err := io.ReadAll(resp.Body)
	switch {
	case err != nil:
		t.Fatalf("kept the connection after a body net/http cannot read (%v): %q", err, raw)
	case resp.Close || resp.ContentLength < 0 && len(resp.TransferEncoding) == 0:
		t.Fatalf("kept a connection net/http would close: %q", raw)
	case br.Buffered() > 0:
		t.Fatalf("net/http ends the reply %d bytes before the end, where the Router kept reading: %q", br.Buffered(), raw)
	case resp.StatusCode != reply.Status || !bytes.Equal(body, reply.Body):
		t.Fatalf("%q: got %d %q, net/http %d %q", raw, reply.Status, reply.Body, resp.StatusCode, body)
	}
}

// TestFramingSeedsKeepOnlyAtTheEnd runs checkFraming on every seed, and
// checks the plain ones are kept (so the property is not met by closing
// every connection).
func TestFramingSeedsKeepOnlyAtTheEnd(t *testing.T) {
	for _, raw := range append(slices.Clone(replyHeadSeeds), framingSeeds...) {
		checkFraming(t, raw)
	}
	for _, raw := range replyHeadSeeds[:2] {
		if _, keep := readReply(context.Background(), newUpstreamConn(&bytesConn{r: strings.NewReader(raw)}), nil); !keep {
			t.Errorf("a plain reply's connection is not kept: %q", raw)
		}
	}
}

// FuzzReplyFraming: whatever an upstream sends, reading one reply leaves
// the connection closed or exactly at the reply's end (checkFraming).
func FuzzReplyFraming(f *testing.F) {
	for _, s := range append(slices.Clone(replyHeadSeeds), framingSeeds...) {
		f.Add(s)
	}
	f.Fuzz(checkFraming)
}
