// Package load is srgen's first stage: it reads the three specification
// files into raw documents that keep spec order and file:line:column
// positions, and checks each against the format it claims.
//
// The standard and extension specs, the model catalogue and the corpus
// are srgen's own YAML formats; each is validated against its JSON Schema
// (specs/*.schema.json) with santhosh-tekuri/jsonschema, and each error's
// instance location is followed back through the yaml.Node tree, so an
// unknown key, a missing key, a wrong type or a duplicate key is reported
// with its file:line:column and dotted path. The 4.0 contract is an OpenAPI 3.0
// document: kin-openapi loads and validates it, and its components and
// paths are read from the YAML nodes so their order and positions survive.
//
// Load reports every problem it finds at once, as Problems. It computes
// the sha256 of every spec file's bytes. It never resolves meaning: that is
// gen/model's job.
package load
