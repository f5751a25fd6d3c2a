package testkit

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/front"
)

func slowAttacks() []slowAttack {
	header := func(d front.Timeouts) time.Duration { return d.ReadHeaderTimeout }
	return []slowAttack{
		{
			// Admission is counted after the body is read: 64 stalled
			// bodies (vllm-srun's default bound on requests in flight)
			// hold no slot, and each is answered 400 when the body-read
			// deadline passes.
			name: "stalled bodies", conns: 64,
			bound: func(d front.Timeouts) time.Duration { return d.ReadTimeout },
			open: func(c *slowConn) error {
				_, err := fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s",
					vocab.PathSystemone, len(SlowGoodRequest), SlowGoodRequest[:len(SlowGoodRequest)/2])
				return err
			},
			check: func(c *slowConn) error {
				resp, err := http.ReadResponse(c.r, nil)
				if err != nil {
					return fmt.Errorf("no answer to a stalled body: %w", err)
				}
				if resp.StatusCode != http.StatusBadRequest {
					return fmt.Errorf("a stalled body was answered %d, want 400", resp.StatusCode)
				}
				return readToEnd(c)
			},
		},
		{
			// Headers trickled a byte at a time, never ending.
			name: "slowloris headers", conns: 64, bound: header,
			open: func(c *slowConn) error {
				_, err := fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: x\r\nX-Slow: ", vocab.PathSystemone)
				return err
			},
			poke: func(c *slowConn) error {
				_ = c.SetWriteDeadline(time.Now().Add(slowPokeEvery))
				_, err := io.WriteString(c, "a")
				return err
			},
			check: readToEnd,
		},
		{
			// Connections that never send a byte.
			name: "silent connections", conns: 64, bound: header,
			open:  func(*slowConn) error { return nil },
			check: readToEnd,
		},
		{
			// Clients that ask for a multi-MiB answer: one never reads
			// it, the other reads it a few bytes at a time.
			name: "slow readers", conns: 2, big: true,
			bound: func(d front.Timeouts) time.Duration { return d.WriteTimeout },
			open: func(c *slowConn) error {
				resp, err := AskBigAnswer(c, c.r)
				c.resp = resp
				return err
			},
			poke: func(c *slowConn) error {
				if c.i%2 == 0 {
					return nil
				}
				_ = c.SetReadDeadline(time.Now().Add(slowPokeEvery / 5))
				_, err := c.resp.Body.Read(make([]byte, 512))
				return err
			},
			check: func(c *slowConn) error {
				n, err := io.Copy(io.Discard, c.resp.Body)
				switch {
				case err == nil:
					return fmt.Errorf("the whole answer (%d bytes) arrived: it fit in the socket buffers, so nothing was slow", c.resp.ContentLength)
				case isTimeout(err):
					return fmt.Errorf("the server still holds the connection after %d bytes", n)
				}
				return nil // cut off: unexpected EOF or reset
			},
		},
		{
			// Keep-alive connections idle after one request.
			name: "idle keep-alive connections", conns: SlowIdleConns,
			bound: func(d front.Timeouts) time.Duration { return d.IdleTimeout },
			open: func(c *slowConn) error {
				if _, err := fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: x\r\n\r\n", vocab.PathHealth); err != nil {
					return err
				}
				resp, err := http.ReadResponse(c.r, nil)
				if err != nil {
					return err
				}
				defer resp.Body.Close()
				if _, err := io.Copy(io.Discard, resp.Body); err != nil {
					return err
				}
				if resp.StatusCode != http.StatusOK || resp.Close {
					return fmt.Errorf("the health probe was answered %d (close %v), want a kept-alive 200", resp.StatusCode, resp.Close)
				}
				return nil
			},
			check: readToEnd,
		},
	}
}

// AskBigAnswer sends SlowBigRequest (gzipped) on c, a connection to a
// server's System One listener, and reads the head of its answer from r,
// which reads c: the rest, several MiB, is for the caller to read or
// not. The answer must be 200 with over 4 MiB.
func AskBigAnswer(c net.Conn, r *bufio.Reader) (*http.Response, error) {
	body := slowBigGzip()
	if _, err := fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: %d\r\n\r\n",
		vocab.PathSystemone, len(body)); err != nil {
		return nil, err
	}
	if _, err := c.Write(body); err != nil {
		return nil, err
	}
	resp, err := http.ReadResponse(r, nil)
	if err != nil {
		return nil, fmt.Errorf("the big request's answer: %w", err)
	}
	if resp.StatusCode != http.StatusOK || resp.ContentLength < 4<<20 {
		return nil, fmt.Errorf("the big request was answered %d with %d bytes; want 200 with over 4 MiB", resp.StatusCode, resp.ContentLength)
	}
	return resp, nil
}

// readToEnd reads what is left on c and wants the server's close (EOF or
// a reset), not a timeout.
func readToEnd(c *slowConn) error {
	n, err := io.Copy(io.Discard, c.r)
	if isTimeout(err) {
		return fmt.Errorf("the server still holds the connection (%d more bytes read)", n)
	}
	return nil
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// SlowBigRequest is a request whose answer is about 5 MiB, valid in
// vllm-sr/5.0 and vllm-sr/4.0: 2000 choice questions of 32 options with
// long names, every one of which the answer's probabilities name. Its
// answer is larger than loopback's socket buffers (about 3 MiB on the
// server's side, 4 KiB on the suite's small-window side), so a client
// that does not read it holds the server's write.
var SlowBigRequest = sync.OnceValue(func() []byte {
	var b bytes.Buffer
	b.WriteString(`{"model":"` + HostileModel + `","state":"Which team should take this ticket?","questions":{`)
	for q := range 2000 {
		if q > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"question_%050d":{"type":"choice","criteria":{`, q)
		for o := range 32 {
			if o > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `"option_%02d_%s":null`, o, strings.Repeat("x", 50))
		}
		b.WriteString(`}}`)
	}
	b.WriteString(`}}`)
	return b.Bytes()
})

// slowBigGzip is SlowBigRequest gzipped: a few tens of KiB to send, so
// the body-read deadline measures the server, not a 6 MiB upload on a
// busy machine.
var slowBigGzip = sync.OnceValue(func() []byte { return gzipped(SlowBigRequest(), gzip.DefaultCompression) })
