// Package upstreamreply reads what a System One server answers a client
// with into the IR: a response, a batch response, an error body and a
// model listing, in the vllm-sr/5.0 shapes, which contain the standard's
// (systemone/0.2). With Extensions false only the standard's members are
// read and every extension member is ignored, since a standard server
// never sends them and the Router never expects them.
//
// Reading is tolerant where the standard asks clients to be (unknown
// members and answer types are ignored, probabilities are matched by key,
// release dates are kept as written) and strict about the members the
// Router acts on: a body that is not JSON, or a member of the wrong type,
// is a *ir.ProtocolError naming the JSON path. One
// question's malformed or missing answer fails that question alone
// (invalid_model_output), never its neighbours.
//
// Error bodies are read in every shape a standard server or gateway
// sends: detail as a string, as {error_type, message} or as the 422 list,
// the extension's flat code, question, state, reason and limit, and the
// delay of Retry-After-Ms or Retry-After. Messages are the upstream's own
// words; this package adds none that carry request data.
package upstreamreply
