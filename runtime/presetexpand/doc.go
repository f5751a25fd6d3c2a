// Package presetexpand turns a preset question into a complete standard
// question from the canonical preset texts of the model catalogue
// (generated/catalog), never from hand-typed text: the type, instructions
// and criteria a question leaves to its preset. A systemone/0.2 target
// gets the expanded question without the preset (zero-shot answers
// instead of a trained head); a vllm-sr target gets it with the preset, so
// a 4.0 preset-only question is still a complete standard message.
package presetexpand
