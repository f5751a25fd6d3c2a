//go:build unix

package testkit

import (
	"net"
	"syscall"
	"time"
)

// openFileLimit is the process's open-file limit (the soft one, which Go
// raises to the hard one at start), and whether it is known.
func openFileLimit() (uint64, bool) {
	var lim syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim) != nil {
		return 0, false
	}
	return uint64(lim.Cur), true
}

// dialSmallWindow dials addr with a 4 KiB receive buffer, set before the
// connection is made so the window the server sees is small from the
// start: what the server's write can push into a client that does not
// read is then about its own send buffer only.
func dialSmallWindow(addr string) (net.Conn, error) {
	d := net.Dialer{Timeout: 5 * time.Second, Control: func(_, _ string, rc syscall.RawConn) error {
		var err error
		if cerr := rc.Control(func(fd uintptr) {
			err = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096)
		}); cerr != nil {
			return cerr
		}
		return err
	}}
	return d.Dial("tcp", addr)
}
