// Package rules is the Router's own rules: the Decide path. A rule asks
// its questions of one deployment over a state built from named input
// parts (and, on served LLM traffic, the last user turn's media), and
// its answers, checked against its match, decide what it does: block,
// route, or only label the request (an x-vsr-rule-<name> header
// upstream). The rules of one stage bound to one deployment with one
// timeout_ms go as one batch through the engine (Deployments.Run, the
// Router's), the batches concurrently (decide.go); on traffic the first
// failed, blocking or routing rule, in rule order, decides (traffic.go);
// `vllm-sr decide` prints the results (json.go).
//
// Invariants:
//   - A rule whose deployment cannot take it (its health, its circuit,
//     media the Router cannot send or more than the batch's share of the
//     body limit) is answered unknown without a call, and its on_unknown
//     decides; nothing here sends anything but through Deployments.
//   - Every evaluation is counted (vsr_rule_outcomes_total) with a fixed
//     word; logs and headers name rules, deployments and outcomes, never
//     request values.
//   - A client's own x-vsr-rule-* headers never go upstream (SetHeaders).
package rules
