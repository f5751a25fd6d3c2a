// Package schemaregistry is the registry of System One schema codecs:
// systemone/0.2, vllm-sr/5.0, vllm-sr/4.0 and the internal form, each with
// its specification, the listener codec that reads clients in it and the
// target codec that calls deployments in it, and the deviations (declared
// non-conformances of a deployment, such as state_text) applied after a
// target codec.
//
// A Registry is an immutable value validated when it is built: the ID
// pattern, that codecs are stateless and speak the ID they are registered
// under, no duplicates, that each specification's sha256 is the one the
// generated tables were built from, and that each deviation applies to a
// registered target schema. Configuration resolves schema and deviation IDs
// through it; an unknown ID is an error listing the supported ones.
package schemaregistry
