// Package engine translates one System One request body from one schema
// to another, always through the IR: the source schema's codec reads the
// body into an ir.Request and the target's codec writes it.
//
// Today it is the library behind `vllm-sr convert` and nothing else: one
// body in, one request body out (Converter, Convert, Translate), with no
// batch, no upstream call and no reply. The Router and vllm-srun do not run
// requests through it yet; they call the listener and target codecs
// themselves.
//
// The schemas and deviations come from a schema registry
// (registry.Schemas): it reads vllm-sr/5.0 and vllm-sr/4.0 with their
// listener codecs, systemone/0.2 with the standard validator and the 5.0
// listener codec, and the internal form with internalwire; it writes every
// schema that has a target codec (systemone/0.2, vllm-sr/5.0, internal) as
// one request, then applies the deployment's deviations to that call. A
// new schema or deviation in the registry needs no change here.
package engine
