// Package listener defines the seam between a System One server and the
// listener codecs (vllm-sr/5.0, vllm-sr/4.0): what a codec reads a client's
// request into, and how it answers in the client's schema.
//
// A codec is stateless and safe for concurrent use; the per-request state
// lives in ClientRequest.
package listener
