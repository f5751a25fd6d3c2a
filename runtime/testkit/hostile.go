package testkit

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	neturl "net/url"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/bodylimit"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/table"
)

// HostileServer is the kind of server a hostile case runs against.
type HostileServer string

const (
	HostileRuntime HostileServer = "vllm-srun"
	HostileRouter  HostileServer = "router"
)

// HostileModel is the model every case names: the runtime serves it, and
// the Router's suite configuration has a deployment of that name.
const HostileModel = "vllm-sr/vela3-fast"

// HostileCanary is in a value of every case's body (the state, an
// instructions text) and HostileNameMark in the names a case makes up: a
// log line carrying either carries request data.
const (
	HostileCanary   = "hostile-canary-7f3a"
	HostileNameMark = "hostile-name-9c1e"
)

// HostileTarget is one server and listener schema to run the cases on.
type HostileTarget struct {
	Server HostileServer
	Schema table.SchemaID
	// URL is the listener's root, http://host:port.
	URL string
}

// HostileWant is what a case is answered with. Code and Reason are the
// flat members, empty on a 200; Reason AnyReason takes any reason word
// (where the Router relays a reason its upstream chose).
type HostileWant struct {
	Status       int
	Code, Reason string
}

// AnyReason as HostileWant.Reason takes any (non-empty) reason.
const AnyReason = "*"

// HostileCase is one hostile request.
type HostileCase struct {
	Name string
	// Method is POST when empty; Path /v1/systemone.
	Method, Path string
	Header       map[string]string
	// Body makes the body (called once per target; the big ones cache).
	Body func() []byte
	Want HostileWant
	// On40 replaces Want on a vllm-sr/4.0 listener, OnRouter on the
	// Router (and both, when both are set, OnRouter40). Without On40, a
	// 422 validation_failed Want is 400 invalid_request on 4.0.
	On40, OnRouter, OnRouter40 *HostileWant
	// Names are texts the answer must carry (in any string of it): the
	// member a refusal names, cut as it is cut.
	Names []string
}

func (c *HostileCase) want(t HostileTarget) HostileWant {
	legacy := t.Schema == table.SchemaVllmSR40
	switch {
	case legacy && t.Server == HostileRouter && c.OnRouter40 != nil:
		return *c.OnRouter40
	case t.Server == HostileRouter && c.OnRouter != nil:
		return *c.OnRouter
	case legacy && c.On40 != nil:
		return *c.On40
	case legacy && c.Want.Code == vocab.CodeValidationFailed:
		// The frozen 4.0 contract answers the standard's schema
		// violations 400 invalid_request.
		return bad(c.Want.Reason)
	}
	return c.Want
}

// hostileClient bounds every exchange; it never asks for compressed
// answers, so sizes are the server's own.
var hostileClient = &http.Client{Timeout: 20 * time.Second, Transport: &http.Transport{DisableCompression: true}}

// RunHostile runs every case against target as a subtest, then checks the
// server's logs (CheckHostileLogs): logs is called once the cases ran, and
// returns every log line the server wrote (a test stops the server first,
// so none is left buffered). A nil logs leaves the check to the caller, as
// for several listeners of one server.
func RunHostile(t *testing.T, target HostileTarget, cases []HostileCase, logs func() []byte) {
	t.Helper()
	for i := range cases {
		c := &cases[i]
		t.Run(c.Name, func(t *testing.T) { runHostileCase(t, target, c) })
	}
	if logs != nil {
		CheckHostileLogs(t, logs())
	}
}

