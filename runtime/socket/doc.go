// Package socket is the TCP both servers listen on and the Router's own
// upstream connections use: Listen's connections, and a connection wrapped
// by Raw, read and write their non-blocking sockets with raw system calls
// on Linux: the same bytes, deadlines and errors as net's, without the
// scheduler hand-off and monitor wake-ups of a blocking system call.
// WriteBuffers writes two buffers with one writev; Arrived tells whether
// an idle kept-alive connection received anything while it waited, and
// what (bytes, or an end of stream), so it is never reused to read
// another call's reply.
package socket
