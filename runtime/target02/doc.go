// Package target02 is the Router's client codec for deployments that speak
// systemone/0.2, the published System One standard.
//
// What goes on the wire is only the standard's: one POST /v1/systemone per
// batch item (the standard has no batch endpoint), run at most
// Target.MaxConcurrency at a time (default 8) under the caller's deadline,
// each body with the target's model, the standard question types and the
// standard members. In particular:
//
//   - Presets are expanded from the canonical preset texts of the model
//     catalogue (generated/catalog): a question without a type takes the
//     preset's, and absent or null instructions and criteria take the
//     preset's. The preset member itself is then stripped.
//   - Extension members are stripped by the generated strip list
//     (fieldtable.StrippedField): roles, options (so no deadline field is
//     sent), preset and overflow. Explicit roles have no standard spelling:
//     the whole state is sent as it is, every part as the user's content,
//     and a "dropped roles" diagnostic is recorded.
//   - What the standard cannot carry (fieldtable.RefusedAtLoad: span, set
//     and track questions, video assets, head, decision_adapter, over,
//     require_full_input, threshold, at, rate), and any question type or
//     medium outside the deployment's declared capabilities, is refused by
//     CheckCarry with a *targetcodec.CarryError before any call: the Router
//     calls it at configuration load for each rule and Plan calls it for
//     each batch.
//   - The long-context flag goes as TypeSafe-Danger-Zone-Long-Context:
//     true, and image assets or box questions add
//     TypeSafe-Danger-Zone-Images: true.
//
// Replies are read as the standard's: a 200 into the item's response
// (extension members ignored), any other status into an error body that
// keeps the status, the 400 detail, the 422 detail list and the
// Retry-After delay. A call that got no reply fails only its own item.
// The standard has no model card, so the deployment's declared
// capabilities stand in for one; the listing is read for its standard
// members only.
package target02
