// Package ir is the schema-neutral representation (the IR)
// every System One translation passes through: requests, batches, questions,
// answers, error bodies and listings.
//
// A listener's codec reads a client's request into the IR and a target's
// codec writes it in the target's schema; nothing translates schema to
// schema directly.
//
// Invariants:
//   - The IR never holds wire JSON of a particular schema. JSON content (a
//     state, instructions, criteria descriptions, asset data) is kept as
//     order-preserving jsonvalue.Value; everything else is typed.
//   - "Absent" and "zero or null" stay distinct: optional scalars are
//     pointers, absent content is the zero jsonvalue.Value, and JSON null is
//     jsonvalue.Null().
//   - Closed sets are typed string enums with a shared prefix (RoleUser,
//     AssetImage, OverflowWindow). The zero value of an enum is never a
//     valid member: it means unset (caught, never defaulted) or, where a
//     field says so, absent.
//   - A Layout records how a message was spelled on the wire it was read
//     from (member order, legacy spellings, literals written in a
//     non-canonical way). It is plain data: a codec of that wire replays it
//     to write the message back byte for byte, any other codec ignores it,
//     and a zero Layout means canonical order and spelling.
//   - Diagnostics (legacy forms used, fields dropped or approximated) are
//     values, not log lines, and a ProtocolError names a category, a fixed
//     reason word and a JSON path, never a value of the request.
package ir