func runHostileCase(t *testing.T, target HostileTarget, c *HostileCase) {
	method, path := cmp.Or(c.Method, http.MethodPost), cmp.Or(c.Path, vocab.PathSystemone)
	var body io.Reader
	if c.Body != nil {
		body = bytes.NewReader(c.Body())
	}
	req, err := http.NewRequest(method, target.URL+path, body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set(vocab.HeaderContentType, "application/json")
	for k, v := range c.Header {
		req.Header.Set(k, v)
	}
	resp, err := hostileClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(io.LimitReader(resp.Body, ir.MaxErrorBytes+1))
	if err != nil {
		t.Fatalf("reading the answer: %v", err)
	}
	if len(answer) > ir.MaxErrorBytes {
		t.Fatalf("status %d: the answer is over %d bytes", resp.StatusCode, ir.MaxErrorBytes)
	}
	if problems := checkHostileAnswer(target, c.want(target), resp, answer, c.Names); len(problems) > 0 {
		t.Fatalf("%s\n(answer %d bytes: %.600s)", strings.Join(problems, "\n"), len(answer), answer)
	}
}

// checkHostileAnswer lists how an answer differs from want.
func checkHostileAnswer(target HostileTarget, want HostileWant, resp *http.Response, answer []byte, names []string) []string {
	var out []string
	var v any
	if err := json.Unmarshal(answer, &v); err != nil {
		return []string{fmt.Sprintf("status %d: the answer is not JSON: %v", resp.StatusCode, err)}
	}
	obj, _ := v.(map[string]any)
	code, _ := obj[vocab.ErrorCode].(string)
	reason, _ := obj[vocab.ErrorReason].(string)
	got := HostileWant{Status: resp.StatusCode, Code: code, Reason: reason}
	if want.Reason == AnyReason && reason != "" {
		got.Reason = AnyReason
	}
	if got != want {
		out = append(out, fmt.Sprintf("got %+v, want %+v", got, want))
	}
	if ct := resp.Header.Get(vocab.HeaderContentType); !strings.HasPrefix(ct, "application/json") {
		out = append(out, "Content-Type "+ct)
	}
	if resp.StatusCode >= 400 {
		out = append(out, checkHostileError(target, obj, code)...)
	}
	if (resp.StatusCode == http.StatusServiceUnavailable || resp.StatusCode == 529) && resp.Header.Get(vocab.HeaderRetryAfter) == "" {
		out = append(out, fmt.Sprintf("a %d without Retry-After", resp.StatusCode))
	}
	text := strings.Join(stringsOf(v, nil), "\n")
	for _, n := range names {
		if !strings.Contains(text, n) {
			out = append(out, fmt.Sprintf("the answer does not name %.80q", n))
		}
	}
	return out
}

// checkHostileError checks an error answer's shape: a detail, and on a
// vllm-sr/4.0 listener an error object whose code is the flat one (never
// the placeholder "error" a code-less error once took).
func checkHostileError(target HostileTarget, obj map[string]any, code string) []string {
	var out []string
	if _, ok := obj[vocab.ErrorDetail]; !ok {
		out = append(out, "the error has no "+vocab.ErrorDetail)
	}
	if code == "" {
		out = append(out, "the error has no flat "+vocab.ErrorCode)
	}
	if target.Schema != table.SchemaVllmSR40 {
		return out
	}
	legacy, _ := obj[vocab.ErrorError].(map[string]any)
	if lc, _ := legacy[vocab.LegacyErrorCode].(string); lc != code {
		out = append(out, fmt.Sprintf("the 4.0 error.code is %q, the flat code %q", lc, code))
	}
	return out
}

// stringsOf collects every string of a decoded JSON value, member names
// included.
func stringsOf(v any, out []string) []string {
	switch x := v.(type) {
	case string:
		out = append(out, x)
	case []any:
		for _, e := range x {
			out = stringsOf(e, out)
		}
	case map[string]any:
		for k, e := range x {
			out = stringsOf(e, append(out, k))
		}
	}
	return out
}

// CheckHostileLogs fails the test for every log line that carries
// HostileCanary (a value of a request) or a made-up name longer than
// table.MaxNameBytes (a name as the client sent it, where an error an
// upstream answered with quotes it cut), or is longer than 8 KiB.
func CheckHostileLogs(t *testing.T, logs []byte) {
	t.Helper()
	if len(logs) == 0 {
		t.Error("the server wrote no log line: the log check saw nothing")
	}
	fullName := []byte(HostileNameMark + strings.Repeat("x", table.MaxNameBytes-len(HostileNameMark)+1))
	for line := range bytes.Lines(logs) {
		switch {
		case bytes.Contains(line, []byte(HostileCanary)), bytes.Contains(line, fullName):
			t.Errorf("a log line carries request data: %.300s", line)
		case len(line) > 8<<10:
			t.Errorf("a log line of %d bytes: %.300s", len(line), line)
		}
	}
}

// CheckWholeBodyClient sends url (a System One endpoint) a request whose
// body is just past the body limit, all of it, before reading anything,
// as Python's http.client does, with a Content-Length (chunked when
// chunked): the client must read the 413 request_too_large, not a
// connection reset mid-write (the server answers early, then reads the
// rest before it closes).
func CheckWholeBodyClient(t *testing.T, url string, chunked bool) {
	t.Helper()
	u, err := neturl.Parse(url)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(15 * time.Second))
	n := int(vocab.LimitBodyBytes) + 1<<20
	w := bufio.NewWriterSize(conn, 1<<20)
	framing := fmt.Sprintf("Content-Length: %d", n)
	var body io.Writer = w
	chunks := httputil.NewChunkedWriter(w)
	if chunked {
		framing, body = "Transfer-Encoding: chunked", chunks
	}
	fmt.Fprintf(w, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\n%s\r\n\r\n", u.Path, u.Host, framing)
	block := bytes.Repeat([]byte(" "), 1<<20)
	for sent := 0; sent < n; sent += len(block) {
		if _, err := body.Write(block); err != nil {
			t.Fatalf("the server cut the connection while the body was sent (%d of %d bytes): %v", sent, n, err)
		}
	}
	if chunked {
		_ = chunks.Close() // the last chunk; the empty trailer follows
		_, _ = io.WriteString(w, "\r\n")
	}
	if err := w.Flush(); err != nil {
		t.Fatalf("the server cut the connection while the body was sent: %v", err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer after the whole body was sent: %v", err)
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(io.LimitReader(resp.Body, ir.MaxErrorBytes+1))
	var v struct {
		Code   string `json:"code"`
		Reason string `json:"reason"`
	}
	if resp.StatusCode != http.StatusRequestEntityTooLarge || json.Unmarshal(answer, &v) != nil ||
		v.Code != vocab.CodeRequestTooLarge || v.Reason != vocab.ReasonBodyTooLarge {
		t.Fatalf("status %d, answer %.300s; want 413 %s", resp.StatusCode, answer, vocab.CodeRequestTooLarge)
	}
}

// CheckConcurrentBombs sends 8 gzip bombs (each about 1 MiB inflating far
// past the body limit) at once to url, a System One endpoint of a server
// running in this process, and checks that each is answered 413
// request_too_large or 503 unavailable with Retry-After (the shared
// inflating budget in use), and that the heap grew by at most 2.5x the
// budget while they were read (before the budget, 8 bombs took 745 MiB
// on the Router). The budget bounds what is reserved exactly; the sampled
// heap also holds garbage not yet collected and whatever the rest of the
// test binary allocates meanwhile, hence the margin. It reports the peak.
func CheckConcurrentBombs(t *testing.T, url string) {
	t.Helper()
	skipTimingInShort(t)
	bomb := gzipBomb()
	budget := bodylimit.Shared.Size()
	defer debug.SetGCPercent(debug.SetGCPercent(25))
	runtime.GC()
	base := heapBytes()
	var peak atomic.Uint64
	stop, sampled := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(sampled)
		for {
			peak.Store(max(peak.Load(), heapBytes()))
			select {
			case <-stop:
				return
			case <-time.After(500 * time.Microsecond):
			}
		}
	}()
	statuses := make([]int, 8)
	var wg sync.WaitGroup
	for i := range statuses {
		wg.Go(func() { statuses[i] = postBomb(t, url, bomb) })
	}
	wg.Wait()
	close(stop)
	<-sampled
	grew := peak.Load() - min(base, peak.Load())
	t.Logf("8 concurrent 1 MiB bombs: statuses %v; the heap grew by %.1f MiB at most (budget %d MiB)", statuses, float64(grew)/(1<<20), budget>>20)
	if limit := uint64(budget) * 5 / 2; grew > limit {
		t.Fatalf("the heap grew by %d bytes, over 2.5x the %d-byte inflating budget", grew, budget)
	}
}

// postBomb sends one bomb and returns the status, failing the test on an
// answer that is neither 413 nor a 503 with Retry-After.
func postBomb(t *testing.T, url string, bomb []byte) int {
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(bomb))
	if err != nil {
		t.Error(err)
		return 0
	}
	req.Header.Set(vocab.HeaderContentType, "application/json")
	req.Header.Set("Content-Encoding", "gzip")
	resp, err := hostileClient.Do(req)
	if err != nil {
		t.Errorf("a bomb: %v", err)
		return 0
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusRequestEntityTooLarge:
	case resp.StatusCode == http.StatusServiceUnavailable && resp.Header.Get(vocab.HeaderRetryAfter) != "":
	default:
		t.Errorf("a bomb: status %d (Retry-After %q)", resp.StatusCode, resp.Header.Get(vocab.HeaderRetryAfter))
	}
	return resp.StatusCode
}

func heapBytes() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}
