package router_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/runtime/router"
)

// mediaConfig: rules on served traffic that read the turn's image, on a
// Decision 3.0 runtime (which reads images) behind a recording tap, for
// Chat Completions, Messages and Responses requests.
const mediaConfig = `
listeners:
  - name: edge
    address: 127.0.0.1:{{PORT}}
    apis:
      chat_completions: {rules: [sees, reads]}
      messages: {rules: [sees]}
      responses: {rules: [sees]}
upstreams:
  chat:
    api_format: chat_completions
    endpoint: {{LLM}}/v1
    models: [gpt-4o]
  claude:
    api_format: messages
    endpoint: {{LLM}}/v1
    models: [claude-sonnet]
  responses:
    api_format: responses
    endpoint: {{LLM}}/v1
    models: [gpt-4.1]
deployments:
  d3:
    provider: systemone
    endpoint: {{D3}}/v1/systemone
    model: vllm-sr/decision3
    schema: vllm-sr/5.0
rules:
  sees:
    deployment: d3
    input: [image, request]
    timeout_ms: 5000
    questions:
      cat: {type: noul, instructions: "Is there a cat in the picture?"}
    match: {cat: 0}
  reads:
    deployment: d3
    input: [request]
    timeout_ms: 5000
    questions:
      cat: {type: noul, instructions: "Does the user ask about a cat?"}
    match: {cat: 0}
`

// testPNG is a 256 x 256 PNG, the smallest side Decision 3.0 reads, as
// base64.
func testPNG(t *testing.T) string {
	img := image.NewRGBA(image.Rect(0, 0, 256, 256))
	for x := range 256 {
		img.Set(x, x, color.RGBA{R: 200, A: 255})
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(b.Bytes())
}

// TestRulesReadTheTurnsMedia: a rule whose input names image reads the
// last user turn's image of a Chat Completions, Messages or Responses
// request: the runtime gets it as an asset in front of the state's parts
// (["⟦img-1⟧", {"request": ...}]) and answers (the rule matched, not
// unknown); a rule reading text only gets a plain state. A remote image
// URL is not fetched: the rule that reads images is unknown without a
// call, naming media_not_read, and the text rule still answers.
func TestRulesReadTheTurnsMedia(t *testing.T) {
	pic := testPNG(t)
	llm := newLLMRecorder(t)
	tap := newRouterTap(t, startRuntime(t, "vllm-sr/decision3").URL())
	path := writeConfig(t, mediaConfig, map[string]string{"PORT": freePort(t), "LLM": llm.srv.URL, "D3": tap.Server.URL})
	cfg, err := router.LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	run, logs := startRouterLogged(t, cfg, router.Options{})
	e := &rulesEnv{run: run}

	dataURL := "data:image/png;base64," + pic
	bodies := map[string]string{
		"/v1/chat/completions": `{"model":"gpt-4o","messages":[{"role":"user","content":[{"type":"text","text":"What is this?"},` +
			`{"type":"image_url","image_url":{"url":"` + dataURL + `"}}]}]}`,
		"/v1/messages": `{"model":"claude-sonnet","max_tokens":10,"messages":[{"role":"user","content":[` +
			`{"type":"image","source":{"type":"base64","media_type":"image/png","data":"` + pic + `"}},{"type":"text","text":"What is this?"}]}]}`,
		"/v1/responses": `{"model":"gpt-4.1","input":[{"role":"user","content":[{"type":"input_text","text":"What is this?"},` +
			`{"type":"input_image","image_url":"` + dataURL + `"}]}]}`,
	}
	for _, api := range []string{"/v1/chat/completions", "/v1/messages", "/v1/responses"} {
		before := len(tap.Got("/v1/systemone/batch"))
		got := e.send(t, "edge", api, bodies[api], nil)
		if got.status != 200 {
			t.Fatalf("%s: %d %s", api, got.status, got.body)
		}
		if v := llm.last(t).header.Get("X-Vsr-Rule-Sees"); v != "matched" {
			t.Errorf("%s: the image rule's outcome %q, want matched:\n%s", api, v, logs)
		}
		calls := tap.Got("/v1/systemone/batch")[before:]
		if len(calls) != 1 {
			t.Fatalf("%s: the runtime got %d batch calls, want 1", api, len(calls))
		}
		var sent struct {
			Requests map[string]struct {
				State  json.RawMessage
				Roles  map[string]string
				Assets map[string]struct {
					Type, Format string
					DataBase64   string `json:"data_base64"`
				}
			}
		}
		if err := json.Unmarshal(calls[0], &sent); err != nil {
			t.Fatal(err)
		}
		sees := sent.Requests["sees"]
		asset := sees.Assets["⟦img-1⟧"]
		if string(sees.State) != `["⟦img-1⟧",{"request":"What is this?"}]` ||
			asset.Type != "image" || asset.Format != "png" || asset.DataBase64 != pic || sees.Roles["request"] != "user" {
			t.Errorf("%s: the image rule sent state %s, roles %v, %d assets", api, sees.State, sees.Roles, len(sees.Assets))
		}
		if reads, ok := sent.Requests["reads"]; ok && (len(reads.Assets) != 0 || string(reads.State) != `{"request":"What is this?"}`) {
			t.Errorf("%s: the text rule sent state %s with %d assets", api, reads.State, len(reads.Assets))
		}
	}

	// The runtime reads the asset as an image: bytes that are no PNG make
	// the image rule's answer unknown there (invalid_input).
	notPNG := strings.Replace(bodies["/v1/chat/completions"], pic, base64.StdEncoding.EncodeToString([]byte("not a png")), 1)
	if got := e.send(t, "edge", "/v1/chat/completions", notPNG, nil); got.status != 200 || llm.last(t).header.Get("X-Vsr-Rule-Sees") != "unknown" {
		t.Errorf("an image that is no PNG: %d, sees %q", got.status, llm.last(t).header.Get("X-Vsr-Rule-Sees"))
	}

	// A remote URL is not fetched: the image rule is unknown, with no call
	// of its own; the text rule is answered.
	before := len(tap.Got("/v1/systemone/batch"))
	remote := `{"model":"gpt-4o","messages":[{"role":"user","content":[{"type":"text","text":"What is this?"},` +
		`{"type":"image_url","image_url":{"url":"https://example.com/cat.png"}}]}]}`
	if got := e.send(t, "edge", "/v1/chat/completions", remote, nil); got.status != 200 {
		t.Fatalf("remote image: %d %s", got.status, got.body)
	}
	h := llm.last(t).header
	if h.Get("X-Vsr-Rule-Sees") != "unknown" || h.Get("X-Vsr-Rule-Reads") != "matched" {
		t.Errorf("remote image: sees %q, reads %q", h.Get("X-Vsr-Rule-Sees"), h.Get("X-Vsr-Rule-Reads"))
	}
	calls := tap.Got("/v1/systemone/batch")[before:]
	if len(calls) != 1 || strings.Contains(string(calls[0]), `"sees"`) || strings.Contains(string(calls[0]), "example.com") {
		t.Errorf("remote image: the runtime got %q, want one call with the text rule only", calls)
	}
	if !strings.Contains(logs.String(), `"reason":"media_not_read"`) {
		t.Errorf("no rule outcome names media_not_read:\n%s", logs)
	}
}
