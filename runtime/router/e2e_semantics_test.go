package router_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/vllm-sr/systemone/runtime/testkit"
)

// The subtests below run after the metrics subtest, whose counters they
// would otherwise change.

// questionsWithNoAnswer are three questions the recorder answers except
// "b" and "c", which its 200 leaves out: "b" is the first failure in
// request order.
const questionsWithNoAnswer = `"questions":{"a":{"type":"noul","instructions":"Is all well?"},` +
	`"b":{"type":"noul","instructions":"` + testkit.NoAnswerMarker + ` is it urgent?"},` +
	`"c":{"type":"noul","instructions":"` + testkit.NoAnswerMarker + ` is it late?"}}`

// testQuestionFailed: a question the upstream could not answer fails the
// whole /v1/systemone and /v1/systemone/batch request with question_failed
// and its kind's status, on both listener schemas; /v1/decisions keeps
// the error in the question's answer of a 200.
func testQuestionFailed(t *testing.T, e *env) {
	single := `{"model":"gateway-d3","state":"the printer is on fire",` + questionsWithNoAnswer + `}`
	status, out := post(t, e.url("public5", "/v1/systemone"), single)
	got := decodeJSON(t, out)
	if status != 500 || got["code"] != "question_failed" || got["question"] != "b" || got["reason"] != "missing_answer" ||
		got["answers"] != nil || got["state"] != nil {
		t.Fatalf("5.0 /v1/systemone: %d %s", status, out)
	}
	if _, isText := got["detail"].(string); !isText || !strings.Contains(got["detail"].(string), `question "b"`) {
		t.Fatalf("the detail does not name the question: %s", out)
	}

	batch := `{"model":"gateway-d3","requests":{"r1":{"state":"fine","questions":{"a":{"type":"noul","instructions":"Is all well?"}}},` +
		`"r2":{"state":"broken",` + questionsWithNoAnswer + `},"r3":{"state":"also broken",` + questionsWithNoAnswer + `}}}`
	status, out = post(t, e.url("public5", "/v1/systemone/batch"), batch)
	got = decodeJSON(t, out)
	if status != 500 || got["code"] != "question_failed" || got["state"] != "r2" || got["question"] != "b" || got["responses"] != nil {
		t.Fatalf("5.0 /v1/systemone/batch: %d %s", status, out)
	}

	status, out = post(t, e.url("legacy4", "/v1/systemone"), single)
	got = decodeJSON(t, out)
	if status != 500 || got["code"] != "question_failed" || got["question"] != "b" || got["answers"] != nil || got["error"] == nil {
		t.Fatalf("4.0 /v1/systemone: %d %s", status, out)
	}
	validate40(t, "/v1/systemone", single, status, out)

	states := `{"model":"gateway-d3","states":{"s1":"fine","s2":"broken"},` + questionsWithNoAnswer + `}`
	status, out = post(t, e.url("legacy4", "/v1/systemone"), states)
	got = decodeJSON(t, out)
	if status != 500 || got["code"] != "question_failed" || got["state"] != "s1" || got["question"] != "b" || got["responses"] != nil {
		t.Fatalf("4.0 states on /v1/systemone: %d %s", status, out)
	}
	validate40(t, "/v1/systemone", states, status, out)

	status, out = post(t, e.url("public5", "/v1/decisions"), single)
	var decided struct {
		Answers map[string]struct {
			Noul  *float64
			Error string
		}
	}
	if err := json.Unmarshal(out, &decided); err != nil || status != 200 {
		t.Fatalf("/v1/decisions: %d %s", status, out)
	}
	if a, b := decided.Answers["a"], decided.Answers["b"]; a.Noul == nil || b.Error != "invalid_model_output" {
		t.Fatalf("/v1/decisions carries each failure in its answer: %s", out)
	}
}

