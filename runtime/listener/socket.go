package listener

import "net"

// Listen announces on the TCP address addr, as net.Listen does; the
// connections it accepts read and write their sockets through RawSocket.
// Both servers listen through it.
func Listen(addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	return rawListener{ln}, nil
}

type rawListener struct{ net.Listener }

func (l rawListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return RawSocket(c), nil
}
