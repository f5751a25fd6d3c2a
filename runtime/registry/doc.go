// Package registry holds the Router's two registries, immutable values
// validated when they are built: every problem is reported at
// construction, one per line, and the accessors return sorted copies, so
// no caller can change them.
//
// APIs is the one registry of the APIs the Router speaks, on its listeners
// and to its upstreams: chat_completions, responses, messages, images and
// systemone. Each entry declares its name, its paths, its schema IDs and
// their defaults, its settings and the kind of model it serves; it names
// no codec. APIs are named by the API, not the vendor: openai
// and anthropic, the names earlier configurations used, are aliases of
// chat_completions and messages, resolved wherever an API is named.
// BuiltinAPIs is the registry the Router runs with. A new API is one
// entry; a new version of one is a schema ID and its codec. Neither
// changes a caller.
//
// Schemas is the registry of System One schema codecs, and the one place
// a schema ID is bound to codecs: systemone/0.2, vllm-sr/5.0, vllm-sr/4.0
// and the internal form, each with its specification (SpecRef), the
// listener codec that reads clients in it and the target codec that calls
// deployments in it, and the deviations (declared non-conformances of a
// deployment, such as state_text) applied after a target codec. Every
// other package looks a codec up here by schema ID (the configuration,
// the engine, the servers), and none names a particular codec. NewSchemas
// checks the ID pattern, that codecs are stateless and speak the ID they
// are registered under (target.Traits), no duplicates,
// that each specification's sha256 is the one the generated tables were
// built from, and that each deviation applies to a registered target
// schema. Configuration resolves schema and deviation IDs through it; an
// unknown ID is an error listing the supported ones. BuiltinSchemas is the
// registry the Router runs with.
package registry
