// Package openapi40check checks HTTP exchanges with a vllm-sr/4.0 server
// against the frozen contract, specs/systemone/vllm-sr-4.0.openapi.yaml,
// with kin-openapi's openapi3filter. It is test support: only _test.go
// files import it.
package openapi40check
