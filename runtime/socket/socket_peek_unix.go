//go:build unix && !linux

package socket

import "syscall"

// peekErrno peeks at one byte of fd's socket without waiting or taking
// it, with syscall's recvfrom (socket_linux.go has the raw call).
func peekErrno(fd uintptr, b *[1]byte) syscall.Errno {
	_, _, err := syscall.Recvfrom(int(fd), b[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
	if errno, ok := err.(syscall.Errno); ok {
		return errno
	}
	return 0
}
