// Package emit is srgen's third stage: one emitter per artifact, each a pure
// function from the model to files.
//
// Emitters read the facts gen/model computed and never re-derive them: no
// emitter decides what a field means, which schema accepts it or in which
// order things come. They range over the model's slices as they are (never
// over a map without sorting), touch no disk and read no clock, so the
// same model always gives the same bytes. The ordered table of emitters is
// in registry.go; adding an artifact is one file and one row there.
package emit
