// Package target is the Router's upstream side: the codecs it calls
// System One deployments with, and what they share.
//
// Codec is the seam: a codec plans the wire calls of a batch for a Target
// (Plan) and decodes their replies back into the IR (DecodeReply).
// Splitting, preset expansion and reassembly (Reassemble, FirstFailure)
// are decided by the codec's plan, never by callers. There is one codec
// per upstream schema: Standard02 (systemone/0.2), V50 (vllm-sr/5.0) and
// Internal (a model runtime's /v1/decisions and /v1/bundle). ReplyReader
// reads what they get back; CarryError refuses, before any call, what a
// target cannot carry.
//
// A Deviation is a declared, tested non-conformance of one deployment,
// such as StateText (state_text): it rewrites a codec's calls after the
// codec wrote them and the replies before the codec reads them. The
// deviations are independent of any registry; the configuration registry
// lists them (BuiltinDeviations) and resolves a deployment's by ID. Each
// has its own golden test and a row in docs/deviations.md.
//
// Codecs and deviations are stateless and safe for concurrent use.
package target
