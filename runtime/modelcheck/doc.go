// Package modelcheck decides, for each question of a request, whether one
// model (its card from generated/catalog) can answer it, and if so how:
// the question type and criteria it answers, the trained preset head if
// any, what it reads, and whether it reads everything.
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
package modelcheck
