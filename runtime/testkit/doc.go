// Package testkit is the one test-support package of the runtime and of
// srgen's tests: only _test.go files import it (gen/architecture_test.go),
// so nothing of it, nor `testing`, go-cmp or kin-openapi, which it
// imports, is linked into a command. It holds
//
//   - golden files (GoldenCheck, GoldenCheckTree): compare test output with
//     want files under testdata/, or rewrite them when asked;
//   - the vllm-sr/4.0 contract check (OpenAPI40Check): an HTTP exchange
//     with a 4.0 server against the frozen contract,
//     specs/systemone/vllm-sr-4.0.openapi.yaml, with kin-openapi's
//     openapi3filter;
//   - the Router's test upstream (RouterRecorder): a recording upstream
//     that speaks only systemone/0.2, served on loopback through
//     net/http/httptest and closed by the test's cleanup;
//   - capture (ScrapeMetrics, LogBuffer): a server's Prometheus families
//     read over HTTP, and a log destination its goroutines write to while
//     the test reads it;
//   - the conformance kit's test servers (NewConformanceServer): a
//     systemone/0.2 server that keeps the standard, or breaks it as
//     ConformanceFaults say, for the tests of runtime/conformance (the
//     kit itself, which `vllm-sr conformance` runs) and of the command;
//   - the hostile-input suite (HostileCases, RunHostile,
//     CheckWholeBodyClient, CheckConcurrentBombs): requests a hostile
//     client sends, run over loopback HTTP against vllm-srun and the
//     Router's listeners in both listener schemas, each answer checked for
//     its status, code and reason, its size and JSON, and the server's
//     logs for request data;
//   - the slow-client suite (RunSlowClients, SlowTarget): stalled bodies,
//     slowloris headers, silent connections, slow readers of a multi-MiB
//     answer and 500 idle keep-alive connections over raw loopback TCP,
//     each let go of within the server's configured deadline (plus
//     SlowSlack) while good clients are answered 200, measured by the
//     server's goroutines coming back to their count before the attack
//     while the attacking sockets are still open;
//   - the fixed-rate load (RunFixedRate): open-loop requests at a fixed
//     rate, every one to be answered 200, with p50 and p99; and the leak
//     check (WaitGoroutines) a test runs after a graceful shutdown;
//   - a benchmark's CPU time per iteration (CPUPerOp), steadier than its
//     wall time on a shared machine;
//   - the fake OpenAI-compatible LLM backend of the LLM engine's tests
//     (NewLLMBackend): /v1/models, chat completions and completions with
//     log-probabilities as vLLM, llama.cpp's llama-server, Ollama's /v1
//     layer or OpenAI return them (shapes, caps, errors, reasoning), from
//     a deterministic toy model whose numbers a test can predict
//     (LLMTokenize, LLMRenderChat, LLMAnswerLogits), and faults (LLMFault):
//     replies without logprobs, malformed, cut or oversized bodies, 429,
//     503, loading, 500 and hangs.
//   - the guides' examples replayed (GuideCurl, MatchElided): a guide's
//     curl command sent to a test server in place of the guide's port, and
//     its answer compared with what the guide shows, "..." eliding parts.
//
// It imports the code it tests (runtime/listener, runtime/refscorer and
// what they import), so a test of one of those packages that uses it is
// an external test (package x_test).
//
// Rewrite goldens with `go test ./pkg -update` in a package whose tests
// import this one, or with SRGEN_UPDATE_GOLDEN=1 for a command that spans
// many packages (`SRGEN_UPDATE_GOLDEN=1 go test ./...`, `make
// golden-update`). The -update flag is registered here and nowhere else, so
// a test binary never defines it twice. CI only compares.
package testkit
