package conformance_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/vllm-sr/systemone/gen/openapicheck"
	"github.com/vllm-sr/systemone/runtime/conformance"
	"github.com/vllm-sr/systemone/runtime/table"
)

// Live traffic against the generated vllm-sr/5.0 OpenAPI document
// (docs/reference/vllm-sr-5.0.openapi.yaml): every exchange of the 5.0
// conformance run against vllm-srun and against the Router's 5.0 listener
// (every standard question type, set and span, a batch, /v1/decisions with
// a failed question, /health, /v1/models, and the 400, 404, 413 and 422
// error answers), and a track answer from a video model, each checked with
// gen/openapicheck: a request the kit sends as valid must follow the
// document and one it sends as invalid must not, and every answer must be
// one the document gives its operation. So the document and the servers
// cannot disagree.

func TestOpenAPI50LiveVllmSrun(t *testing.T) {
	url := startSrun(t, "vllm-sr/vela3-fast", "vllm-sr/5.0")
	checkLive(t, url, "")
	video := startSrun(t, "vllm-sr/vela3-d3", "vllm-sr/5.0")
	checkExchange(t, openapiDoc(t), post(t, video, "/v1/systemone", trackRequest(t, "")), true)
}

func TestOpenAPI50LiveRouter(t *testing.T) {
	vela := startSrun(t, "vllm-sr/vela3-fast", "vllm-sr/5.0")
	video := startSrun(t, "vllm-sr/vela3-d3", "vllm-sr/5.0")
	url := startRouterWith(t, routerConfig+videoDeployment, map[string]string{"UPSTREAM": vela, "VIDEO": video})
	checkLive(t, url, "vela")
	checkExchange(t, openapiDoc(t), post(t, url, "/v1/systemone", trackRequest(t, "video")), true)
}

// videoDeployment adds a vela3-d3 runtime to routerConfig's deployments.
const videoDeployment = `  video:
    provider: systemone
    endpoint: VIDEO/v1/systemone
    model: vllm-sr/vela3-d3
    schema: vllm-sr/5.0
`

// checkLive runs the 5.0 kit against url and checks every exchange.
func checkLive(t *testing.T, url, model string) {
	t.Helper()
	doc := openapiDoc(t)
	var seen []conformance.Exchange
	_, err := conformance.Run(context.Background(), conformance.Options{URL: url, Model: model,
		Schema: table.SchemaVllmSR50, Timeout: 10 * time.Second,
		Observe: func(x conformance.Exchange) { seen = append(seen, x) }})
	if err != nil {
		t.Fatal(err)
	}
	statuses := map[int]bool{}
	for _, x := range seen {
		statuses[x.Status] = true
		ex := openapicheck.Exchange{Method: x.Method, Path: x.Path, RequestHeader: x.Header, Body: x.Body,
			Status: x.Status, Header: x.ResponseHeader, Answer: x.Answer}
		t.Run(x.Case, func(t *testing.T) { checkExchange(t, doc, ex, x.Valid) })
	}
	for _, s := range []int{200, 400, 404, 413, 422} {
		if !statuses[s] {
			t.Errorf("no exchange answered %d: the check covered less than it should", s)
		}
	}
}

// checkExchange validates one exchange against the document. A path the
// document has no operation for (the kit's unknown path) has no answer to
// check.
func checkExchange(t *testing.T, doc *openapicheck.Document, x openapicheck.Exchange, valid bool) {
	t.Helper()
	ctx := context.Background()
	err := doc.CheckRequest(ctx, x)
	if errors.Is(err, openapicheck.ErrNoRoute) {
		if x.Status != http.StatusNotFound {
			t.Errorf("%s %s is in no operation of the document, but the server answered %d", x.Method, x.Path, x.Status)
		}
		return
	}
	switch {
	case valid && err != nil:
		t.Errorf("the request does not follow the document: %s\n%s", firstLine(err), x.Body)
	case !valid && err == nil && x.Header.Get("Content-Encoding") == "":
		t.Errorf("the document accepts a request the server refuses with %d:\n%s", x.Status, x.Body)
	}
	if err := doc.CheckResponse(ctx, x); err != nil {
		t.Errorf("the %d answer does not follow the document: %s\n%s", x.Status, firstLine(err), x.Answer)
	}
}

func openapiDoc(t *testing.T) *openapicheck.Document {
	t.Helper()
	doc, err := openapicheck.V50()
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// trackRequest is the corpus's track self-test in 5.0's form (its video
// under assets), naming model when it is not "".
func trackRequest(t *testing.T, model string) []byte {
	t.Helper()
	body := `{` + modelMember(model) + `"state":["⟦vid-1⟧","Follow the cyclist."],` +
		`"assets":{"⟦vid-1⟧":{"type":"video","format":"mp4","data_base64":"` + trackVideo + `"}},` +
		`"questions":{"cyclist":{"type":"track","instructions":"The cyclist in the red jacket","rate":2}}}`
	return []byte(body)
}

func modelMember(model string) string {
	if model == "" {
		return ""
	}
	return `"model":"` + model + `",`
}

// trackVideo is the corpus's minimal MP4 (generated/corpus, vela3_d3/track-video).
const trackVideo = "AAAAIGZ0eXBpc29tAAACAGlzb21pc28yYXZjMW1wNDEAAAB0bW9vdgAAAGxtdmhkAAAAAAAAAAAAAAAAAAAD6AAAC7gAAQAAAQAAAAAAAAAAAAAAAAEAAAAAAAAAAAAAAAAAAAABAAAAAAAAAAAAAAAAAABAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAg=="

// post sends body to url+path and returns the exchange.
func post(t *testing.T, url, path string, body []byte) openapicheck.Exchange {
	t.Helper()
	client := &http.Client{Timeout: 10 * time.Second}
	resp, err := client.Post(url+path, "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Errorf("status %d: %s", resp.StatusCode, answer)
	}
	return openapicheck.Exchange{Method: http.MethodPost, Path: path, Body: body,
		Status: resp.StatusCode, Header: resp.Header, Answer: answer}
}

func firstLine(err error) string {
	s, _, _ := strings.Cut(err.Error(), "\n")
	return s
}

// startRouterWith is startRouter for a configuration template whose
// placeholders values fills.
func startRouterWith(t *testing.T, template string, values map[string]string) string {
	t.Helper()
	for k, v := range values {
		template = strings.ReplaceAll(template, k, v)
	}
	path := t.TempDir() + "/router.yaml"
	if err := os.WriteFile(path, []byte(template), 0o600); err != nil {
		t.Fatal(err)
	}
	return startRouterAt(t, path)
}
