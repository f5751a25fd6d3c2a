package socket

import "net"

// Listen announces on the TCP address addr, as net.Listen does; the
// connections it accepts read and write their sockets through Raw.
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
	return Raw(c), nil
}

// WriteBuffers writes a then b to c: with one writev of its own on a
// Raw, else as net.Buffers does.
func WriteBuffers(c net.Conn, a, b []byte) error {
	if v, ok := c.(vectoredWriter); ok {
		_, err := v.writev(a, b)
		return err
	}
	bufs := net.Buffers{a, b}
	_, err := bufs.WriteTo(c)
	return err
}

// vectoredWriter is a Raw's connection (socket_linux.go).
type vectoredWriter interface {
	writev(a, b []byte) (int, error)
}
