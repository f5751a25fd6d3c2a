// Package requestwire writes IR requests and batches as vllm-sr/5.0
// request bodies: the standard's (systemone/0.2) members in their standard
// spellings, plus the extension set. A Skip predicate leaves members out,
// which is how a systemone/0.2 target gets the generated strip list
// applied (fieldtable.StrippedMembers) and a vllm-sr/5.0 target gets
// everything.
//
// Output is compact and deterministic: members in a fixed order (model,
// state, roles, questions, assets, options; a question's type,
// instructions, criteria, then the extension fields in the specification's
// order), content written by jsonvalue's compact encoder so a state's
// member order and number literals reach the wire as read.
//
// 5.0 has no implicit roles: a request read with 4.0's implicit roles is
// written with the explicit roles they stand for
// (internalwire.ExplicitRoles), so the model input stays the same. The
// long-context flag is the standard's header, never a body member, and
// 4.0's states form has no 5.0 spelling: a request using it is refused
// (a batch carries several states).
package requestwire
