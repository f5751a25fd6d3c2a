// Package jsonvalue is the order-preserving JSON value every schema codec and
// the IR hold content in.
//
// Invariants:
//   - An object keeps its members in the order they were read or built, and
//     never holds two members with the same name.
//   - A scalar keeps the exact bytes it was read from: number literals (1.0,
//     1e3, -0) and string escapes (\u00e9 against é) survive a round trip.
//   - A Value is immutable once built; the decoder's values alias the input
//     buffer (literals, raw names, and the names and Str text written
//     without escapes), so the caller must not modify that buffer
//     afterwards.
//
// Decode is a strict, single-pass decoder (RFC 8259, plus: valid UTF-8 with
// no escaped lone surrogate, unique member names, a nesting limit). Its
// errors are *SyntaxError values with a fixed reason word, a JSONPath and a
// byte offset, and never repeat input values. DecodeBorrowed decodes into
// containers the decoder keeps for the next document, valid until Release;
// a reader keeps the few it needs with Clone (or a Copier, several in one
// allocation each of members, items and containers).
//
// Two encoders write a Value: AppendCompact, the wire form, which writes
// every scalar and name from its exact bytes (decode then compact is byte
// for byte the compact input); and AppendPython, which writes what Python's
// json.dumps(json.loads(text), ensure_ascii=False) writes, for the
// state_text deviation and anything hashed or compared with Python. Text
// without raw bytes (built by the constructors) is written with one
// escaping, Python's: see quote.go.
//
// It is a leaf package: it imports only the standard library, so generated
// validators may depend on it. (Its tests also import jsontext, the
// benchmark baseline.)
package jsonvalue
