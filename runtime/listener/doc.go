// Package listener is the listener side of a System One server: the codec
// seam (Codec: what a codec reads a client's request into, and how it
// answers in the client's schema), the reading and answering code every
// listener schema shares (the native endpoints, problem triage, refusals,
// the IR builder, the choice of answer shape), and the two
// listener codecs, V50 (vllm-sr/5.0) and V40 (vllm-sr/4.0).
//
// A codec is stateless and safe for concurrent use; the per-request state
// lives in ClientRequest. Every request of /v1/systemone and
// /v1/systemone/batch is checked by the schema's generated validator; the
// native endpoints (/v1/decisions, /v1/bundle) read the internal form and
// pass through on both codecs (translated when the long-context header
// must be carried into the body); a /v1/decisions request none of whose
// questions is valid is refused with each question's kind, reason and
// limit in the detail list (NoValidQuestion).
//
// V50 is the standard (systemone/0.2) plus the extension set, and nothing
// else. A member the schema does not define, at any depth, and each
// removed 4.0 form are refused with 400 invalid_request naming the JSON
// path (and the replacement), as the extension set says; any other schema
// problem outside one question (a number state, no questions) is answered
// as the standard answers it, 422 validation_failed with the standard's
// detail list locating each member; a question that breaks its schema otherwise
// (too many options, missing criteria, a wrong type inside it) fails on its
// own as invalid_question, which on POST /v1/systemone answers the whole
// request with 422 question_failed for the first such question in request
// order. A request without roles has no roles (RoleModeNone); the
// standard's long-context header sets Options.LongContext; an array state
// of image placeholders, then video placeholders, then exactly one other
// item is read as that item with the media in front of it
// (ClientRequest.Media). Its requests are translate plans.
//
// V40 reads everything the frozen 4.0.0 contract accepted (implicit roles
// from an object state's keys, choices, levels and labels, images and
// videos, preset-only questions, states batches on /v1/systemone,
// options.long_context) and every vllm-sr/5.0 form on the same paths, with
// no header. The 4.0-only forms are exactly the ones 5.0 refuses, so
// reading them never changes the meaning of a valid 5.0 request, with two
// overlaps, where a valid 5.0 request keeps its 4.0 reading: an object
// state without roles keeps 4.0's implicit roles (RoleModeImplicit), and an
// array state of asset placeholders in front of one item stays an array
// that labels its assets. V40 records both, and every legacy form, as
// Diagnostics on the ClientRequest; front.Metrics counts them per
// listener.
// Its answers keep the 4.0 shape (a states request is answered per state
// name), error bodies carry both the standard detail and 4.0's error
// object, and the listing keeps the OpenAI data list beside models. A
// request the internal form reads as it is (every 4.0 request) is a
// pass-through plan; one that needs the long-context header carried into
// the body, and a batch, are translated.
//
// The HTTP around a request (ids, deadlines, metrics, access lines) is
// runtime/front's, the sockets runtime/socket's: a codec reads bytes and
// writes answers, and knows nothing of connections.
package listener
