//go:build !linux

package socket

import "net"

// Raw returns c: raw socket calls are used on Linux only
// (socket_linux.go).
func Raw(c net.Conn) net.Conn { return c }
