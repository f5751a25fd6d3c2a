// Package targetcodec defines the seam between the Router and the schema
// codecs it calls System One deployments with (systemone/0.2, vllm-sr/5.0,
// internal): a codec plans the wire calls of a batch and decodes their
// replies back into the IR. Splitting, preset expansion and reassembly are
// decided by the codec's plan, never by callers.
//
// Codecs are stateless and safe for concurrent use.
package targetcodec
