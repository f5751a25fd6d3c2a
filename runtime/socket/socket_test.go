package socket

import (
	"bytes"
	"errors"
	"io"
	"net"
	"os"
	"runtime"
	"syscall"
	"testing"
	"time"
)

// socketPair returns the two ends of a loopback TCP connection: the one
// Listen accepted, and the dialled one, raw when raw is set.
func socketPair(t *testing.T, raw bool) (accepted, dialled net.Conn) {
	t.Helper()
	ln, err := Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	got := make(chan net.Conn, 1)
	go func() {
		c, _ := ln.Accept()
		got <- c
	}()
	d, err := net.DialTimeout("tcp", ln.Addr().String(), 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if raw {
		d = Raw(d)
	}
	select {
	case a := <-got:
		if a == nil {
			t.Fatal("accept failed")
		}
		t.Cleanup(func() { a.Close(); d.Close() })
		return a, d
	case <-time.After(5 * time.Second):
		t.Fatal("no connection accepted")
	}
	return nil, nil
}

func TestRawSocketIsUsedOnLinux(t *testing.T) {
	a, d := socketPair(t, true)
	_, accRaw := a.(vectoredWriter)
	_, dialRaw := d.(vectoredWriter)
	if runtime.GOOS == "linux" && (!accRaw || !dialRaw) {
		t.Fatalf("on linux, Listen's and Raw's conns read and write raw: got %T and %T", a, d)
	}
}

// TestRawSocketCarriesBytes sends more than the socket buffers hold, so
// writes wait for room and reads return parts, in both directions at once.
func TestRawSocketCarriesBytes(t *testing.T) {
	a, d := socketPair(t, true)
	payload := bytes.Repeat([]byte("0123456789abcdefghijklmnopqrstuv"), 256<<10) // 8 MiB
	_ = a.SetDeadline(time.Now().Add(30 * time.Second))
	_ = d.SetDeadline(time.Now().Add(30 * time.Second))
	sent := make(chan error, 2)
	go func() { _, err := d.Write(payload); sent <- err }()
	go func() { sent <- WriteBuffers(a, payload[:3<<20], payload[3<<20:]) }()
	for _, c := range []net.Conn{a, d} {
		got := make([]byte, len(payload))
		if _, err := io.ReadFull(c, got); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, payload) {
			t.Fatal("bytes read differ from bytes written")
		}
	}
	for range 2 {
		if err := <-sent; err != nil {
			t.Fatal(err)
		}
	}
}

// TestRawSocketErrorsAreNets checks that each error a raw socket returns
// looks as net's own conn's does to a caller (net/http looks at the Op
// of an OpError, and at timeouts): a read deadline, a write deadline
// against a peer that reads nothing, the peer's close, a reset, and a
// read after Close.
func TestRawSocketErrorsAreNets(t *testing.T) {
	type outcome struct {
		op      string
		timeout bool
		is      []error
	}
	check := func(t *testing.T, err error, want outcome) {
		t.Helper()
		if want.op == "" {
			if err != io.EOF {
				t.Fatalf("got %v, want io.EOF", err)
			}
			return
		}
		var oe *net.OpError
		if !errors.As(err, &oe) || oe.Op != want.op {
			t.Fatalf("got %#v, want an OpError of op %q", err, want.op)
		}
		if _, nested := oe.Err.(*net.OpError); nested {
			t.Fatalf("%v: an OpError inside an OpError (net's conns wrap once)", err)
		}
		var ne net.Error
		if !errors.As(err, &ne) || ne.Timeout() != want.timeout {
			t.Fatalf("%v: a net.Error %v, want one whose Timeout is %v", err, ne != nil, want.timeout)
		}
		for _, target := range want.is {
			if !errors.Is(err, target) {
				t.Fatalf("%v is not %v", err, target)
			}
		}
	}
	for _, raw := range []bool{false, true} {
		name := map[bool]string{false: "net", true: "raw"}[raw]
		t.Run(name+"/read-deadline", func(t *testing.T) {
			_, d := socketPair(t, raw)
			_ = d.SetReadDeadline(time.Now().Add(20 * time.Millisecond))
			_, err := d.Read(make([]byte, 16))
			check(t, err, outcome{op: "read", timeout: true, is: []error{os.ErrDeadlineExceeded}})
		})
		t.Run(name+"/write-deadline", func(t *testing.T) {
			_, d := socketPair(t, raw)
			_ = d.SetWriteDeadline(time.Now().Add(100 * time.Millisecond))
			_, err := d.Write(make([]byte, 64<<20)) // more than the buffers of both ends
			check(t, err, outcome{op: "write", timeout: true, is: []error{os.ErrDeadlineExceeded}})
		})
		t.Run(name+"/peer-closed", func(t *testing.T) {
			a, d := socketPair(t, raw)
			a.Close()
			_ = d.SetReadDeadline(time.Now().Add(5 * time.Second))
			_, err := d.Read(make([]byte, 16))
			check(t, err, outcome{})
		})
		t.Run(name+"/reset", func(t *testing.T) {
			a, d := socketPair(t, raw)
			_ = a.(interface{ SetLinger(int) error }).SetLinger(0) // close sends RST
			a.Close()
			_ = d.SetReadDeadline(time.Now().Add(5 * time.Second))
			_, err := d.Read(make([]byte, 16))
			check(t, err, outcome{op: "read", is: []error{syscall.ECONNRESET}})
		})
		t.Run(name+"/write-after-reset", func(t *testing.T) { // EPIPE or ECONNRESET, never SIGPIPE
			a, d := socketPair(t, raw)
			_ = a.(interface{ SetLinger(int) error }).SetLinger(0)
			a.Close()
			_ = d.SetWriteDeadline(time.Now().Add(5 * time.Second))
			var err error
			for i := 0; i < 100 && err == nil; i++ { // the first writes may land before the reset does
				_, err = d.Write([]byte("after the peer reset"))
				time.Sleep(time.Millisecond)
			}
			if !errors.Is(err, syscall.EPIPE) && !errors.Is(err, syscall.ECONNRESET) {
				t.Fatalf("writing after the peer's reset: %v, want EPIPE or ECONNRESET", err)
			}
			check(t, err, outcome{op: "write"})
		})
		t.Run(name+"/closed", func(t *testing.T) {
			_, d := socketPair(t, raw)
			d.Close()
			_, err := d.Read(make([]byte, 16))
			check(t, err, outcome{op: "read", is: []error{net.ErrClosed}})
		})
	}
}

