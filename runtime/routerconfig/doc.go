// Package routerconfig loads the Router's System One configuration: its
// listeners and the APIs each serves, its LLM upstreams, its System One
// deployments and pools, and its decision rules.
//
// Loading is strict and reports every problem at once, each with the file,
// line and column it is at: unknown keys, duplicate keys, wrong types,
// unknown API, schema and deviation IDs (listing the supported ones), and
// references to deployments, pools or models that do not exist. Every rule
// is checked against its deployment's schema and capabilities; a rule that
// needs what the target cannot carry is refused with one line naming the
// rule and the deployment.
//
// API, schema and deviation names resolve through the registries
// (registry.APIs, registry.Schemas) the caller passes in, so a new API or
// schema needs no change here. Migrate rewrites a configuration that still
// uses the removed listener-level models and systemone fields.
package routerconfig
