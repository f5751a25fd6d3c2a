//go:build !linux

package listener

import "net"

// RawSocket returns c: raw socket calls are used on Linux only
// (socket_linux.go).
func RawSocket(c net.Conn) net.Conn { return c }

// WriteBuffers writes a then b to c, as net.Buffers does.
func WriteBuffers(c net.Conn, a, b []byte) error {
	bufs := net.Buffers{a, b}
	_, err := bufs.WriteTo(c)
	return err
}
