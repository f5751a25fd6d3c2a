// Package drift compares our description of the System One standard
// (specs/systemone/systemone-0.2.schema.yaml, as gen/model resolves it)
// with a published OpenAPI document, such as a fresh copy of
// https://api.typesafe.ai/openapi.json that the caller fetched: it never
// fetches anything itself.
//
// Compare first checks the document's sha256 against the one the spec
// records (source.sha256). When they differ it compares each component
// schema the spec lists under source.components with the fields of the
// level (and question type) it describes, and lists every field that
// differs in name, type, required flag or nullability, and every
// component that appeared or went away. Only fields the spec says the
// OpenAPI document carries (documented_in: openapi) take part; a field the
// prose docs also describe may accept more kinds than the document, never
// fewer.
//
// The document is loaded with kin-openapi, OpenAPI 3.0 or 3.1 (FastAPI
// writes 3.1: a nullable value is anyOf with a null alternative, or a type
// list holding null).
package drift
