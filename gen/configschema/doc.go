// Package configschema writes router.yaml's JSON Schema and its
// reference page from the Go types that state the file's keys
// (runtime/routerconfig/file.go), read as source: each struct type is an
// object, each field a property named by its yaml tag and described by
// its doc comment, and its schema tag adds what the schema checks
// (required, bounds, enums, patterns, the forms of a value). gen imports
// no runtime package but the leaves, so the types are parsed, not
// reflected on; the loader reflects on the same types for its key lists,
// so the schema and the loader cannot disagree on which keys exist.
//
// The schema is JSON Schema 2020-12, written with its keys in one order
// and its properties in the fields' order, so the same file.go always
// gives the same bytes. It checks the file's shape; what needs the
// registries or the other sections (an API's name, a deployment a rule
// names, an environment variable that is set) stays the loader's.
package configschema
