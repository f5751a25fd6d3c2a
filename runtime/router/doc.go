// Package router is the Router's System One side, `vllm-sr serve`: it
// serves clients on the configured listeners and calls System One
// deployments upstream, translating through the IR both ways.
//
// A listener serves the APIs of its apis map (runtime/routerconfig). An
// LLM API request is forwarded unchanged to the upstream that serves its
// model (llmproxy.go). A System One request runs through the pipeline of
// runtime/engine (systemone.go): read by the listener's codec, which the
// configuration looked up in the schema registry; routed here by its
// model to a deployment, or a pool routed by capability (forward.go,
// auto.go, capability.go), with the listener's max_deadline_ms applied;
// planned by the engine with the deployment's target codec and
// deviations (or, for a single request the internal form reads, sent to a
// vllm-sr deployment's native /v1/decisions, with the client's own bytes
// when nothing was rewritten); called by the Router's
// engine.Caller (execute.go), which sends the wire calls over HTTP under a
// sliding window of max_concurrency calls and the caller's deadline, on
// the Router's own connections to http:// deployments (runtime/upstream);
// reassembled by the engine and answered in the client's schema by the
// listener codec.
//
// In a fleet (circuit.go, retry.go, failover.go): each call goes through
// its deployment's deploymentCaller, which bounds it by the deployment's
// timeout_ms, sends it again as its retries allow, and notes its outcome
// in the deployment's circuit; a pool passes over members whose circuit
// is open or whose Retry-After has not ended, and fails a plan that got
// no answer over to the next member. Readiness (ready.go) waits only on
// the deployments marked required.
//
// The Decide path (decide.go) evaluates the Router's own rules through the
// same engine: it builds a state from named input parts, sends the rules
// of one stage bound to one deployment as one batch (a bundle, or split
// calls where the target has no batch), and applies each rule's
// on_unknown policy.
//
// Every request carries its W3C trace context (runtime/observe): a
// client's traceparent goes upstream on each call with the Router's own
// span id, and with the configuration's tracing section the Router
// records a server span per request, its listener read, plan, calls and
// answer, exported over OTLP/HTTP by the OpenTelemetry SDK (runtime/observe).
// Tracing off, a request without a
// traceparent costs nothing.
//
// Invariants:
//   - Plans and diagnostics are decided by the codecs; this package runs
//     them and counts them (runtime/observe), never rewrites them.
//   - What a deployment cannot carry or answer never goes upstream: it
//     is refused with 400 unsupported_capability, except on /v1/decisions
//     to a deployment, where each question that needs it fails alone
//     inside the 200, as vllm-srun fails one its model does not answer
//     (uncarried.go).
//   - A deployment whose health refuses it (a runtime of another
//     contract, contract.go) gets no call: its requests are 503, its
//     rules' answers unknown, and a pool goes past it.
//   - Only a call that failed before any answer (refused, reset before a
//     reply, past its own bound, or answered 502, 503, 504 or 529) is ever
//     sent again, to its deployment or a pool's next member, and only
//     while the caller's deadline allows; a plan some of whose calls
//     answered is never sent again. The happy path takes no lock and
//     allocates nothing more for it.
//   - A deployment that is not required never changes /ready's status.
//   - On /v1/systemone and /v1/systemone/batch the first failure in
//     request order answers the whole request (the engine's reassembly);
//     per-question errors inside a 200 are only for /v1/decisions and
//     /v1/bundle.
//   - No code here names a particular codec or switches on a schema ID:
//     codecs come from the schema registry, their differences from their
//     traits and seams.
//   - Error reasons are fixed words and messages never copy request
//     values; configuration names (listeners, deployments, pools, rules)
//     are not request data and may be named. Span names and attributes
//     follow the same rule.
package router
