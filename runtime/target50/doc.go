// Package target50 is the Router's client codec for deployments that speak
// vllm-sr/5.0: vllm-sr serve targets (the model runtime, a Router or an
// Engine frontend).
//
// A batch is one call to POST /v1/systemone/batch with the full extension
// set: {model, requests, options}, the target's model, each item a
// complete standard request with its roles (4.0's implicit roles spelled
// out as the explicit roles they stand for), presets kept so trained
// heads answer (a preset-only question is completed from the canonical
// preset texts, since every 5.0 message is a complete standard message)
// and the batch's options, deadline_ms included. Items of an internal
// bundle carry their own options; a 5.0 batch has one set, so items whose
// options differ are refused. The long-context flag is the standard's
// header.
//
// The reply is the batch response, each item's response read with the
// extension members. A failed batch names the failing request as its
// state: that item carries the error, and the call's other items, left
// unanswered, fail with 502 batch_call_failed. The listing at GET
// /v1/models is read with each model's version, features and card.
package target50
