// Package listener5 is the vllm-sr/5.0 listener codec: the standard
// (systemone/0.2) plus the extension set, and nothing else.
//
// Every check comes from the generated validators and tables: a member the
// schema does not define, at any depth, and each removed 4.0 form are
// refused with 400 invalid_request naming the JSON path (and the
// replacement); a question that breaks its schema otherwise (too many
// options, missing criteria, a wrong type inside it) fails on its own as
// invalid_question, which on POST /v1/systemone answers the whole request
// with 422 question_failed for the first such question in request order.
//
// Reading: a request without roles has no roles (RoleModeNone); with roles,
// explicit ones. The standard's long-context header sets
// Options.LongContext. An array state of image placeholders, then video
// placeholders, then exactly one other item is read as that item with the
// media in front of it (listener.ClientRequest.Media). Every request of
// /v1/systemone and /v1/systemone/batch is a translate plan; the native
// endpoints (/v1/decisions, /v1/bundle) read the internal form and pass
// through.
package listener5
