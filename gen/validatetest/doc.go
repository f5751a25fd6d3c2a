// Package validatetest holds the hand-written tests, fuzz target and
// benchmarks of the generated validators (generated/validate). They live
// here, outside generated/, so that generated/ holds only what srgen
// writes; they test the package from outside, through its exported API
// only (Request, BatchRequest), as the runtime calls it.
//
// The package has no code of its own: every file but this one is an
// external test file (package validatetest_test). gen/emit's oracle tests
// check the same validators against the model instead.
package validatetest
