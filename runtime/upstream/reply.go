package upstream

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/textproto"
	"strconv"

	"github.com/vllm-sr/systemone/runtime/front"
	tc "github.com/vllm-sr/systemone/runtime/target"
)

// replyHead is what the Router needs of an upstream reply's status line
// and headers: the status, how the body is framed, whether the
// connection ends with it, and the headers of a reply that is not a
// success (the error mapping reads Retry-After, the log Location). A
// success's headers carry nothing the Router reads, so none are kept.
type replyHead struct {
	status  int
	length  int64 // -1: not given
	chunked bool
	// close: the connection ends after this reply, because the reply says
	// so, its body runs to the connection's end, or its framing was
	// ambiguous or unusual (both a length and chunked, two equal lengths,
	// a length or chunked on an informational reply, a 204 or 304), which
	// a reply of an honest upstream never is and a smuggled one is.
	close  bool
	header http.Header
	// otherID: the reply echoes an X-Request-Id other than the call's
	// (readReplyHead's want): it answers another call.
	otherID bool
}

// Bounds of a reply head: a head over them is malformed.
const (
	maxReplyHeadBytes = 64 << 10
	maxReplyHeaders   = 100
	// maxInformational is how many informational (1xx) replies may come
	// before the final one, as net/http's client allows.
	maxInformational = 5
)

// errReplyHead is a reply head, or a chunk, that is not well-formed.
var errReplyHead = fmt.Errorf("%w (the head or a chunk)", tc.ErrReplyMalformed)

// readReplyHead reads the head of the final reply, skipping up to
// maxInformational informational (1xx) ones. It accepts what net/http's
// ReadResponse accepts of the replies a System One upstream sends:
// HTTP/1.0 and 1.1, a length or chunked framing (chunked wins over a
// length, as RFC 9112 says), and refuses a head that is malformed, an
// obsolete folded line, conflicting lengths, two Transfer-Encodings, an
// unknown coding, a switch of protocols (the Router asks for none), or
// one over the bounds. want, when not nil, is the call's id: a final
// reply whose X-Request-Id is another sets otherID.
func readReplyHead(br *bufio.Reader, want []byte) (replyHead, error) {
	unusual := false
	for range maxInformational + 1 {
		h, err := readOneHead(br, want)
		switch {
		case err != nil:
			return h, err
		case h.status == http.StatusSwitchingProtocols:
			return h, errReplyHead
		case h.status >= 200:
			h.close = h.close || unusual
			return h, nil
		}
		unusual = unusual || h.close
	}
	return replyHead{}, errReplyHead
}

func readOneHead(br *bufio.Reader, want []byte) (replyHead, error) {
	h := replyHead{length: -1}
	line, err := br.ReadSlice('\n')
	if err != nil {
		return h, headError(err)
	}
	size := len(line)
	line = trimEOL(line)
	// "HTTP/1.x SSS reason"
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.")) || (line[7] != '0' && line[7] != '1') || line[8] != ' ' ||
		(len(line) > 12 && line[12] != ' ') {
		return h, errReplyHead
	}
	code, err := strconv.Atoi(string(line[9:12]))
	if err != nil || code < 100 {
		return h, errReplyHead
	}
	h.status = code
	http10 := line[7] == '0'
	keepAlive, lengths, codings := false, 0, 0
	success := code >= 200 && code <= 299
	if !success {
		h.header = http.Header{}
	}
	for n := 0; ; n++ {
		line, err := br.ReadSlice('\n')
		if err != nil {
			return h, headError(err)
		}
		if size += len(line); size > maxReplyHeadBytes || n > maxReplyHeaders {
			return h, errReplyHead
		}
		line = trimEOL(line)
		if len(line) == 0 {
			break
		}
		if line[0] == ' ' || line[0] == '\t' { // obsolete line folding
			return h, errReplyHead
		}
		name, value, ok := parseField(line)
		if !ok {
			return h, errReplyHead
		}
		switch {
		case asciiEqualFold(name, "Content-Length"):
			n, err := parseLength(value)
			if err != nil || (h.length >= 0 && h.length != n) {
				return h, errReplyHead
			}
			h.length = n
			lengths++
		case asciiEqualFold(name, "Transfer-Encoding"):
			if codings++; codings > 1 || !asciiEqualFold(value, "chunked") {
				return h, errReplyHead // one coding, chunked: all net/http's client takes
			}
			h.chunked = true
		case asciiEqualFold(name, "Connection"):
			h.close = h.close || hasToken(value, "close")
			keepAlive = keepAlive || hasToken(value, "keep-alive")
		case want != nil && asciiEqualFold(name, front.HeaderXRequestID):
			h.otherID = h.otherID || !bytes.Equal(value, want)
		}
		if h.header != nil {
			key := textproto.CanonicalMIMEHeaderKey(string(name))
			h.header[key] = append(h.header[key], string(value))
		}
	}
	if h.chunked && http10 {
		return h, errReplyHead // HTTP/1.0 has no chunked framing
	}
	if lengths > 1 || h.chunked && h.length >= 0 {
		h.close = true
	}
	if h.chunked {
		h.length = -1
	}
	if http10 && !keepAlive {
		h.close = true
	}
	if code == http.StatusNoContent || code == http.StatusNotModified || code < 200 {
		// No body, whatever the head says; a head that frames one anyway
		// leaves bytes no reply owns, so the connection ends here.
		h.close = h.close || h.chunked || h.length > 0
		h.length, h.chunked = 0, false
	}
	if !h.chunked && h.length < 0 {
		h.close = true // the body runs to the connection's end
	}
	return h, nil
}

