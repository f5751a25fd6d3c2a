// Package target is the upstream side of the schema layer: the codecs the
// Router calls System One deployments with, one per upstream schema, and
// what they share (plans, reply reading, reassembly, carry checks,
// deviations).
//
// A codec is seen through small interfaces, each the seam one caller
// needs; Codec, what the schema registry binds to a schema ID, is all of
// them:
//
//   - Traits() is what the schema is, as data: its ID, what it carries
//     (Capabilities), the Stateless promise the registry checks, its
//     listing path, whether its servers are vllm-sr's own (Native: a
//     pass-through may go to their native endpoints) and whether it reads
//     implicit roles. The specification a schema is checked against is
//     the registry entry's, not the codec's.
//   - Planner plans the wire calls of a batch for a Target: splitting,
//     preset expansion and stripping are decided here, never by callers
//     (the engine's plan step).
//   - ReplyDecoder reads one call's reply back into the IR, one result per
//     item (the caller that sent the call); Reassemble and FirstFailure
//     build the answer from the results.
//   - ListingDecoder reads the target's model listing (the Router's
//     capability routing).
//   - RequestWriter writes one request alone, with its headers and
//     diagnostics (`vllm-sr convert`).
//
// Two seams are optional, asserted where needed: RequestReader, for a
// schema no listener codec reads (systemone/0.2, the internal form), reads
// one request body for convert; CarryChecker, for a schema that cannot
// carry all of the IR (systemone/0.2), lists what a request needs that the
// schema or the deployment's declared capabilities cannot carry, which
// CheckCarry turns into a *CarryError before any call.
//
// There is one codec per upstream schema: Standard02 (systemone/0.2), V50
// (vllm-sr/5.0) and Internal (a model runtime's /v1/decisions and
// /v1/bundle). Nothing outside the schema registry names them; everyone
// else looks a codec up by schema ID. ReplyReader reads what they get
// back, through the answer shapes' one binding in runtime/internalwire,
// and vets it: answer ranges, and the Router's error table.
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
