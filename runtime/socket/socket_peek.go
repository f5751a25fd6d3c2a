//go:build unix

package socket

import (
	"net"
	"syscall"
)

// Arrived says what is waiting to be read on c's socket: nothing, a byte,
// or an end of stream (or an error). It peeks without waiting and
// without taking anything (peekErrno: recv with MSG_PEEK|MSG_DONTWAIT),
// one system call. Unknown when c has no socket to ask.
//
// The Router asks it of a kept-alive upstream connection before reusing
// it: a byte that came while the connection was idle belongs to no call,
// and would otherwise be read as the next call's reply; an end of stream
// is the upstream closing an idle connection, as it may.
func Arrived(c net.Conn) Arrival {
	sc, ok := c.(syscall.Conn)
	if !ok {
		return ArrivedUnknown
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return ArrivedUnknown
	}
	got := ArrivedUnknown
	var b [1]byte
	err = raw.Control(func(fd uintptr) {
		for {
			n, e := peekErrno(fd, &b)
			switch {
			case e == syscall.EINTR:
				continue
			case e == syscall.EAGAIN:
				got = ArrivedNothing
			case e == 0 && n > 0:
				got = ArrivedBytes
			default: // a zero-byte read (FIN) or an error (reset)
				got = ArrivedEnd
			}
			return
		}
	})
	if err != nil {
		return ArrivedUnknown
	}
	return got
}
