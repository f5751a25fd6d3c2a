//go:build !unix

package testkit

import (
	"net"
	"time"
)

// openFileLimit is unknown off unix: the attack runs, and a dial that
// runs out of descriptors fails it.
func openFileLimit() (uint64, bool) { return 0, false }

// dialSmallWindow dials addr; off unix with the system's receive buffer.
func dialSmallWindow(addr string) (net.Conn, error) {
	return net.DialTimeout("tcp", addr, 5*time.Second)
}
