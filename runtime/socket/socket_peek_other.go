//go:build !unix

package socket

import "net"

// Arrived cannot peek at a socket here, so it never says nothing
// arrived: a caller that cannot tell must assume something did (the
// Router then reuses no upstream connection).
func Arrived(net.Conn) Arrival { return ArrivedUnknown }
