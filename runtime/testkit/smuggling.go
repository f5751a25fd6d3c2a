package testkit

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// SmugglingCase is a request whose framing a front end and a server may
// read two ways (RFC 9112 6.1, 6.3): sent with a hidden request after its
// chunked body, which a front end framing it by its Content-Length would
// have sent as body, and the number of answers the connection may give.
type SmugglingCase struct {
	Name string
	// Framing is the header lines that frame the body, each ending CRLF;
	// LENGTH stands for the byte count of everything after the head.
	Framing string
	// Answers is how many answers the server may write before it closes
	// the connection: 1, the request's own; 2 only for the control case,
	// two requests framed plainly.
	Answers int
}

// SmugglingBody is a request every server of the suites answers 200: one
// question on HostileModel.
const SmugglingBody = `{"model":"` + HostileModel + `","state":"Is the export broken?","questions":{"q":{"type":"noul","instructions":"Is it?"}}}`

// SmugglingCases are the framings of the suite.
var SmugglingCases = []SmugglingCase{
	{Name: "length and chunked", Framing: "Content-Length: LENGTH\r\nTransfer-Encoding: chunked\r\n", Answers: 1},
	{Name: "chunked and length", Framing: "Transfer-Encoding: chunked\r\nContent-Length: LENGTH\r\n", Answers: 1},
	{Name: "length and tab chunked", Framing: "Content-Length: LENGTH\r\nTransfer-Encoding:\tchunked\r\n", Answers: 1},
	{Name: "length and CHUNKED", Framing: "Content-Length: LENGTH\r\nTransfer-Encoding: CHUNKED\r\n", Answers: 1},
	{Name: "length and folded chunked", Framing: "Content-Length: LENGTH\r\nTransfer-Encoding:\r\n chunked\r\n", Answers: 1},
	{Name: "chunked alone", Framing: "Transfer-Encoding: chunked\r\n", Answers: 1},
	// Control: a request framed by its length and a second request after
	// it on the same connection are both answered, so the suite can tell.
	{Name: "control: two requests", Framing: "", Answers: 2},
}

// RunSmuggling sends each case to the server at addr (host:port) over a
// raw connection: a POST to path whose chunked body is body, then a
// hidden GET of hiddenPath. The server must write at most the case's
// answers, the first of them its answer to the POST (any status but a
// 5xx: a 400 refusing the framing is as safe as the answer), and then
// close the connection: the hidden request is never answered.
func RunSmuggling(t *testing.T, addr, path, body, hiddenPath string) {
	t.Helper()
	// The hidden request asks to close, so a server that answers it ends
	// the connection too.
	hidden := "GET " + hiddenPath + " HTTP/1.1\r\nHost: hidden.example\r\nConnection: close\r\n\r\n"
	for _, c := range SmugglingCases {
		t.Run(c.Name, func(t *testing.T) {
			var after string
			if c.Framing == "" { // the control: body framed by its length, then a plain request
				after = body
				c.Framing = "Content-Length: " + strconv.Itoa(len(body)) + "\r\n"
			} else {
				after = strconv.FormatInt(int64(len(body)), 16) + "\r\n" + body + "\r\n0\r\n\r\n"
			}
			after += hidden
			head := "POST " + path + " HTTP/1.1\r\nHost: smuggling.example\r\nContent-Type: application/json\r\n" +
				strings.ReplaceAll(c.Framing, "LENGTH", strconv.Itoa(len(after))) + "\r\n"
			statuses, err := exchange(addr, head+after)
			if err != nil {
				t.Fatalf("answers %v, then %v; want the connection closed", statuses, err)
			}
			switch {
			case len(statuses) == 0:
				t.Errorf("no answer to the request")
			case len(statuses) > c.Answers:
				t.Errorf("%d answers %v: the hidden request was answered", len(statuses), statuses)
			case c.Answers == 2 && len(statuses) != 2:
				t.Errorf("control: %d answers %v, want 2", len(statuses), statuses)
			case statuses[0] >= 500:
				t.Errorf("the request was answered %d", statuses[0])
			}
		})
	}
}

// exchange writes raw on a new connection to addr and reads answers until
// the server closes it; an error when it stays open past 5 s or an
// answer is not HTTP.
func exchange(addr, raw string) (statuses []int, err error) {
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.WriteString(c, raw); err != nil {
		return nil, err
	}
	br := bufio.NewReader(c)
	for {
		if _, err := br.Peek(1); errors.Is(err, io.EOF) || isReset(err) {
			return statuses, nil // closed between answers
		}
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			return statuses, err
		}
		statuses = append(statuses, resp.StatusCode)
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
}

// isReset: a server that closes with unread bytes (the hidden request)
// may reset the connection instead of ending it.
func isReset(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && !errors.Is(err, os.ErrDeadlineExceeded)
}
