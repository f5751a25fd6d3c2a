// Package convert translates one System One request body from one schema
// to another, always through the IR: the source schema's codec reads the
// body into a systemoneprotocol.Request and the target's codec writes it.
//
// It is the library behind `vllm-sr convert`. The set of schemas it knows
// is a fixed table built at init (only the internal wire form at this
// stage); each later schema codec adds one entry, and each deviation one
// rewriter, without changing a caller.
package convert
