package router

import (
	"bufio"
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"
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
	h, err := readReplyHead(br)
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
