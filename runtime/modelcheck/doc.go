// Package modelcheck decides, for each question of a request, whether one
// model (its card from generated/catalog) can answer it, and if so how:
// the question type and criteria it answers, the trained preset head if
// any, what it reads, and whether it reads everything.
//
// What a question reads is decided the way a model family reads it: the
// state's parts (by role on a role-aware family, else the whole state as
// the user's content), the media in front of a media-front state, the parts
// named by over, and a span question's default part. Tokens are counted
// with the runtime's documented tokenizer, and an image or video asset
// yields the few facts the checks need (size, dimensions, duration). All of
// it is deterministic: the same request gives the same input, tokens and
// offsets on every run and platform.
//
// A question it cannot answer gets a Failure: the question error kind of
// the extension set (invalid_question 422; max_length_exceeded,
// scan_budget_exceeded and invalid_input 400), a fixed reason word, the
// limit when one was broken, and a message for a person. Reasons and
// messages never carry request data: they name the model's limit, never a
// value the client sent.
//
// Checks run in a fixed order and the first failure wins: the question
// itself (type, preset, extension fields, criteria), then its input
// (placeholders, assets, media), then its length.
//
// ExpandPreset turns a preset question into a complete standard question
// from the canonical preset texts of the catalogue, never from hand-typed
// text; the target codecs decide whether the preset member goes with it.
//
// Features and CardValue are a card as a listing entry lists it: its
// feature words (generated/vocab's Feature*, in their order) and its JSON.
// vllm-srun lists its model with them and the Router lists (and routes by)
// a deployment of a catalogue model with the same, so the two servers
// describe one model alike.
package modelcheck
