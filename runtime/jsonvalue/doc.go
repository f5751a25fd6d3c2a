// Package jsonvalue is the order-preserving JSON value every schema codec and
// the IR hold content in.
//
// Invariants:
//   - An object keeps its members in the order they were read or built, and
//     never holds two members with the same name.
//   - A scalar keeps the exact bytes it was read from: number literals (1.0,
//     1e3, -0) and string escapes (\u00e9 against é) survive a round trip.
//   - A Value is immutable once built; the decoder's values alias the input
//     buffer, so the caller must not modify that buffer afterwards.
//
// It is a leaf package: it imports only the standard library, so generated
// validators may depend on it.
package jsonvalue
