// Package internalwire is the codec of the internal wire form: the form the
// hops inside a deployment speak (the Router to a model runtime's
// /v1/decisions and /v1/bundle, an Engine to its workers).
//
// The internal form is vllm-sr/4.0's request forms plus roles:
//
//   - A request is {"model", "state" | "states", "roles", "questions",
//     "assets" | "images"/"videos", "options"}, in any member order.
//   - roles: an ABSENT member is 4.0's implicit roles (from the state's
//     keys), roles: null is no roles, and an object maps state keys to
//     user, context or answer.
//   - A question's criteria are spelled criteria (the standard's) or, as in
//     4.0, choices (an object of option keys to descriptions, for choice and
//     for noul with the keys true and false), levels (an array, lowest
//     first, for score) or labels (an object of labels to descriptions, for
//     set and span). A question may be preset-only: a preset, no type and no
//     instructions.
//   - Assets are spelled assets (each with its type) or, as in 4.0, images
//     and videos (objects of placeholder to asset, type optional); every
//     asset has a format and its data_base64.
//   - states is an object of name to state: every question is asked of each
//     state and answered under the same names. options.long_context is a
//     boolean, the body form of the standard's long-context header.
//
// The bundle body of POST /v1/bundle is several named requests in that
// form: {"model"?, "requests": {name: request, ...}}, as the frozen 4.0
// contract (specs/systemone/vllm-sr-4.0.openapi.yaml, Bundle) defines it.
// Each item is a complete internal request, with its own options; the
// bundle has none of its own, so a vllm-sr/5.0 batch's options are copied
// into its items by whoever builds the bundle.
//
// The codec is lossless: a body DecodeRequest accepts, EncodeRequest writes
// back byte for byte as its compact form (member order, the 4.0 spellings,
// number literals and string escapes). The IR stays schema-neutral; the
// spelling lives in each object's ir.Layout, which
// EncodeRequest replays and falls back from to a canonical order and the
// standard spellings for an IR other codecs built.
//
// The form is a closed schema: an unknown member is refused with a
// *ir.ProtocolError naming its JSON path, and so is a member
// of the wrong type, an unknown fixed word, or a criteria spelling that
// does not fit its question type. Limits that concern what a model can
// answer (how many options, how long a state) are not the codec's: they are
// checked where a question can fail on its own.
package internalwire
