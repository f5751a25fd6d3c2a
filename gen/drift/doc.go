// Package drift compares our description of the System One standard
// (specs/systemone/systemone-0.2.schema.yaml, as gen/model resolves it)
// with the published OpenAPI document: a local file, or the spec's
// source.url fetched over HTTP with a timeout (Check, Fetch). Fetched bytes
// are compared in memory and never saved: the document carries no license.
//
// A document whose sha256 is the spec's source.sha256 is the one the
// description was checked against, and is not compared. Any other is read
// into a Document (readDocument) and our description is projected onto
// the same form (expected); comparer then walks both and reports each
// facet that differs, one line each, added, removed or changed from what
// to what:
//
//   - the openapi and info.version fields;
//   - paths, their operations, request bodies (and their required flag),
//     declared response statuses, media types and body schemas;
//   - each component the spec lists under source.components, and any
//     other component that is a message (has properties) or that nothing
//     refers to;
//   - per schema: the kinds and components allowed (type), nullability,
//     properties and their required flags, enums and consts, discriminator
//     property and mapping, minimum/maximum, minItems/maxItems, items,
//     minProperties/maxProperties and additionalProperties.
//
// Formats, string lengths, patterns and exclusive bounds are not compared:
// our description does not record them. A keyword whose meaning drift
// cannot fold (not, if, patternProperties, an external $ref, ...) makes the
// document unreadable, an error rather than a pass.
//
// Both sides are normalised before comparing (see Shape), so spelling
// never differs: nullable as a type list, a null alternative or
// nullable: true; a union inline or as a named component, oneOf or anyOf,
// its discriminator declared or implied by the variants' constants.
//
// Our side takes only what the spec says the document carries: fields,
// question types, endpoints and statuses documented_in openapi. Where an
// entry follows another source, its openapi reading (model.OpenAPIReading)
// says what the document says instead; the difference between the two is
// reported as Known, naming the recorded conflict it comes from, and never
// fails. Every other Difference fails the check.
package drift
