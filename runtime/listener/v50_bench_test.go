package listener_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"github.com/vllm-sr/systemone/runtime/testkit"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"

	"github.com/vllm-sr/systemone/runtime/listener"
)

// The benchmarks of the 5.0 hot path and its two baselines, in one file so
// one `go test -bench` run gives the ratios:
//
//	BenchmarkListener5Read       read + validation + translation into the IR
//	BenchmarkEncodingJSONTyped   json.Unmarshal into a Go struct of the request
//	BenchmarkKinOpenAPIValidate  openapi3filter.ValidateRequest against
//	                             testdata/v50/bench-openapi.yaml
//
// All three read benchRequest: a ~5 KB object state with roles, five
// questions (choice, noul, score, noul with criteria, choice) and options.

// benchRequest builds the medium request deterministically.
func benchRequest() []byte {
	para := func(topic string, n int) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "Sentence %d about %s: the export to CSV fails with an error 500 since the deployment this morning, and the team needs the report for the audit. ", i, topic)
		}
		return b.String()
	}
	req := `{"model":"vllm-sr/vela3-fast",` +
		`"state":{"request":` + quote(para("the request", 9)) +
		`,"history":` + quote(para("the history", 10)) +
		`,"context":` + quote(para("the context", 10)) + `},` +
		`"roles":{"request":"user","history":"context","context":"context"},` +
		`"questions":{` +
		`"team":{"type":"choice","instructions":"Which team should handle this request?","criteria":{"billing":"Payments, invoices and refunds","engineering":"Outages, errors and bugs","sales":null,"other":"Anything else"}},` +
		`"urgent":{"type":"noul","instructions":"Does the user report a problem that blocks their work?"},` +
		`"severity":{"type":"score","instructions":"How severe is the problem?","criteria":["Cosmetic","Degraded","Blocking","Outage"]},` +
		`"grounded":{"type":"noul","instructions":"Is the request grounded in the context?","criteria":{"true":"The context supports it","false":null}},` +
		`"tone":{"type":"choice","instructions":"What is the user's tone?","criteria":{"calm":null,"frustrated":null,"angry":null}}` +
		`},"options":{"deadline_ms":1500,"return_meta":false}}`
	return []byte(req)
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// typedRequest is the request as a Go struct, for encoding/json's typed
// decode: what a reflection-based server would unmarshal into.
type typedRequest struct {
	Model     string                   `json:"model"`
	State     any                      `json:"state"`
	Roles     map[string]string        `json:"roles,omitempty"`
	Questions map[string]typedQuestion `json:"questions"`
	Assets    map[string]typedAsset    `json:"assets,omitempty"`
	Options   *typedOptions            `json:"options,omitempty"`
}

type typedQuestion struct {
	Type             string          `json:"type"`
	Instructions     any             `json:"instructions,omitempty"`
	Criteria         json.RawMessage `json:"criteria,omitempty"`
	Preset           *string         `json:"preset,omitempty"`
	Over             any             `json:"over,omitempty"`
	RequireFullInput *bool           `json:"require_full_input,omitempty"`
}

type typedAsset struct {
	Type       string `json:"type"`
	Format     string `json:"format"`
	DataBase64 string `json:"data_base64"`
}

type typedOptions struct {
	DeadlineMs *int64 `json:"deadline_ms,omitempty"`
	ReturnMeta *bool  `json:"return_meta,omitempty"`
	MaxTokens  *int64 `json:"max_tokens,omitempty"`
}

func BenchmarkListener5Read(b *testing.B) {
	body := benchRequest()
	c := listener.V50
	if _, err := c.Read(listener.EndpointSystemOne, body, nil); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	defer testkit.CPUPerOp(b)()
	for b.Loop() {
		if _, err := c.Read(listener.EndpointSystemOne, body, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncodingJSONTyped(b *testing.B) {
	body := benchRequest()
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	defer testkit.CPUPerOp(b)()
	for b.Loop() {
		var r typedRequest
		if err := json.Unmarshal(body, &r); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkKinOpenAPIValidate(b *testing.B) {
	body := benchRequest()
	input := kinInput(b)
	ctx := context.Background()
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	defer testkit.CPUPerOp(b)()
	for b.Loop() {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "http://bench/v1/systemone", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		input.Request = req
		if err := openapi3filter.ValidateRequest(ctx, input); err != nil {
			b.Fatal(err)
		}
	}
}

// kinInput loads the baseline document and routes POST /v1/systemone to
// its operation by hand, so the baseline times validation, not routing.
func kinInput(b *testing.B) *openapi3filter.RequestValidationInput {
	data, err := os.ReadFile("testdata/v50/bench-openapi.yaml")
	if err != nil {
		b.Fatal(err)
	}
	doc, err := openapi3.NewLoader().LoadFromData(data)
	if err != nil {
		b.Fatal(err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		b.Fatal(err)
	}
	item := doc.Paths.Find("/v1/systemone")
	route := &routers.Route{Spec: doc, Path: "/v1/systemone", PathItem: item, Method: http.MethodPost, Operation: item.Post}
	return &openapi3filter.RequestValidationInput{
		Route:   route,
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc},
	}
}