// testRetryAfter: an upstream's 529 (Retry-After-Ms) or 429 (Retry-After)
// that answers the client's request is passed on as Retry-After in whole
// seconds rounded up; a failure that does not answer the request (on
// /v1/decisions) and a success send none.
func testRetryAfter(t *testing.T, e *env) {
	overloaded := `{"model":"gateway-d3","state":"` + testkit.OverloadedMarker + `","questions":{"ok":{"type":"noul","instructions":"Is all well?"}}}`
	resp := postResp(t, e.url("public5", "/v1/systemone"), overloaded)
	if resp.status != 529 || resp.header.Get("Retry-After") != "2" || decodeJSON(t, resp.body)["code"] != "overloaded" {
		t.Fatalf("529 with Retry-After-Ms 1500: %d Retry-After %q %s", resp.status, resp.header.Get("Retry-After"), resp.body)
	}
	limited := `{"model":"gateway-d3","requests":{"r1":{"state":"fine","questions":{"ok":{"type":"noul","instructions":"Is all well?"}}},` +
		`"r2":{"state":"` + testkit.RateLimitedMarker + `","questions":{"ok":{"type":"noul","instructions":"Is all well?"}}}}}`
	resp = postResp(t, e.url("public5", "/v1/systemone/batch"), limited)
	if got := decodeJSON(t, resp.body); resp.status != 429 || resp.header.Get("Retry-After") != "3" || got["state"] != "r2" {
		t.Fatalf("429 with Retry-After 3 in a batch: %d Retry-After %q %s", resp.status, resp.header.Get("Retry-After"), resp.body)
	}
	resp = postResp(t, e.url("legacy4", "/v1/systemone"), overloaded)
	if resp.status != 529 || resp.header.Get("Retry-After") != "2" {
		t.Fatalf("4.0 listener: %d Retry-After %q %s", resp.status, resp.header.Get("Retry-After"), resp.body)
	}
	resp = postResp(t, e.url("public5", "/v1/decisions"), overloaded)
	if resp.status != 200 || resp.header.Get("Retry-After") != "" || !strings.Contains(string(resp.body), `"unavailable"`) {
		t.Fatalf("/v1/decisions keeps the failure in the answer: %d Retry-After %q %s", resp.status, resp.header.Get("Retry-After"), resp.body)
	}
	resp = postResp(t, e.url("public5", "/v1/systemone"), strings.Replace(overloaded, testkit.OverloadedMarker, "fine", 1))
	if resp.status != 200 || resp.header.Get("Retry-After") != "" {
		t.Fatalf("a success: %d Retry-After %q", resp.status, resp.header.Get("Retry-After"))
	}
}

// testMaxDeadline: public5's max_deadline_ms (5000) lowers a client's
// larger options.deadline_ms in what a vllm-sr/5.0 deployment receives,
// and keeps a smaller one; a lowered /v1/decisions request no longer goes
// on with the client's bytes.
func testMaxDeadline(t *testing.T, e *env) {
	for _, c := range []struct{ asked, want int64 }{{60000, 5000}, {1500, 1500}, {5000, 5000}} {
		before := len(e.tap.Got("/v1/systemone/batch"))
		body := fmt.Sprintf(`{"model":"vllm-sr/decision1","state":"hello","questions":{"ok":{"type":"noul","instructions":"Is all well?"}},"options":{"deadline_ms":%d}}`, c.asked)
		if status, out := post(t, e.url("public5", "/v1/systemone"), body); status != 200 {
			t.Fatalf("deadline %d: %d %s", c.asked, status, out)
		}
		sent := e.tap.Got("/v1/systemone/batch")[before:]
		if len(sent) != 1 || sentDeadline(t, sent[0]) != c.want {
			t.Fatalf("deadline %d: the deployment got %q, want deadline_ms %d", c.asked, sent, c.want)
		}

		before = len(e.tap.Got("/v1/decisions"))
		if status, out := post(t, e.url("public5", "/v1/decisions"), body); status != 200 {
			t.Fatalf("/v1/decisions deadline %d: %d %s", c.asked, status, out)
		}
		sent = e.tap.Got("/v1/decisions")[before:]
		if len(sent) != 1 || sentDeadline(t, sent[0]) != c.want {
			t.Fatalf("/v1/decisions deadline %d: the deployment got %q, want deadline_ms %d", c.asked, sent, c.want)
		}
		if c.asked == c.want && string(sent[0]) != body {
			t.Fatalf("a deadline within the cap keeps the client's bytes: %q", sent[0])
		}
	}
}

func sentDeadline(t *testing.T, body []byte) int64 {
	t.Helper()
	var v struct {
		Options struct {
			DeadlineMs int64 `json:"deadline_ms"`
		}
	}
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	return v.Options.DeadlineMs
}

