//go:build unix && !linux

package socket

import "syscall"

// peekErrno peeks at one byte of fd's socket without waiting or taking
// it, with syscall's recvfrom (socket_linux.go has the raw call): the
// bytes it saw, 0 at an end of stream.
func peekErrno(fd uintptr, b *[1]byte) (int, syscall.Errno) {
	n, _, err := syscall.Recvfrom(int(fd), b[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
	if errno, ok := err.(syscall.Errno); ok {
		return n, errno
	}
	return n, 0
}
