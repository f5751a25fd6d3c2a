package srun_test

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

// The frozen vllm-sr/4.0 contract: what a vllm-sr/4.0 listener's requests
// and answers are checked against.
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

// check40 validates a request sent to a vllm-sr/4.0 server (when
// checkRequest: a 5.0 form the 4.0 listener also accepts is not in the
// frozen contract) and the reply it got, with kin-openapi's
// openapi3filter.
func check40(t *testing.T, method, path string, body []byte, checkRequest bool, r *reply) {
	t.Helper()
	router, err := spec40()
	if err != nil {
		t.Fatalf("loading %s: %v", spec40Path, err)
	}
	req, _ := http.NewRequest(method, "http://localhost"+path, bytes.NewReader(body))
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	route, params, err := router.FindRoute(req)
	if err != nil {
		t.Fatalf("%s %s is not in the 4.0 contract: %v", method, path, err)
	}
	in := &openapi3filter.RequestValidationInput{
		Request: req, PathParams: params, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc},
	}
	if checkRequest {
		if err := openapi3filter.ValidateRequest(context.Background(), in); err != nil {
			t.Errorf("the request does not follow the 4.0 contract: %v", err)
		}
	}
	out := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in,
		Status:                 r.status,
		Header:                 r.header,
		Body:                   io.NopCloser(bytes.NewReader(r.body)),
		Options:                &openapi3filter.Options{IncludeResponseStatus: true},
	}
	if err := openapi3filter.ValidateResponse(context.Background(), out); err != nil {
		t.Errorf("the %d answer does not follow the 4.0 contract: %v\n%s", r.status, err, r.body)
	}
}
