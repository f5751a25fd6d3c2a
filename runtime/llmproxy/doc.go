// Package llmproxy is the Router's LLM pass-through: an LLM API request
// (Chat Completions, Messages, Responses, images) goes to the upstream of
// the same API that serves its model, as the client sent it, streaming
// included (proxy.go); what the Router answers itself is written in the
// API's own error shape (errors.go); and a request is read into the
// state parts and media the Router's rules read (parts.go, media.go).
// Which rules run, and what their verdict does to the request, is the
// Router's: this package forwards and reads, it decides nothing.
//
// Invariants:
//   - The body goes upstream byte for byte (a route rule's model rewrite,
//     WithModel, keeps every other member as written and in order); the
//     Router adds only its own headers, its trace context and the call's
//     own X-Request-Id.
//   - A redirect is an upstream failure, never relayed or followed
//     (redirects.go).
//   - An upstream's words go to the log; a client gets a fixed message
//     that names configuration only.
//   - Media are read only as the bytes the body carries (data: URLs,
//     base64 sources); nothing is fetched.
package llmproxy
