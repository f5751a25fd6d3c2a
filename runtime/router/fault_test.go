package router_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vllm-sr/systemone/runtime/router"
	"github.com/vllm-sr/systemone/runtime/testkit"
)

// The upstream-fault suite: a Router in front of upstreams that fail in
// every way an upstream can (faultUpstream, a raw TCP resetter, a closed
// port). Each case checks the status, code and reason the client gets,
// its Retry-After, and that the client's body carries none of the
// upstream's words (faultMarker), which the Router's log keeps.

const faultConfig = `listeners:
  - name: public5
    address: 127.0.0.1:{{P5}}
    apis:
      systemone: {schema: vllm-sr/5.0}
      chat_completions: {}
upstreams:
  faulty-llm:
    api_format: openai
    endpoint: {{FAULT}}/v1
    models: [gpt-4o]
deployments:
  faulty:
    provider: systemone
    endpoint: {{FAULT}}/v1/systemone
    model: d3
    schema: systemone/0.2
    max_concurrency: 4
  refused:
    provider: systemone
    endpoint: http://{{REFUSED}}/v1/systemone
    model: d3
    schema: systemone/0.2
  reset:
    provider: systemone
    endpoint: http://{{RESET}}/v1/systemone
    model: d3
    schema: systemone/0.2
`

// faultEnv is the Router of the suite, its fault upstream and its log.
type faultEnv struct {
	up  *faultUpstream
	run *router.Running
	log *testkit.LogBuffer
	// read counts the bytes the Router read from its upstream connections
	// (it dials them through readCounter).
	read *readCounter
}

func newFaultEnv(t *testing.T) *faultEnv {
	t.Helper()
	e := &faultEnv{up: newFaultUpstream(t), log: &testkit.LogBuffer{}, read: &readCounter{}}
	path := writeConfig(t, faultConfig, map[string]string{
		"P5": freePort(t), "FAULT": e.up.srv.URL, "REFUSED": refusedAddr(t), "RESET": resetListener(t),
	})
	cfg, err := router.LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	e.run, err = router.Start(ctx, cfg, router.Options{Logger: slog.New(slog.NewTextHandler(e.log, nil)), DialContext: e.read.dial})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); _ = e.run.Wait() })
	return e
}

// faultCase is one upstream fault and the answer it must get.
type faultCase struct {
	name       string // the fault (faultUpstream.fault), or a deployment's own
	model      string // the deployment; "faulty" when empty
	body       string // the request; a single noul question q with state fault:<name> when empty
	status     int
	code       string
	reason     string
	question   string
	retryAfter string // "" for none
}

func faultCases() []faultCase {
	choice := `{"model":"faulty","state":"fault:not-an-option","questions":{"team":{"type":"choice","instructions":"Which team?",` +
		`"criteria":{"billing":"Payments","tech":"Bugs"}}}}`
	slow := `{"model":"faulty","state":"fault:NAME","questions":{"q":{"type":"noul","instructions":"Is it?"}},"options":{"deadline_ms":300}}`
	return []faultCase{
		{name: "refused", model: "refused", status: 503, code: "unavailable", reason: "upstream_unreachable", retryAfter: "1"},
		{name: "reset-before", model: "reset", status: 503, code: "unavailable", reason: "upstream_unreachable", retryAfter: "1"},
		{name: "reset-mid", status: 502, code: "upstream_error", reason: "upstream_reply_cut"},
		{name: "slow", body: strings.Replace(slow, "NAME", "slow", 1), status: 504, code: "question_failed", reason: "deadline_exceeded", question: "q"},
		{name: "slow-body", body: strings.Replace(slow, "NAME", "slow-body", 1), status: 504, code: "question_failed", reason: "deadline_exceeded", question: "q"},
		{name: "429", status: 429, code: "overloaded", reason: "upstream_rate_limited", retryAfter: "1"},
		{name: "429-retry", status: 429, code: "overloaded", reason: "upstream_rate_limited", retryAfter: "7"},
		{name: "503", status: 503, code: "unavailable", reason: "upstream_unavailable", retryAfter: "1"},
		{name: "503-retry-ms", status: 503, code: "unavailable", reason: "upstream_unavailable", retryAfter: "3"},
		{name: "529", status: 529, code: "overloaded", reason: "upstream_overloaded", retryAfter: "1"},
		{name: "529-retry", status: 529, code: "overloaded", reason: "upstream_overloaded", retryAfter: "5"},
		{name: "529-retry-long", status: 529, code: "overloaded", reason: "upstream_overloaded", retryAfter: "60"},
		{name: "500-json", status: 502, code: "upstream_error", reason: "upstream_server_error"},
		{name: "500-html", status: 502, code: "upstream_error", reason: "upstream_server_error"},
		{name: "400", status: 400, code: "invalid_request", reason: "upstream_invalid_input"},
		{name: "422", status: 422, code: "question_failed", reason: "upstream_invalid_question", question: "q"},
		{name: "401", status: 502, code: "upstream_error", reason: "upstream_refused"},
		{name: "404", status: 502, code: "upstream_error", reason: "upstream_refused"},
		{name: "302", status: 502, code: "upstream_error", reason: "upstream_redirect"},
		{name: "307", status: 502, code: "upstream_error", reason: "upstream_redirect"},
		{name: "invalid-json", status: 502, code: "upstream_error", reason: "invalid_upstream_reply"},
		{name: "truncated-json", status: 502, code: "upstream_error", reason: "invalid_upstream_reply"},
		{name: "nested-json", status: 502, code: "upstream_error", reason: "invalid_upstream_reply"},
		{name: "wrong-member", status: 502, code: "upstream_error", reason: "invalid_upstream_reply"},
		{name: "wrong-usage", status: 502, code: "upstream_error", reason: "invalid_upstream_reply"},
		{name: "no-usage", status: 502, code: "upstream_error", reason: "invalid_upstream_reply"},
		{name: "wrong-question", status: 500, code: "question_failed", reason: "missing_answer", question: "q"},
		{name: "wrong-type", status: 500, code: "question_failed", reason: "noul_not_number", question: "q"},
		{name: "noul-7.5", status: 500, code: "question_failed", reason: "answer_out_of_range", question: "q"},
		{name: "not-an-option", body: choice, status: 500, code: "question_failed", reason: "answer_key_mismatch", question: "team"},
		{name: "big-length", status: 502, code: "upstream_error", reason: "upstream_reply_too_large"},
		{name: "big-chunked", status: 502, code: "upstream_error", reason: "upstream_reply_too_large"},
	}
}

