// Package listener4 is the vllm-sr/4.0 listener codec: everything the
// frozen 4.0.0 contract accepted (implicit roles from an object state's
// keys, choices, levels and labels, images and videos, preset-only
// questions, states batches on /v1/systemone, options.long_context) and
// every vllm-sr/5.0 form on the same paths, with no header.
//
// The 4.0-only forms are exactly the ones 5.0 refuses, so reading them never
// changes the meaning of a valid 5.0 request, with two overlaps, where a
// valid 5.0 request keeps its 4.0 reading: an object state without roles
// keeps 4.0's implicit roles (RoleModeImplicit), and an array state of
// asset placeholders in front of one item stays an array that labels its
// assets. The codec records both, and every legacy form, as Diagnostics on
// the ClientRequest; listener.FormCounter counts them per listener.
//
// Answers keep the 4.0 shape (a states request is answered per state
// name), error bodies carry both the standard detail and 4.0's error
// object, and the listing keeps the OpenAI data list beside models. A
// request the internal form reads as it is (every 4.0 request) is a
// pass-through plan; one that needs the long-context header carried into
// the body, and a batch, are translated.
package listener4
