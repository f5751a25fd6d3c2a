// Package distribution is the standard's answer arithmetic, shared by
// every engine that answers questions (the reference scorer, the LLM
// engine): the softmax, rounding a distribution to whole units of 1/10000
// that sum to exactly 1 without changing its order, a choice's and a
// score's confidence, and a score's expected level.
//
// Every function is pure and deterministic: the same input gives the same
// output on every platform.
package distribution