// TestUpstreamFaults runs every fault through the Router's vllm-sr/5.0
// listener, each followed by two ordinary calls on the same route.
func TestUpstreamFaults(t *testing.T) {
	e := newFaultEnv(t)
	readDuring := map[string]int64{} // the bytes the Router read from its upstream during a case
	for _, c := range faultCases() {
		t.Run(c.name, func(t *testing.T) {
			body := c.body
			if body == "" {
				body = `{"model":"` + cmpOr(c.model, "faulty") + `","state":"fault:` + c.name + `",` +
					`"questions":{"q":{"type":"noul","instructions":"Is it?"}}}`
			}
			start, read := time.Now(), e.read.n.Load()
			resp := postNoFollow(t, e.run.URL("public5")+"/v1/systemone", body)
			readDuring[c.name] = e.read.n.Load() - read
			bound := 5 * time.Second // a slow upstream is cut at the 300 ms deadline
			if strings.HasPrefix(c.name, "big-") {
				bound = 20 * time.Second // reading 32 MiB: about 1 s, 11 s under -race
			}
			if took := time.Since(start); took > bound {
				t.Errorf("answered after %v", took)
			}
			checkFault(t, resp, c)
			if c.status == 502 || c.status == 503 {
				if want := `deployment \"` + cmpOr(c.model, "faulty") + `\"`; !strings.Contains(string(resp.body), want) {
					t.Errorf("the error does not name the deployment: %s", resp.body)
				}
			}
			if c.model == "" { // the calls after a fault on the same route get their own answers
				for range 2 {
					id := nextID.Add(1)
					body := `{"model":"faulty","state":"id:` + strconv.Itoa(int(id)) + `","questions":{"q":{"type":"noul","instructions":"Is it?"}}}`
					if got := outcome(postNoFollow(t, e.run.URL("public5")+"/v1/systemone", body), int(id)); got != "own" {
						t.Errorf("an ordinary call after the fault got %s", got)
					}
				}
			}
		})
	}
	t.Run("redirects are never followed", func(t *testing.T) {
		if n := e.up.redirectsFollowed(); n != 0 {
			t.Errorf("the Router followed %d redirects", n)
		}
	})
	// What the Router read, not what the upstream wrote: the kernel's
	// socket buffers take tens of MiB the Router never reads.
	t.Run("the reply limit stops reading early", func(t *testing.T) {
		length, chunked := readDuring["big-length"], readDuring["big-chunked"]
		t.Logf("of 100 MiB the Router read %.3f MiB (length given) and %.3f MiB (chunked)", float64(length)/mib, float64(chunked)/mib)
		if length > 64<<10 {
			t.Errorf("a reply whose length says 100 MiB: the Router read %d bytes of it, want its head only", length)
		}
		if limit := int64(32 * mib); chunked < limit || chunked > limit+mib {
			t.Errorf("a chunked 100 MiB reply: the Router read %d bytes, want the 32 MiB limit and at most 1 MiB more", chunked)
		}
	})
	t.Run("refusals that blame the request are not logged as failures", func(t *testing.T) {
		refused := 0
		for line := range strings.SplitSeq(e.log.String(), "\n") {
			if !strings.Contains(line, "upstream_status=400") && !strings.Contains(line, "upstream_status=422") {
				continue
			}
			refused++
			if !strings.Contains(line, "level=INFO") || !strings.Contains(line, `msg="upstream refused the request"`) {
				t.Errorf("a refusal of the request is logged as %q", line)
			}
		}
		if refused < 2 {
			t.Errorf("%d log lines of the 400 and 422 faults, want 2", refused)
		}
	})
	t.Run("the upstream's words are in the log", func(t *testing.T) {
		if log := e.log.String(); !strings.Contains(log, "FAULT-SECRET-7f3a") || !strings.Contains(log, "upstream call failed") {
			t.Errorf("the log keeps no upstream words:\n%.2000s", log)
		}
	})
}

