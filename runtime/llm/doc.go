// Package llm is the LLM engine: it answers System One questions with a
// chat model that an OpenAI-compatible server serves (vLLM, llama.cpp's
// llama-server, Ollama, or OpenAI's API), reading every probability from
// the model's own token log-probabilities, never from generated text.
// `vllm-srun serve --llm-url URL --llm-model MODEL` plugs it into the model
// runtime (runtime/srun) behind the same seam as the reference scorer.
//
// One question is one prompt (prompts.go: one versioned template per
// question type, the state rendered by its roles), asked with
// temperature 0, max_tokens 1 (plus any reasoning budget), logprobs and
// top_logprobs. The answer position is the first generated token after a
// closed <think> block and whitespace; each label's log-probability there
// is the log-sum-exp of its spellings (with or without a leading space,
// any case), and the answer is the softmax over the labels, divided by the
// calibrated temperature of the question type (calibrate.go):
//
//	noul    Yes / No                         noul = P(Yes)
//	choice  A, B, C … (at most 26 options)   choice, probabilities, confidence
//	score   0, 1, … (at most 10 levels)      score = Σ level·p, probabilities, confidence, legend
//	set     one Yes / No noul per label      sets.<q>, thresholds, <q>.<label> nouls
//
// A label the backend did not score (missing from top_logprobs, which is
// not a distribution) is never given a probability: on vLLM the question
// is answered by scoring each option's continuation instead (one
// /v1/completions call with echo and prompt log-probabilities for all
// options), elsewhere it fails invalid_model_output label_not_scored.
//
// Which path each backend gets (backend.go):
//
//	vLLM       chat, top_logprobs ≤ --max-logprobs (20), chat_template_kwargs.enable_thinking=false; continuations on /v1/completions
//	llama.cpp  chat, top_logprobs 50 (no cap), chat_template_kwargs.enable_thinking=false; no continuations (echo is refused)
//	Ollama     /v1 chat, top_logprobs ≤ 20, reasoning_effort "none"; no continuations (its completions return no logprobs)
//	OpenAI     chat, top_logprobs ≤ 20; no continuations
//
// Invariants: every backend call has a deadline (the request's, and the
// per-call timeout); at most MaxConcurrency calls are in flight across all
// requests, and a call not started by the request's deadline is not made
// (deadline_exceeded); the backend's words (error messages, bodies) go to
// the log, never into an answer; a backend 429 or 503 answers the request
// 529 overloaded with the backend's Retry-After (the server's when it sent
// none), an unreachable backend 503 unavailable.
package llm
