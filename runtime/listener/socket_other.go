//go:build !linux

package listener

import "net"

// RawSocket returns c: raw socket calls are used on Linux only
// (socket_linux.go).
func RawSocket(c net.Conn) net.Conn { return c }
