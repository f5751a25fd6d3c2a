package router_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/runtime/router"
	"github.com/vllm-sr/systemone/runtime/testkit"
)

// The rule for members no specification defines in an upstream's reply,
// over real HTTP through the Router: a systemone/0.2 upstream's (gateways
// add id, provider, usage.cost; the hosted API stats and assets_used) are
// ignored and never relayed; a vllm-sr/5.0 upstream's, a server of the
// same release, make its reply one its schema does not define: 502
// invalid_upstream_reply saying where (the level, the request's own
// names), the member itself, the upstream's word, in the log only.

const membersConfig = `listeners:
  - name: public5
    address: 127.0.0.1:{{P5}}
    apis:
      systemone: {schema: vllm-sr/5.0}
deployments:
  gateway:
    provider: systemone
    endpoint: {{UP}}/v1/systemone
    model: d3
    schema: systemone/0.2
  serve50:
    provider: systemone
    endpoint: {{UP}}/v1/systemone
    model: d3
    schema: vllm-sr/5.0
`

// membersUpstream answers a systemone/0.2 call with the members a gateway
// adds, and a vllm-sr/5.0 batch call with the reply its request's state
// names (membersReplies), for the one request of the call.
func membersUpstream(t *testing.T) *httptest.Server {
	t.Helper()
	item := regexp.MustCompile(`"requests":\{"([^"]+)"`)
	state := regexp.MustCompile(`"state":"([a-z0-9-]+)"`)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		switch {
		case r.Method == http.MethodGet && r.URL.Path == "/health":
			reply(w, 200, `{"status":"ok","version":"5.0"}`)
		case r.Method == http.MethodGet:
			reply(w, 200, `{"models":[{"name":"d3","description":"a test upstream","release_date":"2026-01-01"}]}`)
		case r.URL.Path == "/v1/systemone":
			reply(w, 200, gatewayReply)
		default:
			name, s := item.FindSubmatch(body), state.FindSubmatch(body)
			if name == nil || s == nil {
				reply(w, 400, `{"detail":"no request"}`)
				return
			}
			reply(w, 200, `{"model":"d3","responses":{"`+string(name[1])+`":`+membersReplies[string(s[1])]+`},`+
				`"usage":{"input_tokens":1,"output_tokens":0}}`)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// gatewayReply is a systemone/0.2 response with what gateways and the
// hosted API add: upstream words no client may get.
const gatewayReply = `{"id":"gen-SECRET-1","provider":"SECRET-gw","model":"d3","answers":{` +
	`"q":{"type":"noul","noul":0.82,"stats":{"SECRET":1},"abstain_probabilty":0.1}},` +
	`"usage":{"input_tokens":4,"output_tokens":0,"cost":0.0001},"assets_used":"SECRET"}`

// membersReplies are a vllm-sr/5.0 upstream's responses, by the state of
// the request they answer.
var membersReplies = map[string]string{
	"fine": `{"model":"d3","answers":{"q":{"type":"noul","noul":0.5,"abstain_probability":0.1}},"usage":{"input_tokens":1,"output_tokens":0}}`,
	"misspelt-answer": `{"model":"d3","answers":{"q":{"type":"noul","noul":0.5,"abstain_probabilty":0.1}},` +
		`"usage":{"input_tokens":1,"output_tokens":0}}`,
	"misspelt-response": `{"model":"d3","answers":{"q":{"type":"noul","noul":0.5}},"usage":{"input_tokens":1,"output_tokens":0},"treshholds":{"q":0.5}}`,
	"misspelt-usage":    `{"model":"d3","answers":{"q":{"type":"noul","noul":0.5}},"usage":{"input_tokens":1,"output_tokens":0,"cost":0.1}}`,
	"unasked-misspelt": `{"model":"d3","answers":{"q":{"type":"noul","noul":0.5},"zz_unasked":{"type":"noul","noul":0.5,"zz_extra":1}},` +
		`"usage":{"input_tokens":1,"output_tokens":0}}`,
}

func TestUpstreamReplyMembersNoSpecDefines(t *testing.T) {
	up := membersUpstream(t)
	cfg, err := router.LoadConfig(writeConfig(t, membersConfig, map[string]string{"P5": freePort(t), "UP": up.URL}))
	if err != nil {
		t.Fatal(err)
	}
	run, logs := startRouterLogged(t, cfg, router.Options{})
	url := run.URL("public5") + "/v1/systemone"
	request := func(model, state string) string {
		return `{"model":"` + model + `","state":"` + state + `","questions":{"q":{"type":"noul","instructions":"Is it?"}}}`
	}

	t.Run("systemone/0.2: ignored, never relayed", func(t *testing.T) {
		resp := postNoFollow(t, url, request("gateway", "fine"))
		if resp.status != 200 {
			t.Fatalf("%d %s", resp.status, resp.body)
		}
		got := decodeJSON(t, resp.body)
		for _, member := range []string{"id", "provider", "assets_used"} {
			if _, ok := got[member]; ok {
				t.Errorf("the answer relays the upstream's %s: %s", member, resp.body)
			}
		}
		answer, _ := got["answers"].(map[string]any)["q"].(map[string]any)
		if answer["noul"] != 0.82 || len(answer) != 2 {
			t.Errorf("answer %v, want the type and the noul alone", answer)
		}
		if usage, _ := got["usage"].(map[string]any); len(usage) != 2 {
			t.Errorf("usage %v, want the two token counts alone", usage)
		}
		if strings.Contains(string(resp.body), "SECRET") || strings.Contains(string(resp.body), "abstain_probabilty") {
			t.Errorf("the client got the upstream's words: %s", resp.body)
		}
	})

	t.Run("vllm-sr/5.0: the reply is refused saying where; the member goes to the log", func(t *testing.T) {
		for state, c := range map[string]struct{ where, member string }{
			"misspelt-answer":   {"(unknown_member), in answers.q", "answers.q.abstain_probabilty"},
			"misspelt-response": {"(unknown_member), in the response", "treshholds"},
			"misspelt-usage":    {"(unknown_member), in usage", "usage.cost"},
			"unasked-misspelt":  {"(unknown_member), in answers", "answers.zz_unasked.zz_extra"},
		} {
			before := len(logLines(t, logs))
			resp := postNoFollow(t, url, request("serve50", state))
			checkFault(t, resp, faultCase{status: 502, code: "upstream_error", reason: "invalid_upstream_reply"})
			msg, _ := decodeJSON(t, resp.body)["detail"].(string)
			if !strings.HasSuffix(msg, c.where) || !strings.Contains(msg, `deployment "serve50"`) {
				t.Errorf("%s: the error does not name the deployment, the reason and %q: %s", state, c.where, resp.body)
			}
			if strings.Contains(string(resp.body), "zz_") || strings.Contains(string(resp.body), "probabilty") ||
				strings.Contains(string(resp.body), "treshholds") || strings.Contains(string(resp.body), "cost") {
				t.Errorf("%s: the client got the upstream's words: %s", state, resp.body)
			}
			logged := false
			for _, line := range logLines(t, logs)[before:] {
				logged = logged || line["msg"] == "upstream reply breaks its schema" && line["deployment"] == "serve50" &&
					strings.Contains(fmt.Sprint(line["upstream_err"]), c.member)
			}
			if !logged {
				t.Errorf("%s: no log line names the upstream's member %s", state, c.member)
			}
		}
	})

	t.Run("vllm-sr/5.0: a reply its schema defines is relayed whole", func(t *testing.T) {
		resp := postNoFollow(t, url, request("serve50", "fine"))
		if resp.status != 200 || !strings.Contains(string(resp.body), `"abstain_probability":0.1`) {
			t.Errorf("%d %s", resp.status, resp.body)
		}
	})
}

// logLines are the JSON log lines written so far.
func logLines(t *testing.T, logs *testkit.LogBuffer) []map[string]any {
	t.Helper()
	var out []map[string]any
	for raw := range bytes.Lines(bytes.TrimSpace(logs.Bytes())) {
		var line map[string]any
		if err := json.Unmarshal(raw, &line); err != nil {
			t.Fatal(err)
		}
		out = append(out, line)
	}
	return out
}
