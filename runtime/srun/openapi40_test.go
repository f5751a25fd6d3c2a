package srun_test

import (
	"testing"

	"github.com/vllm-sr/systemone/runtime/testkit"
)

// check40 validates a request sent to a vllm-sr/4.0 server (when
// checkRequest: a 5.0 form the 4.0 listener also accepts is not in the
// frozen contract) and the reply it got.
func check40(t *testing.T, method, path string, body []byte, checkRequest bool, r *reply) {
	t.Helper()
	testkit.OpenAPI40Check(t, testkit.OpenAPI40Exchange{
		Method: method, Path: path, Body: body, CheckRequest: checkRequest,
		Status: r.status, Header: r.header, Answer: r.body,
	})
}
