package router_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vllm-sr/systemone/runtime/front"
	"github.com/vllm-sr/systemone/runtime/router"
	"github.com/vllm-sr/systemone/runtime/testkit"
)

// accessLines are the access lines ("msg":"request") of logs, each a
// JSON object whose keys are distinct (LogBuffer.Lines).
func accessLines(t *testing.T, logs *testkit.LogBuffer) []map[string]any {
	t.Helper()
	logs.Lines(t) // each line one JSON object, no key repeated
	var out []map[string]any
	for raw := range bytes.Lines(bytes.TrimSpace(logs.Bytes())) {
		var line map[string]any
		if err := json.Unmarshal(raw, &line); err != nil {
			t.Fatal(err)
		}
		if line["msg"] == "request" {
			out = append(out, line)
		}
	}
	return out
}

// accessLine is the access line of the request whose id is id.
func accessLine(t *testing.T, logs *testkit.LogBuffer, id string) map[string]any {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		for _, line := range accessLines(t, logs) {
			if line["request_id"] == id {
				return line
			}
		}
	}
	t.Fatalf("no access line of request %s:\n%s", id, logs)
	return nil
}

// rawPost sends one HTTP/1.1 request on a connection of its own, with
// the header lines as written (so a user agent net/http's client would
// refuse to send goes as it is), and returns the answer's status and body
// and the connection's local address.
func rawPost(t *testing.T, addr, path, body string, header ...string) (int, string, string) {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	req := "POST " + path + " HTTP/1.1\r\nHost: router\r\nContent-Type: application/json\r\nConnection: close\r\n" +
		"Content-Length: " + strconv.Itoa(len(body)) + "\r\n" + strings.Join(header, "\r\n") + "\r\n\r\n" + body
	if _, err := io.WriteString(c, req); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(out), c.LocalAddr().String()
}

// Each access line carries the answer's reason (a spec word, "" for
// none), the client's address (the TCP peer), the request's and the
// answer's body bytes, and the user agent, cut at 256 bytes with every
// character outside printable ASCII written as '?'; the runtime's line
// (the same front) carries them too.
func TestAccessLineAttributes(t *testing.T) {
	p := newProd(t, router.Options{})
	addr := p.run.Addr("edge").String()
	status, answer, client := rawPost(t, addr, "/v1/systemone", velaRequest, "User-Agent: probe-client/1.0 (linux)", "X-Request-Id: access-ok")
	if status != 200 {
		t.Fatalf("%d %s", status, answer)
	}
	line := accessLine(t, p.logs, "access-ok")
	for key, want := range map[string]any{"status": 200.0, "reason": "", "code": "", "client_address": client, "user_agent": "probe-client/1.0 (linux)",
		"request_bytes": float64(len(velaRequest)), "response_bytes": float64(len(answer))} {
		if line[key] != want {
			t.Errorf("%s = %#v, want %#v", key, line[key], want)
		}
	}

	unknown := strings.Replace(velaRequest, "local-vela", "no-such-model", 1)
	odd := "odd\tagent/\u00e9\xff" + strings.Repeat("x", 300)
	status, answer, client = rawPost(t, addr, "/v1/systemone", unknown, "User-Agent: "+odd, "X-Request-Id: access-refused")
	var refusal struct{ Reason string }
	if err := json.Unmarshal([]byte(answer), &refusal); err != nil || status != 404 || refusal.Reason == "" {
		t.Fatalf("%d %s", status, answer)
	}
	line = accessLine(t, p.logs, "access-refused")
	wantUA := "odd?agent/??" + strings.Repeat("x", 256-len("odd\tagent/\u00e9\xff"))
	for key, want := range map[string]any{"status": 404.0, "reason": refusal.Reason, "client_address": client, "user_agent": wantUA,
		"request_bytes": float64(len(unknown)), "response_bytes": float64(len(answer)), "level": "WARN"} {
		if line[key] != want {
			t.Errorf("refused: %s = %#v, want %#v", key, line[key], want)
		}
	}

	resp := postWith(t, p.url("/v1/chat/completions"), `{"model":"gpt-4o","messages":[]}`, "X-Request-Id", "access-llm", "User-Agent", "llm-sdk/2")
	line = accessLine(t, p.logs, "access-llm")
	if resp.StatusCode != 200 || line["user_agent"] != "llm-sdk/2" || line["request_bytes"] != float64(len(`{"model":"gpt-4o","messages":[]}`)) ||
		line["response_bytes"] != float64(len(`{"id":"chatcmpl-1","object":"chat.completion","model":"gpt-4o","choices":[]}`)) {
		t.Errorf("LLM: %d %v", resp.StatusCode, line)
	}

	// The runtime's last decision call: the readiness rounds' listing
	// checks (GET /v1/models) may come after it.
	var decided map[string]any
	for _, l := range accessLines(t, p.runtimeLog) {
		if l["method"] == "POST" {
			decided = l
		}
	}
	if decided == nil {
		t.Fatal("the runtime logged no access line of a decision call")
	}
	for _, key := range []string{"reason", "client_address", "user_agent", "request_bytes", "response_bytes"} {
		if _, ok := decided[key]; !ok {
			t.Errorf("the runtime's access line has no %s: %v", key, decided)
		}
	}
	if n, _ := decided["request_bytes"].(float64); n <= 0 {
		t.Errorf("the runtime read no request bytes: %v", decided)
	}
}

// A request the shutdown timeout cuts, whose client gets no answer, is
// logged as cut (status 0, cut shutdown_timeout, ERROR), never with the
// status its handler wrote after the cut (the 502 or 503 of an upstream
// call the cut cancelled); the drain says it ran out of time.
func TestShutdownCutIsLogged(t *testing.T) {
	p := newProd(t, router.Options{Timeouts: front.Timeouts{ShutdownTimeout: 200 * time.Millisecond}})
	hold := make(chan struct{})
	defer close(hold)
	p.hold.Store(&hold)
	type result struct {
		status int
		err    error
	}
	got := make(chan result, 1)
	go func() {
		req, _ := http.NewRequest(http.MethodPost, p.url("/v1/chat/completions"), strings.NewReader(`{"model":"gpt-4o","messages":[]}`))
		req.Header.Set("X-Request-Id", "cut-me")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			got <- result{err: err}
			return
		}
		resp.Body.Close()
		got <- result{status: resp.StatusCode}
	}()
	<-p.entered
	p.stop()
	if err := p.run.Wait(); err == nil || !strings.Contains(err.Error(), "timed out") {
		t.Errorf("the drain: %v, want a shutdown timeout", err)
	}
	p.stopErrOK = true
	if r := <-got; r.err == nil {
		t.Fatalf("the cut client got an answer: %d", r.status)
	}
	line := accessLine(t, p.logs, "cut-me")
	if line["status"] != 0.0 || line["cut"] != "shutdown_timeout" || line["level"] != "ERROR" || line["code"] != "" || line["reason"] != "" {
		t.Errorf("the cut request's line: %v", line)
	}
}