// NothingArrived tells a quiet socket from one with a byte or an end of
// stream waiting, on raw and on net's own connections, without taking
// the byte; a connection with no socket is never quiet.
func TestNothingArrived(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no peek on this system: NothingArrived is always false")
	}
	for _, raw := range []bool{true, false} {
		a, d := socketPair(t, raw)
		if !NothingArrived(d) {
			t.Fatalf("raw %v: a fresh connection is not quiet", raw)
		}
		if _, err := a.Write([]byte("x")); err != nil {
			t.Fatal(err)
		}
		waitUntil(t, func() bool { return !NothingArrived(d) })
		got := make([]byte, 1)
		if _, err := io.ReadFull(d, got); err != nil || got[0] != 'x' {
			t.Fatalf("raw %v: the byte peeked at is gone: %q %v", raw, got, err)
		}
		if !NothingArrived(d) {
			t.Fatalf("raw %v: not quiet once the byte was read", raw)
		}
		a.Close()
		waitUntil(t, func() bool { return !NothingArrived(d) })
	}
	p, q := net.Pipe()
	defer p.Close()
	defer q.Close()
	if NothingArrived(p) {
		t.Error("a pipe has no socket to ask, and must not be called quiet")
	}
}

// Arrived tells a byte waiting from an end of stream (the Router counts
// the first as stray bytes of an upstream, the second as an idle close),
// on raw and on net's own connections; a byte waiting before the end of
// stream is still a byte.
func TestArrivedTellsBytesFromAnEnd(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no peek on this system: Arrived is always unknown")
	}
	for _, raw := range []bool{true, false} {
		a, d := socketPair(t, raw)
		if got := Arrived(d); got != ArrivedNothing {
			t.Fatalf("raw %v: a fresh connection: %v, want nothing", raw, got)
		}
		if _, err := a.Write([]byte("x")); err != nil {
			t.Fatal(err)
		}
		a.Close()
		waitUntil(t, func() bool { return Arrived(d) != ArrivedNothing })
		if got := Arrived(d); got != ArrivedBytes {
			t.Fatalf("raw %v: a byte then the end: %v, want bytes", raw, got)
		}
		if _, err := io.ReadFull(d, make([]byte, 1)); err != nil {
			t.Fatal(err)
		}
		if got := Arrived(d); got != ArrivedEnd {
			t.Errorf("raw %v: the byte read, then the end: %v, want end", raw, got)
		}
	}
	p, q := net.Pipe()
	defer p.Close()
	defer q.Close()
	if got := Arrived(p); got != ArrivedUnknown {
		t.Errorf("a pipe: %v, want unknown", got)
	}
}

// waitUntil polls cond for up to 2 s: a loopback byte or FIN arrives in
// microseconds, but not synchronously.
func waitUntil(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatal("the condition did not hold within 2 s")
}