// TestUpstreamFaultInBatch: one failed call of a batch answers the batch
// as a whole (fail-fast), naming its request as state, while the other
// requests' calls were made; /v1/decisions keeps the failure inside the
// failed question's answer.
func TestUpstreamFaultInBatch(t *testing.T) {
	e := newFaultEnv(t)
	noul := `"questions":{"q":{"type":"noul","instructions":"Is it?"}}`
	batch := `{"model":"faulty","requests":{"a":{"state":"fine",` + noul + `},"b":{"state":"fault:500-json",` + noul + `},` +
		`"c":{"state":"fine too",` + noul + `}}}`
	resp := postNoFollow(t, e.run.URL("public5")+"/v1/systemone/batch", batch)
	checkFault(t, resp, faultCase{status: 502, code: "upstream_error", reason: "upstream_server_error"})
	if got := decodeJSON(t, resp.body); got["state"] != "b" {
		t.Errorf("the failure names state %v, want b: %s", got["state"], resp.body)
	}
	resp = postNoFollow(t, e.run.URL("public5")+"/v1/systemone/batch", strings.Replace(batch, "fault:500-json", "fault:529-retry", 1))
	checkFault(t, resp, faultCase{status: 529, code: "overloaded", reason: "upstream_overloaded", retryAfter: "5"})

	one := `{"model":"faulty","state":"fault:302",` + noul + `}`
	resp = postNoFollow(t, e.run.URL("public5")+"/v1/decisions", one)
	if resp.status != 200 || bytes.Contains(resp.body, []byte("FAULT-SECRET")) || !strings.Contains(string(resp.body), `"reason":"upstream_redirect"`) {
		t.Errorf("/v1/decisions: %d %s", resp.status, resp.body)
	}
}

// TestLLMPassThroughRedirect: the LLM pass-through answers an upstream's
// redirect 502 upstream_redirect, relaying neither its Location nor its
// body, and never follows it.
func TestLLMPassThroughRedirect(t *testing.T) {
	e := newFaultEnv(t)
	resp := postNoFollow(t, e.run.URL("public5")+"/v1/chat/completions", `{"model":"gpt-4o","messages":[]}`)
	if resp.status != 502 || resp.header.Get("Location") != "" || bytes.Contains(resp.body, []byte("FAULT-SECRET")) ||
		!strings.Contains(string(resp.body), "upstream_redirect") {
		t.Errorf("got %d Location %q %s", resp.status, resp.header.Get("Location"), resp.body)
	}
	if n := e.up.redirectsFollowed(); n != 0 {
		t.Errorf("the redirect was followed %d times", n)
	}
}

// checkFault checks an error answer against c.
func checkFault(t *testing.T, resp response, c faultCase) {
	t.Helper()
	got := decodeJSON(t, resp.body)
	if resp.status != c.status || got["code"] != c.code || got["reason"] != c.reason {
		t.Errorf("got %d code %v reason %v, want %d %s %s: %s", resp.status, got["code"], got["reason"], c.status, c.code, c.reason, resp.body)
	}
	if q, _ := got["question"].(string); q != c.question {
		t.Errorf("question %q, want %q", q, c.question)
	}
	if ra := resp.header.Get("Retry-After"); ra != c.retryAfter {
		t.Errorf("Retry-After %q, want %q", ra, c.retryAfter)
	}
	if bytes.Contains(resp.body, []byte("FAULT-SECRET")) || bytes.Contains(resp.body, []byte("db7.internal")) ||
		bytes.Contains(resp.body, []byte("Traceback")) {
		t.Errorf("the client got the upstream's words: %s", resp.body)
	}
	for k, vs := range resp.header {
		if strings.Contains(strings.Join(vs, " "), "FAULT-SECRET") {
			t.Errorf("header %s carries the upstream's words", k)
		}
	}
}

// nextID numbers the suite's ordinary calls.
var nextID atomic.Int32

// postNoFollow posts body to url with a client that follows no redirect,
// so a redirect the Router relayed would show as one.
func postNoFollow(t *testing.T, url, body string) response {
	t.Helper()
	client := &http.Client{Timeout: 20 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return response{status: resp.StatusCode, header: resp.Header, body: out}
}

func cmpOr(s, dflt string) string {
	if s == "" {
		return dflt
	}
	return s
}

// readCounter dials the Router's upstream connections and counts the
// bytes read from them.
type readCounter struct{ n atomic.Int64 }

func (c *readCounter) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	conn, err := (&net.Dialer{}).DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	return &countedConn{Conn: conn, n: &c.n}, nil
}

type countedConn struct {
	net.Conn
	n *atomic.Int64
}

func (c *countedConn) Read(p []byte) (int, error) {
	k, err := c.Conn.Read(p)
	c.n.Add(int64(k))
	return k, err
}
