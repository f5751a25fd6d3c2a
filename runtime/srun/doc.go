// Package srun is the System One model runtime server, `vllm-srun serve`:
// one model, served over HTTP in the vllm-sr/5.0 contract (or the legacy
// vllm-sr/4.0), with the standard's statuses, limits and headers.
//
// A request goes through fixed steps: the front every server shares
// (front.Front: request id, deadlines, metrics, access log), readiness
// (health.go: 503 starting until the model passed its family's self-test,
// selftest.go), the body within 32 MiB (BodyLimit: 413 decided without
// reading past the limit) under the body-read deadline, admission
// (front.Admission: a bounded number in flight, 529 past it, counted from
// when the body has been read, so a slow sender holds no slot), then the
// pipeline of runtime/engine (routes.go, answer.go): the reading of the
// listener codec of Config.Schema, looked up in the schema registry (400
// for what the schema refuses), the model (404 model_not_found), the
// model itself as the pipeline's in-process Caller, each item under the
// request's deadline (decide.go; Engine, engine.go, is the seam the
// reference scorer plugs into, and Backend the one an engine whose model
// is served elsewhere, the LLM engine of runtime/llm, plugs into: its
// model comes from the engine, completed by Connect before the
// self-test, and its refusal answers a request 529 or 503), and the
// engine's reassembly: /v1/systemone and /v1/systemone/batch fail on their first failed
// question with that question's status from the generated error table,
// /v1/decisions and /v1/bundle carry each failure in its answer. The
// listener codec writes the answer.
//
// Invariants:
//   - The server decides statuses, from the generated tables
//     (generated/fieldtable); the listener codec writes every body, so
//     each answer is in the client's schema.
//   - Every answer is JSON (GET /metrics excepted) and carries
//     x-request-id and x-typesafe-request-id; reasons are fixed words and
//     messages never copy request values.
//   - Start's graceful shutdown lets the requests in flight finish.
package srun
