//go:build unix && !linux

package listener

import (
	"net"
	"syscall"
)

// NothingArrived says whether nothing is waiting to be read on c's
// socket (socket_linux.go has the reasons); here with syscall's recvfrom.
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
			_, _, e := syscall.Recvfrom(int(fd), b[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
			if e != syscall.EINTR {
				quiet = e == syscall.EAGAIN
				return
			}
		}
	})
	return err == nil && quiet
}
