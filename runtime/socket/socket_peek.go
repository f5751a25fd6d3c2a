//go:build unix

package socket

import (
	"net"
	"syscall"
)

// NothingArrived says whether nothing is waiting to be read on c's
// socket: no byte, no end of stream, no error. It peeks without waiting
// and without taking anything (peekErrno: recv with
// MSG_PEEK|MSG_DONTWAIT), one system call. False when c has no socket to
// ask: a caller that cannot tell must assume something arrived.
//
// The Router asks it of a kept-alive upstream connection before reusing
// it: a byte that came while the connection was idle belongs to no call,
// and would otherwise be read as the next call's reply.
func NothingArrived(c net.Conn) bool {
	sc, ok := c.(syscall.Conn)
	if !ok {
		return false
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return false
	}
	quiet := false
	var b [1]byte
	err = raw.Control(func(fd uintptr) {
		for {
			if e := peekErrno(fd, &b); e != syscall.EINTR {
				quiet = e == syscall.EAGAIN
				return
			}
		}
	})
	return err == nil && quiet
}
