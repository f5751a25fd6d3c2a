package testkit

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"

	"github.com/vllm-sr/systemone/generated/vocab"
)

// OpenAPI40SpecPath is the frozen vllm-sr/4.0 contract, found from this
// file so that a test in any package reads the same one.
var OpenAPI40SpecPath = func() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "specs", "systemone", "vllm-sr-4.0.openapi.yaml")
}()

// spec40 loads and validates the contract once per test binary.
var spec40 = sync.OnceValues(func() (routers.Router, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromFile(OpenAPI40SpecPath)
	if err != nil {
		return nil, err
	}
	if err := doc.Validate(loader.Context); err != nil {
		return nil, err
	}
	return legacy.NewRouter(doc)
})

// OpenAPI40Exchange is one request sent to a vllm-sr/4.0 server and the
// answer it got.
type OpenAPI40Exchange struct {
	Method string
	Path   string
	// Body is sent as application/json; nil sends no body and no
	// Content-Type.
	Body []byte
	// CheckRequest validates the request too. Leave it false for a request
	// the frozen contract does not describe: a 5.0 form the 4.0 listener
	// also accepts, or a body that is meant to be refused.
	CheckRequest bool
	Status       int
	Header       http.Header
	Answer       []byte
}

// OpenAPI40Check validates x against the 4.0 contract: its route must be
// in the contract (fatal otherwise), and a request or answer that does not
// follow it is an error naming what kin-openapi found.
func OpenAPI40Check(t testing.TB, x OpenAPI40Exchange) {
	t.Helper()
	router, err := spec40()
	if err != nil {
		t.Fatalf("loading %s: %v", OpenAPI40SpecPath, err)
	}
	req, _ := http.NewRequest(x.Method, "http://localhost"+x.Path, bytes.NewReader(x.Body))
	if x.Body != nil {
		req.Header.Set(vocab.HeaderContentType, "application/json")
	}
	route, params, err := router.FindRoute(req)
	if err != nil {
		t.Fatalf("%s %s is not in the 4.0 contract: %v", x.Method, x.Path, err)
	}
	in := &openapi3filter.RequestValidationInput{
		Request: req, PathParams: params, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc},
	}
	if x.CheckRequest {
		if err := openapi3filter.ValidateRequest(context.Background(), in); err != nil {
			t.Errorf("the request does not follow the 4.0 contract: %v", err)
		}
	}
	out := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in,
		Status:                 x.Status,
		Header:                 x.Header,
		Body:                   io.NopCloser(bytes.NewReader(x.Answer)),
		Options:                &openapi3filter.Options{IncludeResponseStatus: true},
	}
	if err := openapi3filter.ValidateResponse(context.Background(), out); err != nil {
		t.Errorf("the %d answer does not follow the 4.0 contract: %v\n%s", x.Status, err, x.Answer)
	}
}
