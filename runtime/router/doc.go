// Package router is the Router's System One side, `vllm-sr serve`: it
// serves clients on the configured listeners and calls System One
// deployments upstream, translating through the IR both ways. It is the
// composition of the packages that hold its concerns:
//
//   - runtime/engine runs each request: read by the listener's codec,
//     then, once per deployment tried, planned by the deployment's target
//     codec, its wire calls sent under the plan's window and deadline,
//     each reply decoded, and the answer reassembled;
//   - runtime/upstream sends a wire call and returns its raw reply, on
//     the Router's own connections to http:// deployments;
//   - runtime/fleet holds each deployment's circuit, retries, readiness
//     checks and the record of what a request tried;
//   - runtime/observe counts, traces and propagates trace context;
//   - runtime/llmproxy passes LLM API requests through, and reads them
//     into the parts the Router's rules read.
//
// What stays here is what joins them. A listener serves the APIs of its
// apis map (runtime/routerconfig); an LLM API request is forwarded to the
// upstream that serves its model after the listener's rules
// (llmproxy.go, rulestraffic.go). A System One request (systemone.go) is
// routed by its model to a deployment, or to the capable members of a
// pool (forward.go, auto.go, capability.go, failover.go), with the
// listener's max_deadline_ms applied, and run by engine.Run with the
// deployment's deploymentCaller as its Sender and Hooks (execute.go): the
// Sender sends each call through the transport under the deployment's
// timeout_ms, retries and circuit, counted and traced; the Hooks open and
// close the plan span, count the target diagnostics, set the deployment's
// key on the calls and log a reply that broke its schema. The answer is
// written in the client's schema by the listener codec. Readiness waits
// only on the deployments marked required (ready.go).
//
// The Decide path (decide.go) evaluates the Router's own rules through the
// same engine: it builds a state from named input parts, sends the rules
// of one stage bound to one deployment as one batch (a bundle, or split
// calls where the target has no batch), and applies each rule's
// on_unknown policy.
//
// Invariants:
//   - Plans and diagnostics are decided by the codecs and replies decoded
//     by the engine; this package runs them and counts them, never
//     rewrites them.
//   - What a deployment cannot carry or answer never goes upstream: it
//     is refused with 400 unsupported_capability, except on /v1/decisions
//     to a deployment, where each question that needs it fails alone
//     inside the 200, as vllm-srun fails one its model does not answer
//     (uncarried.go).
//   - A deployment whose health refuses it (a runtime of another
//     contract, runtime/fleet) gets no call: its requests are 503, its
//     rules' answers unknown, and a pool goes past it.
//   - Only a call that failed before any answer is ever sent again, to
//     its deployment or a pool's next member, and only while the caller's
//     deadline allows; a plan some of whose calls answered is never sent
//     again. The happy path takes no lock and allocates nothing more for
//     it.
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
