// Package routerconfig loads the Router's System One configuration: its
// listeners and the APIs each serves, its LLM upstreams, its System One
// deployments and pools, and its decision rules.
//
// Loading is strict and reports every problem at once, each with the file,
// line and column it is at: unknown keys, duplicate keys, wrong types,
// unknown API, schema and deviation IDs (listing the supported ones), and
// references to deployments, pools, models or rules that do not exist.
// So are the mistakes that would only fail in production: a port out of
// range, two listeners on one port, an endpoint that is not its schema's
// endpoint, a vllm-sr model the catalogue does not know (naming the
// closest), and a credential's environment variable that is unset. Every
// rule is checked against its deployment's schema and capabilities; a rule
// that needs what the target cannot carry is refused with one line naming
// the rule and the deployment. A rule a listener runs on its LLM traffic
// must be able to match, and a route rule must route to an upstream of
// each API it runs on.
//
// A deployment's fleet settings (required, retries, timeout_ms, circuit)
// are read into its Fleet, DefaultFleet where the configuration gives
// none (fleet.go).
//
// Credentials are read at load, from the environment or from key files
// (read again at every load, so a reload rotates them), into Secret
// values, which print as "[redacted]" everywhere: no key reaches a log
// line, an error or Describe. A key file's problems name the file and
// the line, never a key.
//
// The file's keys are stated once, as the tagged Go types of file.go: the
// loader takes each section's allowed and required keys from them, and
// srgen writes router.yaml's JSON Schema and its reference page from them
// (docs/reference/router-config.*). Schema (schemacheck.go) validates a
// configuration against that schema, or a narrower one of a deployment's
// own, with santhosh-tekuri/jsonschema, each error placed back through the
// YAML node tree at the line, column and key path the loader gives the
// same mistake (schemaplace.go); `vllm-sr config check --schema` prints
// them among the loader's problems (MergeProblems).
//
// API, schema and deviation names resolve through the registries
// (registry.APIs, registry.Schemas) the caller passes in, so a new API or
// schema needs no change here. Migrate rewrites a configuration that still
// uses the removed listener-level models and systemone fields. Envoy
// builds the Envoy bootstrap (go-control-plane's types) that puts several
// Router replicas serving a configuration behind one Envoy.
package routerconfig
