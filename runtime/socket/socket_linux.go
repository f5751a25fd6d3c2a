package socket

import (
	"io"
	"net"
	"os"
	"sync"
	"syscall"
	"unsafe"
)

// Raw returns the TCP connection c with its reads and writes made
// as raw system calls on its non-blocking socket, waiting in Go's network
// poller as net does; anything but a *net.TCPConn is returned as it is.
// Everything else (deadlines, close, addresses, CloseWrite) is c's own.
//
// Why: net's reads and writes enter the kernel through syscall.Syscall,
// whose entersyscall lets the scheduler take the goroutine's P away while
// the call lasts and, when the process was idle, wakes the runtime's
// monitor thread (sysmon), which then polls every 20 µs for a
// millisecond. On a proxy that idles between requests, that monitor and
// the thread wake-ups around it were about a fifth of its CPU (perf of
// the Router under BenchmarkRouterCost, docs/performance.md). A read or
// write of a non-blocking socket never blocks, the case syscall.RawSyscall
// is for (golang/go#19563); errors are wrapped as net's own, so callers
// that look at them (net/http's "read" OpError, timeouts) see no
// difference.
func Raw(c net.Conn) net.Conn {
	tcp, ok := c.(*net.TCPConn)
	if !ok {
		return c
	}
	raw, err := tcp.SyscallConn()
	if err != nil {
		return c
	}
	rc := &rawConn{TCPConn: tcp, raw: raw}
	rc.readFn, rc.writeFn = rc.readOnce, rc.writeAll
	return rc
}

// rawConn does one read and one write at a time, as net's conns do (its
// poller serialises them); each keeps its arguments and results in the
// conn, and hands the poller a callback bound once, so that a call
// allocates nothing.
type rawConn struct {
	*net.TCPConn
	raw             syscall.RawConn
	readMu, writeMu sync.Mutex
	rd, wr          rawCall
	readFn, writeFn func(fd uintptr) (done bool)
}

// rawCall is a read into a, or a write of a then b, and its outcome.
type rawCall struct {
	a, b  []byte
	n     int
	errno syscall.Errno
	iov   [2]syscall.Iovec
}

func (c *rawConn) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	c.readMu.Lock()
	defer c.readMu.Unlock()
	c.rd = rawCall{a: p}
	err := c.raw.Read(c.readFn)
	n, errno := c.rd.n, c.rd.errno
	c.rd = rawCall{} // keeps no reference to p
	switch {
	case err != nil:
		return 0, c.opError("read", err)
	case errno != 0:
		return 0, c.opError("read", os.NewSyscallError("read", errno))
	case n == 0:
		return 0, io.EOF
	}
	return n, nil
}

// readOnce reads once into c.rd.a; false (EAGAIN) has the poller wait
// until the socket is readable and call it again.
func (c *rawConn) readOnce(fd uintptr) bool {
	p := c.rd.a
	for {
		r, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
		if e != syscall.EINTR { // a signal: call again, not wait (the poller reports edges)
			c.rd.n, c.rd.errno = int(r), e
			return e != syscall.EAGAIN
		}
	}
}

func (c *rawConn) Write(p []byte) (int, error) {
	return c.writev(p, nil)
}

// writev writes a then b, with one writev where the socket takes both,
// until both are written or it fails, as net's Write does.
func (c *rawConn) writev(a, b []byte) (int, error) {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	c.wr = rawCall{a: a, b: b}
	err := c.raw.Write(c.writeFn)
	n, errno := c.wr.n, c.wr.errno
	c.wr = rawCall{}
	switch {
	case err != nil:
		return n, c.opError("write", err)
	case errno != 0:
		return n, c.opError("write", os.NewSyscallError("write", errno))
	}
	return n, nil
}

// writeAll writes what is left of c.wr; false (EAGAIN) has the poller
// wait until the socket has room and call it again.
func (c *rawConn) writeAll(fd uintptr) bool {
	w := &c.wr
	for len(w.a)+len(w.b) > 0 {
		k := 0
		for _, part := range [2][]byte{w.a, w.b} {
			if len(part) > 0 {
				w.iov[k].Base = &part[0]
				w.iov[k].SetLen(len(part))
				k++
			}
		}
		r, _, e := syscall.RawSyscall(syscall.SYS_WRITEV, fd, uintptr(unsafe.Pointer(&w.iov[0])), uintptr(k))
		switch {
		case e == syscall.EINTR:
			continue
		case e == syscall.EAGAIN:
			return false
		case e != 0:
			w.errno = e
			return true
		}
		n := int(r)
		w.n += n
		skip := min(n, len(w.a))
		w.a, w.b = w.a[skip:], w.b[n-skip:]
	}
	return true
}

// opError wraps err as net's conn does: a RawConn's own error (a deadline,
// a closed connection) is an OpError of op "raw-read" or "raw-write",
// whose inner error is what net's Read and Write wrap.
func (c *rawConn) opError(op string, err error) error {
	if oe, ok := err.(*net.OpError); ok {
		err = oe.Err
	}
	return &net.OpError{Op: op, Net: "tcp", Source: c.LocalAddr(), Addr: c.RemoteAddr(), Err: err}
}

// peekErrno peeks at one byte of fd's socket without waiting or taking
// it (recv with MSG_PEEK|MSG_DONTWAIT), as one raw system call
// (Arrived, socket_peek.go): the bytes it saw, 0 at an end of stream.
func peekErrno(fd uintptr, b *[1]byte) (int, syscall.Errno) {
	n, _, e := syscall.RawSyscall6(syscall.SYS_RECVFROM, fd, uintptr(unsafe.Pointer(&b[0])), 1,
		syscall.MSG_PEEK|syscall.MSG_DONTWAIT, 0, 0)
	return int(n), e
}
