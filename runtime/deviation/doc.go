// Package deviation holds the deviations a deployment may declare: each a
// targetcodec.Deviation, a rewriter applied to a codec's wire calls after
// the codec wrote them and to replies before the codec reads them. The
// implementations are independent of any registry; the configuration
// registry lists them (Builtin) and resolves a deployment's deviations
// by ID.
//
// Each deviation has its own golden test and a row in docs/deviations.md
// (id, applies to, what it rewrites, why, test).
//
// state_text: an object or array state goes as the exact text of Python's
// json.dumps(state, ensure_ascii=False) (jsonvalue.AppendPython), for a
// gateway that accepts only text states. Decision 3 renders an object
// state as that very text, and Vela parses it back, so the model input is
// unchanged. A request whose state it rewrites loses its roles (a text
// state has no keys for them to name), with a dropped diagnostic. It
// rewrites a single request's state and every state of a
// vllm-sr/5.0 batch body; replies carry no state and pass unchanged.
package deviation
