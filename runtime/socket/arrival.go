package socket

import "net"

// Arrival is what Arrived found waiting on an idle connection's socket.
type Arrival uint8

const (
	// ArrivedUnknown: the connection has no socket to ask; a caller must
	// assume something arrived.
	ArrivedUnknown Arrival = iota
	// ArrivedNothing: no byte, no end of stream, no error.
	ArrivedNothing
	// ArrivedBytes: at least one byte no read has taken.
	ArrivedBytes
	// ArrivedEnd: the peer ended the stream, or the socket has an error.
	ArrivedEnd
)

// NothingArrived says whether nothing is waiting to be read on c's
// socket: no byte, no end of stream, no error (Arrived). False when c has
// no socket to ask.
func NothingArrived(c net.Conn) bool { return Arrived(c) == ArrivedNothing }
