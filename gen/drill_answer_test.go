package gen

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The answer side of TestSpecDrill: a passive answer member and a passive
// response member the drill adds to the copy's extension spec (never_sent:
// a standard server never sends them).
var drillAnswerFields = []drillField{
	{"  response:\n", `    - name: drill_answer
      type: string
      since: "5.0"
      families: all
      on_systemone_0_2: never_sent
      passive: true
      description: The drill's new answer member.
`},
	{"  routing:\n", `    - name: drill_trace
      type: object
      since: "5.0"
      families: all
      on_systemone_0_2: never_sent
      passive: true
      description: The drill's new response member.
`},
}

// drillAnswer is a vllm-sr/5.0 upstream's answer with the passive answer
// member, and drillTrace its response's passive member, as the client of
// the Router must get them, byte for byte.
const (
	drillAnswer = `{"type":"noul","noul":0.5,"drill_answer":"a1"}`
	drillTrace  = `"drill_trace":{"k":[1,"two"]}`
)

// drillReplies are the fake upstream's responses, by the state of the
// request they answer.
var drillReplies = map[string]string{
	"fine":              `{"model":"d3","answers":{"q":` + drillAnswer + `},"usage":{"input_tokens":1,"output_tokens":0},` + drillTrace + `}`,
	"misspelt-answer":   `{"model":"d3","answers":{"q":{"type":"noul","noul":0.5,"drill_answerx":"a1"}},"usage":{"input_tokens":1,"output_tokens":0}}`,
	"misspelt-response": `{"model":"d3","answers":{"q":{"type":"noul","noul":0.5}},"usage":{"input_tokens":1,"output_tokens":0},"drill_tracex":{}}`,
}

// drillUpstream is the fake upstream: a vllm-sr/5.0 server's batch
// endpoint answering each call's one request with the reply its state
// names, and on /v1/systemone a systemone/0.2 server that sends the
// passive members too (which the standard does not define).
func drillUpstream(t *testing.T) *httptest.Server {
	t.Helper()
	item := regexp.MustCompile(`"requests":\{"([^"]+)"`)
	state := regexp.MustCompile(`"state":"([a-z-]+)"`)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.Method == http.MethodGet && r.URL.Path == "/health":
			_, _ = io.WriteString(w, `{"status":"ok","version":"5.0"}`)
		case r.Method == http.MethodGet:
			_, _ = io.WriteString(w, `{"models":[{"name":"d3","description":"the drill's upstream","release_date":"2026-01-01"}]}`)
		case r.URL.Path == "/v1/systemone":
			_, _ = io.WriteString(w, drillReplies["fine"])
		default:
			name, s := item.FindSubmatch(body), state.FindSubmatch(body)
			if name == nil || s == nil {
				w.WriteHeader(http.StatusBadRequest)
				_, _ = io.WriteString(w, `{"detail":"no request"}`)
				return
			}
			_, _ = io.WriteString(w, `{"model":"d3","responses":{"`+string(name[1])+`":`+drillReplies[string(s[1])]+`},`+
				`"usage":{"input_tokens":1,"output_tokens":0}}`)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// drillAnswerSide runs the copy's Router binary in front of the fake
// upstream: its vllm-sr/5.0 client gets the passive members unchanged, in
// place; from a systemone/0.2 upstream, which the standard does not let
// send them, they are ignored and never relayed; and a misspelling from
// the vllm-sr/5.0 upstream is 502 invalid_upstream_reply saying where (the
// level, the request's own names), never the misspelt member, the
// upstream's word, which goes to the log.
func drillAnswerSide(t *testing.T, bin string) {
	up := drillUpstream(t)
	base := startRouterBinary(t, bin, up.URL)
	request := func(model, state string) string {
		return `{"model":"` + model + `","state":"` + state + `","questions":{"q":{"type":"noul","instructions":"Is it?"}}}`
	}
	status, reply := post(t, base, request("serve50", "fine"))
	if status != http.StatusOK || !strings.Contains(reply, `"answers":{"q":`+drillAnswer+`}`) || !strings.Contains(reply, drillTrace) {
		t.Errorf("the 5.0 client did not get the passive members unchanged (%d):\n got %s\nwant %s and %s", status, reply, drillAnswer, drillTrace)
	}
	status, reply = post(t, base, request("gateway", "fine"))
	if status != http.StatusOK || strings.Contains(reply, "drill_") {
		t.Errorf("a systemone/0.2 upstream's passive members reached the client (%d): %s", status, reply)
	}
	for state, where := range map[string]string{"misspelt-answer": "(unknown_member), in answers.q", "misspelt-response": "(unknown_member), in the response"} {
		status, reply := post(t, base, request("serve50", state))
		if status != http.StatusBadGateway || !strings.Contains(reply, "invalid_upstream_reply") || !strings.Contains(reply, where) || strings.Contains(reply, "drill_") {
			t.Errorf("%s answered %d, not 502 invalid_upstream_reply saying %q without the upstream's member: %s", state, status, where, reply)
		}
	}
}

// startRouterBinary starts the copy's vllm-sr serve with a vllm-sr/5.0
// listener and two deployments of the upstream, one spoken to as
// vllm-sr/5.0 and one as systemone/0.2, and waits for its listener, at
// most 30 seconds.
func startRouterBinary(t *testing.T, bin, upstream string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	config := filepath.Join(t.TempDir(), "router.yaml")
	body := "listeners:\n  - name: public5\n    address: " + addr + "\n    apis:\n      systemone: {schema: vllm-sr/5.0}\n" +
		"deployments:\n" +
		"  serve50:\n    provider: systemone\n    endpoint: " + upstream + "/v1/systemone\n    model: d3\n    schema: vllm-sr/5.0\n" +
		"  gateway:\n    provider: systemone\n    endpoint: " + upstream + "/v1/systemone\n    model: d3\n    schema: systemone/0.2\n"
	if err := os.WriteFile(config, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, filepath.Join(bin, "vllm-sr"), "serve", "--config", config)
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	logs := make(chan string, 1)
	go func() {
		var all strings.Builder
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			all.WriteString(sc.Text() + "\n")
		}
		logs <- all.String()
	}()
	t.Cleanup(func() { cancel(); _ = cmd.Wait() })
	base := "http://" + addr
	client := &http.Client{Timeout: time.Second}
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		resp, err := client.Get(base + "/health")
		if err != nil {
			continue
		}
		var h struct{ Status string }
		_ = json.NewDecoder(resp.Body).Decode(&h)
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			return base
		}
	}
	cancel()
	t.Fatalf("the Router did not listen within 30 s:\n%s", <-logs)
	return ""
}