// testUnknownModel: a model that is no deployment or pool key is 404
// model_not_found in the client's schema; the message lists the keys the
// listener serves and never the request's value.
func testUnknownModel(t *testing.T, e *env) {
	const asked = "no-such-model-7f3a"
	body := `{"model":"` + asked + `","state":"x","questions":{"ok":{"type":"noul","instructions":"Is all well?"}}}`
	status, out := post(t, e.url("public5", "/v1/systemone"), body)
	got := decodeJSON(t, out)
	detail, _ := got["detail"].(string)
	if status != 404 || got["code"] != "model_not_found" || got["reason"] != "unknown_model" || strings.Contains(string(out), asked) ||
		!strings.Contains(detail, `"gateway-d3", "gateway-text", "local-vela", "vllm-sr/auto", "vllm-sr/decision1"`) {
		t.Fatalf("5.0: %d %s", status, out)
	}
	status, out = post(t, e.url("legacy4", "/v1/systemone"), body)
	got = decodeJSON(t, out)
	detail, _ = got["detail"].(string)
	if status != 404 || got["code"] != "model_not_found" || got["error"] == nil || strings.Contains(string(out), asked) ||
		!strings.HasSuffix(detail, `listener "legacy4" serves: "gateway-d3"`) {
		t.Fatalf("4.0: %d %s", status, out)
	}
	validate40(t, "/v1/systemone", body, status, out)
	status, out = post(t, e.url("legacy4", "/v1/systemone"), strings.Replace(body, asked, "local-vela", 1))
	if got := decodeJSON(t, out); status != 404 || got["reason"] != "model_not_served" {
		t.Fatalf("a configured model the listener does not serve: %d %s", status, out)
	}
}

// testBodyLimit: a body over 32 MiB is 413 request_too_large, decided from
// Content-Length before any byte of the body is sent, and for a body of
// unknown length as soon as the limit is passed, while the client is
// still sending.
func testBodyLimit(t *testing.T, e *env) {
	const limit = 32 << 20
	for _, lst := range []string{"public5", "legacy4"} {
		reply := rawExchange(t, e.run.Addr(lst).String(),
			fmt.Sprintf("POST /v1/systemone HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", limit+1), nil)
		if reply.status != 413 || decodeJSON(t, reply.body)["code"] != "request_too_large" || decodeJSON(t, reply.body)["limit"] != float64(limit) ||
			decodeJSON(t, reply.body)["reason"] != "body_too_large" {
			t.Fatalf("%s, Content-Length over the limit: %d %s", lst, reply.status, reply.body)
		}
		// Chunked: 40 MiB of chunks offered, the last chunk never sent.
		reply = rawExchange(t, e.run.Addr(lst).String(),
			"POST /v1/systemone HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n",
			chunks(40<<20))
		if reply.status != 413 || decodeJSON(t, reply.body)["code"] != "request_too_large" || !reply.close {
			t.Fatalf("%s, chunked over the limit: %d close=%v %s", lst, reply.status, reply.close, reply.body)
		}
	}
	within := `{"model":"gateway-d3","state":"` + strings.Repeat("a", 1<<20) + `","questions":{"ok":{"type":"noul","instructions":"Is all well?"}}}`
	if status, out := post(t, e.url("public5", "/v1/systemone"), within); status != 200 {
		t.Fatalf("a 1 MiB body: %d %s", status, out)
	}
}

type exchange struct {
	status int
	close  bool
	body   []byte
}

// rawExchange writes head, then streams body (if any) until the reply
// comes or the server stops reading, and reads the reply. It fails when
// the reply does not come within 10 s, which a server waiting for the
// rest of the body would cause.
func rawExchange(t *testing.T, addr, head string, body io.Reader) exchange {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(conn, head); err != nil {
		t.Fatal(err)
	}
	if body != nil {
		go func() { _, _ = io.Copy(conn, body) }()
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no reply: %v", err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return exchange{status: resp.StatusCode, close: resp.Close, body: out}
}

// chunks is n bytes of HTTP/1.1 chunks of 64 KiB, without the last chunk.
func chunks(n int) io.Reader {
	const size = 64 << 10
	chunk := fmt.Sprintf("%x\r\n%s\r\n", size, strings.Repeat("x", size))
	readers := make([]io.Reader, n/size)
	for i := range readers {
		readers[i] = strings.NewReader(chunk)
	}
	return io.MultiReader(readers...)
}

type response struct {
	status int
	header http.Header
	body   []byte
}

func postResp(t *testing.T, url, body string) response {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return response{status: resp.StatusCode, header: resp.Header, body: out}
}
