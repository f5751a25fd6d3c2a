// Package gen is srgen, the generator that turns the System One
// specifications into the Go field tables, validators and vocabulary, the
// Python tables, the round-trip corpus and the reference docs.
//
// Run is the whole generator as a library call, in four stages, each its
// own package:
//
//	load  (gen/load)   spec bytes → raw documents with positions
//	model (gen/model)  raw documents → one checked, ordered Model
//	emit  (gen/emit)   Model → files, one emitter per artifact, no I/O
//	write (gen/write)  files → disk: write changed files, remove stale ones
//
// Beside the stages, gen/drift compares our description of the standard
// with the published OpenAPI document (`srgen drift --published FILE` or
// `--fetch`), and
// gen/validatetest holds the hand-written tests of generated/validate, so
// that generated/ holds only srgen's output.
//
// Invariants: output is deterministic (the same specs give the same bytes:
// no dates, versions or absolute paths); srgen writes and removes only the
// files it owns (gen/write.Ownership); a check run writes nothing.
package gen
