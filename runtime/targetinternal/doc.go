// Package targetinternal is the Router's client codec for the hops inside a
// deployment: the Router to a model runtime's POST /v1/decisions and POST
// /v1/bundle, in the internal wire form (internalwire: the 4.0 request
// forms plus roles).
//
// It is lossless: every request goes on as internalwire writes it from
// the IR, member order, 4.0 spellings, number literals, implicit roles and
// options.long_context included, so every model input the Router builds
// is byte for byte what it was. A batch of one request is one
// /v1/decisions call with the target's model; a larger batch (a stage
// bundle) is one /v1/bundle call with the target's model, each item
// carrying its own options (the batch's, when the item has none).
//
// Replies are the runtime's: /v1/decisions answers in a 200 with a failed
// question's error, reason and message in its own answer, and /v1/bundle
// answers each request under its name. Both are read with the extension
// members.
package targetinternal
