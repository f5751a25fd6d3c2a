// Package model is srgen's second stage: it resolves the three raw
// specifications that gen/load read (the standard systemone/0.2, the
// vllm-sr extension set 5.0 and the frozen 4.0 contract) into one typed,
// checked and ordered Model.
//
// The model is where the thinking happens: which schema IDs accept which
// field (the three specs' own and the internal form), the message shapes
// per schema with the extension set's overrides applied (what is required,
// nullable or allowed where, and the entry messages of a batch's items),
// the question types with their criteria and limits, the removed forms and
// their replacements, the families, error kinds, limits, reason words and
// the implicit-role table. Emitters read
// these facts as they are and never re-derive them. Every ordering
// decision lives in order.go.
//
// Build checks what a spec's format cannot: schema IDs match the ID
// pattern, no field is defined twice, no field has two meanings across
// specifications, every reference (level, family, question type,
// replacement) is known. Each problem names its file:line:column, and
// all of them are reported at once.
package model
