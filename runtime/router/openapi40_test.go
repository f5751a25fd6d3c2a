package router_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"
)

// spec40Path is the frozen vllm-sr/4.0 contract a 4.0 listener's answers
// keep.
const spec40Path = "../../specs/systemone/vllm-sr-4.0.openapi.yaml"

var spec40 = sync.OnceValues(func() (routers.Router, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromFile(spec40Path)
	if err != nil {
		return nil, err
	}
	if err := doc.Validate(loader.Context); err != nil {
		return nil, err
	}
	return legacy.NewRouter(doc)
})

// validate40 checks a 4.0 request and the Router's answer to it against
// the 4.0 contract with kin-openapi's openapi3filter.
func validate40(t *testing.T, path, body string, status int, answer []byte) {
	t.Helper()
	router, err := spec40()
	if err != nil {
		t.Fatalf("loading %s: %v", spec40Path, err)
	}
	req, _ := http.NewRequest(http.MethodPost, "http://localhost"+path, bytes.NewReader([]byte(body)))
	req.Header.Set("Content-Type", "application/json")
	route, params, err := router.FindRoute(req)
	if err != nil {
		t.Fatalf("POST %s is not in the 4.0 contract: %v", path, err)
	}
	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}}
	if err := openapi3filter.ValidateRequest(context.Background(), in); err != nil {
		t.Errorf("the request does not follow the 4.0 contract: %v", err)
	}
	out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: status,
		Header: http.Header{"Content-Type": {"application/json"}}, Body: io.NopCloser(bytes.NewReader(answer)),
		Options: &openapi3filter.Options{IncludeResponseStatus: true}}
	if err := openapi3filter.ValidateResponse(context.Background(), out); err != nil {
		t.Errorf("the %d answer does not follow the 4.0 contract: %v\n%s", status, err, answer)
	}
}
