package router_test

import (
	"net/http"
	"testing"

	"github.com/vllm-sr/systemone/runtime/testkit"
)

// validate40 checks a 4.0 request and the Router's JSON answer to it
// against the frozen vllm-sr/4.0 contract.
func validate40(t *testing.T, path, body string, status int, answer []byte) {
	t.Helper()
	testkit.OpenAPI40Check(t, testkit.OpenAPI40Exchange{
		Method: http.MethodPost, Path: path, Body: []byte(body), CheckRequest: true,
		Status: status, Header: http.Header{"Content-Type": {"application/json"}}, Answer: answer,
	})
}
