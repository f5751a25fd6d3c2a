// Package target is the upstream side of the schema layer: the codecs the
// Router calls System One deployments with, one per upstream schema, and
// what they share (plans, reply reading, reassembly, carry checks,
// deviations).
//
// A codec is seen through small interfaces, each the seam one caller
// needs; Codec, what the schema registry binds to a schema ID, is all of
// them: Traits (what the schema is, as data), Planner (the engine's plan
// step: splitting, preset expansion and stripping are decided there, never
// by callers), ReplyDecoder (one call's reply, one result per item, from
// which Reassemble and FirstFailure build the answer), ListingDecoder (the
// target's model listing, for capability routing) and RequestWriter (one
// request alone, for `vllm-sr convert`). Two seams are optional, asserted
// where needed: RequestReader (convert's reading of a schema no listener
// codec reads) and CarryChecker (what a schema that cannot carry all of
// the IR refuses, which CheckCarry turns into a *CarryError before any
// call).
//
// There is one codec per upstream schema: Standard02 (systemone/0.2), V50
// (vllm-sr/5.0) and Internal (a model runtime's /v1/decisions and
// /v1/bundle). Nothing outside the schema registry names them; everyone
// else looks a codec up by schema ID. ReplyReader reads what they get
// back under the codec's schema, through the answer shapes' one binding in
// runtime/shapes, after the schema's generated reply validator, and
// vets what needs the question (an answer's keys, a score's last level)
// and the Router's error table.
//
// A Deviation is a declared, tested non-conformance of one deployment,
// such as StateText (state_text): it rewrites a codec's calls after the
// codec wrote them and the replies before the codec reads them. The
// deviations are independent of any registry; the schema registry lists
// them (BuiltinDeviations) and resolves a deployment's by ID. Each has its
// own golden test and a row in docs/deviations.md.
//
// Codecs and deviations are stateless and safe for concurrent use.
package target
