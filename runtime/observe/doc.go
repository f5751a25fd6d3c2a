// Package observe is what the Router lets an operator see of its
// requests: its Prometheus series beside the front's (upstream calls by
// API and upstream, target diagnostics, rule outcomes, reloads, the
// configuration in force, metrics.go), its W3C trace context read from
// clients and sent on every upstream call (tracecontext.go), and its
// OpenTelemetry spans, exported over OTLP/HTTP (tracing.go): a server
// span per request, its listener read, plan, calls and answer (spans.go),
// and the LLM pass-through's client span (llmspan.go).
//
// Invariants:
//   - Observation changes no answer: every function here records, and
//     none decides what a client gets.
//   - A nil *Tracing is tracing off, which every method takes: nothing is
//     recorded, a client's valid trace context is passed on with a new
//     span id, and a request without one costs nothing.
//   - Span names, span attributes and metric labels are configuration
//     names and fixed words, never request data: no state, no question,
//     no key, no client-chosen path or model.
//   - A client's own trace headers never go upstream as they came
//     (SetTraceHeaders, TraceHeaders).
package observe
