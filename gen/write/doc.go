// Package write is the only part of srgen that touches disk.
//
// It compares the files one generator run produced with what is on disk
// under the directories srgen owns, and either applies the difference
// (Apply: write only changed files, remove stale generated files) or reports
// it without writing anything (Diff, for `srgen check`).
//
// Ownership is explicit (Ownership): srgen removes a file only when it is a
// zz_generated.* file under one of the generated roots, or any file under a
// directory srgen owns whole, or a file its manifest lists (ApplyManifest,
// for `srgen docs --out DIR`, whose DIR may hold anything). Hand-written
// files elsewhere are never touched, even when they sit next to generated
// ones.
package write
