package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
)

// exampleFile is the configuration guide's complete example.
const exampleFile = "../../docs/examples/router.yaml"

// serveExample serves docs/examples/router.yaml as shipped but for the
// addresses a test may not use: each listener on a free loopback port,
// both LLM upstreams at llm, the gateway deployment (which the jailbreak
// rule asks) at gateway, and local-vela and the partner's scorer at a
// port where nothing listens. Every replaced string must be in the file,
// so the test follows the example. It returns the public listener's URL.
func serveExample(t *testing.T, llm, gateway string) string {
	t.Helper()
	data, err := os.ReadFile(exampleFile)
	if err != nil {
		t.Fatal(err)
	}
	config := string(data)
	for shipped, local := range map[string]string{
		"address: 0.0.0.0:8080":                                 "address: 127.0.0.1:0",
		"address: 127.0.0.1:8081":                               "address: 127.0.0.1:0",
		"address: 127.0.0.1:8082":                               "address: 127.0.0.1:0",
		"endpoint: https://api.openai.com/v1":                   "endpoint: " + llm + "/v1",
		"endpoint: http://127.0.0.1:8000/v1":                    "endpoint: " + llm + "/v1",
		"endpoint: http://127.0.0.1:8100/v1/systemone":          "endpoint: http://127.0.0.1:1/v1/systemone",
		"endpoint: https://gateway.example.com/v1/systemone":    "endpoint: " + gateway + "/v1/systemone",
		"endpoint: https://scorer.partner.example/v1/systemone": "endpoint: http://127.0.0.1:1/v1/systemone",
	} {
		if !strings.Contains(config, shipped) {
			t.Fatalf("the example no longer has %q: update the test", shipped)
		}
		config = strings.ReplaceAll(config, shipped, local)
	}
	run, _ := startRouterFrom(t, config)
	return run.URL("public")
}

// fakeLLM answers every chat completion with one canned reply, and
// keeps the x-vsr-rule-jailbreak header of each call.
func fakeLLM(t *testing.T) (*httptest.Server, chan string) {
	t.Helper()
	calls := make(chan string, 16)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls <- r.Header.Get("x-vsr-rule-jailbreak")
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"id":"c1","object":"chat.completion","created":1,"model":"gpt-4o",`+
			`"choices":[{"index":0,"message":{"role":"assistant","content":"Sunny."},"finish_reason":"stop"}],`+
			`"usage":{"prompt_tokens":5,"completion_tokens":1,"total_tokens":6}}`)
	}))
	t.Cleanup(srv.Close)
	return srv, calls
}

// fakeGateway is a systemone/0.2 server that answers every question of
// every request with noul, and lists the model d3.
func fakeGateway(t *testing.T, noul string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.Method == http.MethodGet {
			_, _ = io.WriteString(w, `{"models":[{"name":"d3","description":"d3","release_date":"2026-01-01"}]}`)
			return
		}
		var req struct {
			Questions map[string]json.RawMessage `json:"questions"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		answers := map[string]any{}
		for name := range req.Questions {
			answers[name] = map[string]any{"type": "noul", "noul": json.Number(noul)}
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"model": "d3", "answers": answers,
			"usage": map[string]int{"input_tokens": 1, "output_tokens": 0}})
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// askWeather sends the plain chat request "What is the weather?" to the
// public listener and returns the status and body.
func askWeather(t *testing.T, public string) (int, string) {
	t.Helper()
	resp, err := http.Post(public+"/v1/chat/completions", "application/json",
		strings.NewReader(`{"model":"gpt-4o","messages":[{"role":"user","content":"What is the weather?"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// The shipped example serves a plain chat request. With the gateway its
// jailbreak rule asks unreachable (as wherever gateway.example.com is
// not a real gateway), the rule fails open: the request reaches the LLM
// marked unknown instead of being blocked with 403. With the gateway up,
// the rule decides: a low answer lets the request through marked
// not_matched, a high one blocks it.
func TestExampleServesAPlainChatRequest(t *testing.T) {
	for _, c := range []struct {
		name, gateway string
		status        int
		header        string
	}{
		{"gateway down", "http://127.0.0.1:1", http.StatusOK, "unknown"},
		{"gateway answers no", "LOW", http.StatusOK, "not_matched"},
		{"gateway flags it", "HIGH", http.StatusForbidden, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			gateway := c.gateway
			switch gateway {
			case "LOW":
				gateway = fakeGateway(t, "0.02")
			case "HIGH":
				gateway = fakeGateway(t, "0.98")
			}
			llm, calls := fakeLLM(t)
			status, body := askWeather(t, serveExample(t, llm.URL, gateway))
			var header string
			select {
			case header = <-calls:
			default:
			}
			if status != c.status || (status == http.StatusOK) != strings.Contains(body, "Sunny.") || header != c.header {
				t.Fatalf("status %d %s, x-vsr-rule-jailbreak %q upstream; want %d and %q", status, body, header, c.status, c.header)
			}
			if status == http.StatusForbidden && !strings.Contains(body, "blocked_by_rule") {
				t.Fatalf("a block answered %s", body)
			}
		})
	}
}
