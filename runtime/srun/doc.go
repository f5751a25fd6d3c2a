// Package srun is the System One model runtime server, `vllm-srun serve`:
// one model, served over HTTP in the vllm-sr/5.0 contract (or the legacy
// vllm-sr/4.0), with the standard's statuses, limits and headers.
//
// A request goes through fixed steps, each in its own file: readiness
// (health.go: 503 starting until the model passed its family's self-test,
// selftest.go), admission (admission.go: a bounded number in flight, 529
// past it), the body within 32 MiB (limits.go: 413 decided without
// reading past the limit), the listener codec's reading (listener.V50
// or V40: 400 for what the schema refuses), the model (404
// model_not_found), then the Engine (engine.go: the seam the reference
// scorer plugs into) under the request's deadline (decide.go), and the
// answer (answer.go): /v1/systemone and /v1/systemone/batch fail on their
// first failed question with that question's status from the generated
// error table, /v1/decisions and /v1/bundle carry each failure in its
// answer.
//
// Invariants:
//   - The server decides statuses, from the generated tables
//     (generated/fieldtable); the listener codec writes every body, so
//     each answer is in the client's schema.
//   - Every answer is JSON (GET /metrics excepted) and carries
//     x-typesafe-request-id; reasons are fixed words and messages never
//     copy request values.
//   - Start's graceful shutdown lets the requests in flight finish.
package srun