// body is the reader of the reply's body on br, as its head frames it. A
// body of a given length is read through length, the caller's: a
// connection reuses its own for each call.
func (h *replyHead) body(br *bufio.Reader, length *lengthBody) io.Reader {
	switch {
	case h.chunked:
		return &chunkedBody{chunks: httputil.NewChunkedReader(br), br: br}
	case h.length >= 0:
		*length = lengthBody{br: br, left: h.length}
		return length
	}
	return br
}

// lengthBody reads a body of a given length; the connection ending
// before it is io.ErrUnexpectedEOF, a reply cut short.
type lengthBody struct {
	br   *bufio.Reader
	left int64
}

func (l *lengthBody) Read(p []byte) (int, error) {
	if l.left <= 0 {
		return 0, io.EOF
	}
	n, err := l.br.Read(p[:min(int64(len(p)), l.left)])
	l.left -= int64(n)
	if err == io.EOF && l.left > 0 {
		err = io.ErrUnexpectedEOF
	}
	return n, err
}

// chunkedBody reads a chunked body and, after its last chunk, the
// trailer section, so that the connection is left at the next reply.
type chunkedBody struct {
	chunks io.Reader
	br     *bufio.Reader
}

func (c *chunkedBody) Read(p []byte) (int, error) {
	n, err := c.chunks.Read(p)
	if err != io.EOF {
		return n, chunkError(err)
	}
	for size := 0; ; {
		line, err := c.br.ReadSlice('\n')
		if err != nil {
			return n, headError(err)
		}
		if size += len(line); size > maxReplyHeadBytes {
			return n, errReplyHead
		}
		if string(line) == "\r\n" {
			return n, io.EOF
		}
		if _, _, ok := parseField(trimEOL(line)); !ok || !bytes.HasSuffix(line, []byte("\r\n")) {
			return n, errReplyHead // not a trailer field ending in CRLF (nor a bare LF ending the section)
		}
	}
}

// chunkError is an error of the chunked reader: the connection's own
// (it ended, was reset, or its deadline passed) as it is, anything else
// being the reader's refusal of a chunk that is not well-formed.
func chunkError(err error) error {
	var netErr net.Error
	if err == nil || errors.Is(err, tc.ErrReplyMalformed) || errors.Is(err, io.ErrUnexpectedEOF) || errors.As(err, &netErr) {
		return err
	}
	return fmt.Errorf("%w: %w", errReplyHead, err)
}

// headError is err, an end of input being a reply cut short.
func headError(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	if errors.Is(err, bufio.ErrBufferFull) {
		return errReplyHead
	}
	return err
}

// parseLength is a Content-Length value: decimal digits only (no sign,
// no space), as net/http reads it.
func parseLength(v []byte) (int64, error) {
	if len(v) == 0 || bytes.IndexFunc(v, func(r rune) bool { return r < '0' || r > '9' }) >= 0 {
		return 0, errReplyHead
	}
	return strconv.ParseInt(string(v), 10, 64)
}

// parseField splits a header or trailer line (its end of line trimmed)
// into its name and value; not ok when either is not a valid field.
func parseField(line []byte) (name, value []byte, ok bool) {
	name, value, ok = bytes.Cut(line, []byte(":"))
	value = bytes.Trim(value, " \t")
	return name, value, ok && validFieldName(name) && validFieldValue(value)
}

// validFieldName: a header name is a token (RFC 9110, 5.1).
func validFieldName(name []byte) bool {
	if len(name) == 0 {
		return false
	}
	for _, c := range name {
		if c <= ' ' || c >= 0x7f || bytes.IndexByte([]byte(`"(),/:;<=>?@[\]{}`), c) >= 0 {
			return false
		}
	}
	return true
}

// validFieldValue: a header value holds no control character but tab.
// It reads bytes or a string, so a value written from a string is checked
// without a copy.
func validFieldValue[T ~string | ~[]byte](v T) bool {
	for i := range len(v) {
		if c := v[i]; (c < ' ' && c != '\t') || c == 0x7f {
			return false
		}
	}
	return true
}

func trimEOL(line []byte) []byte {
	line = bytes.TrimSuffix(line, []byte("\n"))
	return bytes.TrimSuffix(line, []byte("\r"))
}

func asciiEqualFold(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := range len(b) {
		if lowerASCII(b[i]) != lowerASCII(s[i]) {
			return false
		}
	}
	return true
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// hasToken says whether the comma-separated list v holds token (ASCII
// case-insensitive).
func hasToken(v []byte, token string) bool {
	for part := range bytes.SplitSeq(v, []byte(",")) {
		if asciiEqualFold(bytes.TrimSpace(part), token) {
			return true
		}
	}
	return false
}
