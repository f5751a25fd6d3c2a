// Package conformance is the black-box conformance kit that `vllm-sr
// conformance` runs against any server claiming systemone/0.2,
// vllm-sr/5.0 or vllm-sr/4.0: the model runtime, a Router listener, or
// another vendor's gateway.
//
// Its cases are built from the specs (generated/vocab,
// generated/fieldtable) and the golden corpus (generated/corpus), not
// typed by hand: the error table gives each refusal its status and code,
// the limits their bounds, the removed forms their replacements, the
// corpus its 4.0 request bodies. Run sends them over HTTP, each call
// bounded by Options.Timeout and each answer read up to a fixed size, and
// checks every answer against what the claimed schema defines (checks.go
// for answers, checks_errors.go for refusals). A Report holds one Result
// per case, written as text (WriteText) or JSON (WriteJSON). An Observe
// hook sees every Exchange, so a test can validate the traffic against
// an OpenAPI document.
//
// The kit is product code, shipped in the Router's binary: it imports no
// test support (no testing, go-cmp or OpenAPI validator), and only the
// leaves and the generated tables of the module (gen/architecture_test.go).
// The servers its own tests run it against, including the systemone/0.2
// server broken on purpose (testkit.NewConformanceServer), are test support
// and live in runtime/testkit.
package conformance
