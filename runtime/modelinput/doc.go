// Package modelinput decides what one question of a request reads, the way
// a model family reads it: the state's parts (by role on a role-aware
// family, else the whole state as the user's content), the media in front
// of a media-front state, the parts named by over, and a span question's
// default part. It also counts tokens with the runtime's documented
// tokenizer and reads the few facts of an image or video asset the model
// checks need (size, dimensions, duration).
//
// Everything here is deterministic: the same request gives the same input,
// the same tokens and the same offsets on every run and platform.
package modelinput
