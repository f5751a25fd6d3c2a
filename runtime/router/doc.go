// Package router is the Router's System One side, `vllm-sr serve`: it
// serves clients on the configured listeners and calls System One
// deployments upstream, translating through the IR both ways.
//
// A listener serves the APIs of its apis map (runtime/routerconfig). An
// LLM API request is forwarded unchanged to the upstream that serves its
// model (llmproxy.go). A System One request is read by the listener's
// codec (runtime/listener: V50, V40) into the IR and a plan; the
// client's model names a deployment, or a pool routed by capability
// (auto.go). The Forward path (forward.go) then either passes the client's
// own bytes through to a vllm-sr deployment's native /v1/decisions, or has
// the deployment's target codec (runtime/target) plan the wire calls,
// which execute.go runs under a sliding window of max_concurrency calls
// and the caller's deadline. Answers and errors are re-encoded for the
// client's schema by the listener codec, batches reassembled.
//
// The Decide path (decide.go) evaluates the Router's own rules: it builds
// a state from named input parts, sends the rules of one stage bound to
// one deployment as one batch (a bundle, or split calls where the target
// has no batch), and applies each rule's on_unknown policy.
//
// Invariants:
//   - Plans and diagnostics are decided by the codecs; this package runs
//     them and counts them (metrics.go), never rewrites them.
//   - What a deployment cannot carry or answer is refused with 400
//     unsupported_capability before any upstream call.
//   - On /v1/systemone and /v1/systemone/batch the first failure in
//     request order answers the whole request (failfast.go); per-question
//     errors inside a 200 are only for /v1/decisions and /v1/bundle.
//   - Error reasons are fixed words and messages never copy request
//     values; configuration names (listeners, deployments, pools, rules)
//     are not request data and may be named.
package router
