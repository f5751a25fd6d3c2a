package testkit

// The fake OpenAI-compatible LLM backend of vllm-srun's LLM engine tests:
// it speaks as vLLM, llama.cpp's llama-server, Ollama's /v1 layer or
// OpenAI do, from what their source says, and answers from a deterministic
// toy model (llm_model.go) whose log-probabilities a test can predict.
//
// Modelled on the sources below; "read" marks what was read for this fake
// at the commit given, "ref" what is taken from
// /work/shared/reference/llm-logprob-protocols.md, which cites the file
// and commit it read.
//
//   - vLLM, vllm-project/vllm:
//     read vllm/entrypoints/serve/exception_handling/error_response.py
//     @ba638200e9731168ac964ebcee2f704f9f01098d: {"error":{message, type,
//     param, code}}, message = str(exc), VLLMValidationError 400
//     "BadRequestError" with its param, not found 404 "NotFoundError";
//     read vllm/exceptions.py @f984edf698e863600a1f5973c283fa9595c8707c:
//     VLLMValidationError.__str__ appends " (parameter=P, value=V)";
//     read vllm/entrypoints/openai/server_utils.py
//     @029329a8eded26d05ef8d4a302a6c9f318817dd8: AuthenticationMiddleware
//     answers 401 {"error": "Unauthorized"} on /v1 paths only;
//     validation_exception_handler types body validation "Bad Request";
//     read .../chat_completion/serving.py (_get_top_logprobs in several
//     stored versions, e.g. @5e918640d7b65820db5beaa98c2a99925bff7c17):
//     sampled token first, then the top-k, max(logprob, -9999.0), bytes of
//     the UTF-8 string; read, in a stored protocol: check_logprobs
//     ("when using `top_logprobs`, `logprobs` must be set to true.",
//     "`top_logprobs` must be a positive value or -1.");
//     ref V-chat (chat_completion/protocol.py @002032ee), V-cmpl
//     (completion/protocol.py @002032ee), V-cmpl-srv (completion/serving.py
//     @cc139d8e: echo with max_tokens 0, tokens/token_logprobs/top_logprobs/
//     text_offset with null first entries, N+1 entries, usage summed),
//     V-runner (gpu_model_runner.py @4e179065: the grammar bitmask before
//     the sampler, so guided choice renormalises), V-health (/health 200,
//     empty), the ModelCard (owned_by "vllm", root, parent, max_model_len,
//     permission), the --max-logprobs 400 "Requested sample logprobs of N,
//     which is greater than max allowed: M" (param logprobs) and the
//     context-length messages (1.6; their "(parameter=..., value=...)"
//     tails as vLLM's answers quoted in public logs show them).
//   - llama.cpp, ggml-org/llama.cpp: read tools/server/server-common.cpp
//     @006639c3ff51a3dbde5f52ebf4c5a55ad5306caf: format_error_response
//     ({code, message, type}; types by status), oaicompat_chat_params_parse
//     (n_probs = top_logprobs, 20 when absent; "top_logprobs requires
//     logprobs to be set to true"; `invalid type for "enable_thinking"
//     (expected boolean, got string)`), oaicompat_completion_params_parse
//     ("Only no echo is supported", "Unsupported param: ...", runtime
//     errors, so 500 server_error); read in stored versions of
//     tools/server/server.cpp and server-http.cpp: the API-key middleware
//     (401 "Invalid API Key", /health, /models, /v1/models open) and the
//     loading middleware (the model list passes, "/" the loading page, the
//     rest 503 {"error":{"message":"Loading model","type":
//     "unavailable_error","code":503}}); the /v1/models entry (owned_by
//     "llamacpp", meta with n_ctx_train; "models" beside "data");
//     ref L-task (server-task.cpp @00efb3e1: id, token, bytes, logprob,
//     top_logprobs; reasoning_content; logprobs left out when empty),
//     L-ctx (sorted alternatives, no cap; exceed_context_size_error with
//     n_prompt_tokens and n_ctx when the prompt fills the slot; an array
//     of completions for several prompts), L-readme (/props
//     default_generation_settings.n_ctx, /health {"status":"ok"}).
//   - Ollama, ollama/ollama, all read @fb30760996871fa9460115c753afd2c60d4ab0f7:
//     openai/openai.go (Error{message, type, param, code} typed by status;
//     ChatCompletion, Choice, ChoiceLogprobs, Message.reasoning;
//     thinkFromReasoningEffort; Model.owned_by = the name's namespace,
//     "library"; CompletionRequest.prompt a string; ToCompletion without
//     logprobs); api/types.go (Logprob, TokenLogprob: bytes and
//     top_logprobs omitempty); server/routes.go ("top_logprobs must be
//     between 0 and 20" before the model lookup, "model '%s' not found",
//     GET / "Ollama is running"); server/sched.go (ErrMaxQueue "server
//     busy, please try again.  maximum pending requests exceeded");
//     middleware/openai.go (writeError wraps the native error); ref O-lls
//     and server/prompt.go (silent truncation).
//
// What is the fake's own: the toy model (tokenizer, logits), ids and
// timestamps (fixed, so the same request gives the same bytes), the
// wording of faults no source fixes (429 bodies, vLLM's queue-overflow
// message), and LLMOpenAI, written from OpenAI's public API reference.

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// LLMFlavor is the server a fake LLM backend speaks as.
type LLMFlavor string

// The flavors.
const (
	LLMVLLM     LLMFlavor = "vllm"
	LLMLlamaCpp LLMFlavor = "llama.cpp"
	LLMOllama   LLMFlavor = "ollama"
	LLMOpenAI   LLMFlavor = "openai"
)

// LLMFault is a way the fake backend fails; "" fails nothing. Faults
// other than LLMLoading apply to the completion routes only (chat and
// completions); LLMLoading to every route except the model list, which
// llama.cpp serves while loading (/models, /v1/models, /api/tags; its
// meta null), whatever the flavor.
type LLMFault string

// The faults.
const (
	LLMNoLogprobs  LLMFault = "no-logprobs" // 200 without logprobs, as a server whose logprobs are off
	LLMMalformed   LLMFault = "malformed"   // 200, a body that is not JSON
	LLMCut         LLMFault = "cut"         // 200, the body cut mid-JSON and the connection closed
	LLMOversized   LLMFault = "oversized"   // 200, the real reply padded to more than 8 MiB
	LLMOverloaded  LLMFault = "overloaded"  // 429 in the flavor's error shape
	LLMBusy        LLMFault = "busy"        // 503: vLLM's queue overflow, Ollama's "server busy"
	LLMLoading     LLMFault = "loading"     // llama.cpp's 503 "Loading model" on every route but the model list
	LLMServerError LLMFault = "server-error"
	LLMHang        LLMFault = "hang" // no answer until the request's context ends
)

// LLMOversizedBytes is how many bytes of padding LLMOversized adds.
const LLMOversizedBytes = 9 << 20

// LLMBackendOptions configure a fake backend; zero values take the
// defaults given.
type LLMBackendOptions struct {
	Flavor      LLMFlavor     // default LLMVLLM
	Model       string        // served model id, default "qwen3-8b"
	MaxModelLen int           // context length, default 8192
	MaxLogprobs int           // vLLM's --max-logprobs, default 20 (Ollama and OpenAI: 20 always; llama.cpp: none)
	Reasoning   bool          // a reasoning model: it thinks unless turned off per request
	Latency     time.Duration // added to every completion call
	RetryAfter  string        // a Retry-After header on 429 and 503 (the real servers send none)
	APIKey      string        // when set, "Authorization: Bearer <key>" is required, else 401
}

// LLMCall is one request the fake received and the status it answered
// (0 when it never answered).
type LLMCall struct {
	Method, Path string
	Header       http.Header
	Body         []byte
	Status       int
}

// LLMBackend is a running fake backend.
type LLMBackend struct {
	o       LLMBackendOptions
	srv     *httptest.Server
	closing chan struct{}

	mu          sync.Mutex
	fault       LLMFault
	calls       []LLMCall
	inFlight    int
	maxInFlight int
}

// llmReply is an answer before faults shape how it is sent.
type llmReply struct {
	status int
	body   []byte
	ctype  string
}

// NewLLMBackend starts a fake backend on 127.0.0.1:0, closed by t's
// cleanup.
func NewLLMBackend(t testing.TB, o LLMBackendOptions) *LLMBackend {
	t.Helper()
	if o.Flavor == "" {
		o.Flavor = LLMVLLM
	}
	if o.Model == "" {
		o.Model = "qwen3-8b"
	}
	if o.MaxModelLen == 0 {
		o.MaxModelLen = 8192
	}
	if o.MaxLogprobs == 0 || o.Flavor == LLMOllama || o.Flavor == LLMOpenAI {
		o.MaxLogprobs = 20
	}
	switch o.Flavor {
	case LLMVLLM, LLMLlamaCpp, LLMOllama, LLMOpenAI:
	default:
		t.Fatalf("NewLLMBackend: unknown flavor %q", o.Flavor)
	}
	b := &LLMBackend{o: o, closing: make(chan struct{})}
	b.srv = httptest.NewServer(b)
	t.Cleanup(func() {
		close(b.closing)
		b.srv.CloseClientConnections()
		b.srv.Close()
	})
	return b
}

// URL is the base URL clients are given, ending in /v1.
func (b *LLMBackend) URL() string { return b.srv.URL + "/v1" }

// SetFault makes the next calls fail as f says ("" to stop failing).
func (b *LLMBackend) SetFault(f LLMFault) {
	b.mu.Lock()
	b.fault = f
	b.mu.Unlock()
}

func (b *LLMBackend) currentFault() LLMFault {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.fault
}

// Calls is every request received so far, in arrival order of their end.
func (b *LLMBackend) Calls() []LLMCall {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]LLMCall(nil), b.calls...)
}

// InFlight is the number of requests being handled now.
func (b *LLMBackend) InFlight() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.inFlight
}

// MaxInFlight is the most requests handled at once so far.
func (b *LLMBackend) MaxInFlight() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.maxInFlight
}

// llmRoute is one route of a flavor; completion routes take faults and
// latency.
type llmRoute struct {
	completion bool
	handle     func(b *LLMBackend, body []byte, noLogprobs bool) llmReply
}

func (b *LLMBackend) routes() map[string]llmRoute {
	switch b.o.Flavor {
	case LLMLlamaCpp:
		return llamaRoutes
	case LLMOllama:
		return ollamaRoutes
	case LLMOpenAI:
		return openaiRoutes
	}
	return vllmRoutes
}

func (b *LLMBackend) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	b.mu.Lock()
	fault := b.fault
	b.inFlight++
	b.maxInFlight = max(b.maxInFlight, b.inFlight)
	b.mu.Unlock()
	status := 0
	defer func() {
		b.mu.Lock()
		b.inFlight--
		b.calls = append(b.calls, LLMCall{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body, Status: status})
		b.mu.Unlock()
	}()
	send := func(rep llmReply) {
		status = rep.status
		if rep.ctype == "" {
			rep.ctype = "application/json"
		}
		if (rep.status == 429 || rep.status == 503) && b.o.RetryAfter != "" {
			w.Header().Set("Retry-After", b.o.RetryAfter)
		}
		w.Header().Set("Content-Type", rep.ctype)
		w.WriteHeader(rep.status)
		w.Write(rep.body)
	}
	if err != nil {
		send(b.errorReply(400, "could not read the request body", ""))
		return
	}
	if fault == LLMLoading {
		// llama.cpp's server-state middleware: the model list passes
		// (its meta null), "/" gets the loading page, the rest a 503.
		switch r.URL.Path {
		case "/models", "/v1/models", "/api/tags":
		case "/":
			send(llmReply{status: 503, body: []byte("<html><body>Loading model</body></html>"), ctype: "text/html; charset=utf-8"})
			return
		default:
			send(llmJSON(503, map[string]any{"error": map[string]any{"code": 503, "message": "Loading model", "type": "unavailable_error"}}))
			return
		}
	}
	if rep, ok := b.checkAuth(r); !ok {
		send(rep)
		return
	}
	route, ok := b.routes()[r.Method+" "+r.URL.Path]
	if !ok {
		send(b.notFoundReply())
		return
	}
	if !route.completion {
		send(route.handle(b, body, false))
		return
	}
	if b.o.Latency > 0 {
		if !b.wait(r.Context(), b.o.Latency) {
			return
		}
	}
	switch fault {
	case LLMHang:
		b.wait(r.Context(), time.Hour)
		return
	case LLMOverloaded:
		send(b.errorReply(429, "Too Many Requests", ""))
		return
	case LLMBusy:
		send(b.busyReply())
		return
	case LLMServerError:
		send(b.errorReply(500, "internal server error", ""))
		return
	}
	rep := route.handle(b, body, fault == LLMNoLogprobs)
	if rep.status != 200 {
		send(rep)
		return
	}
	switch fault {
	case LLMMalformed:
		rep.body = []byte("<html><body>upstream answered this</body></html>\n")
	case LLMOversized:
		rep.body = append(append([]byte{'{'}, bytes.Repeat([]byte{' '}, LLMOversizedBytes)...), rep.body[1:]...)
	case LLMCut:
		status = 200
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", itoa(len(rep.body)))
		w.WriteHeader(200)
		w.Write(rep.body[:len(rep.body)/2])
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
		// The connection is closed with the body half sent.
		panic(http.ErrAbortHandler)
	}
	send(rep)
}

// wait sleeps for d, or less when the request ends or the backend closes;
// it reports whether d passed.
func (b *LLMBackend) wait(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
	case <-b.closing:
	}
	return false
}

// checkAuth answers 401 in the flavor's shape when an API key is set and
// the request lacks it; vLLM and llama.cpp leave /health (and llama.cpp
// its model list) open.
func (b *LLMBackend) checkAuth(r *http.Request) (llmReply, bool) {
	if b.o.APIKey == "" || r.Header.Get("Authorization") == "Bearer "+b.o.APIKey {
		return llmReply{}, true
	}
	switch b.o.Flavor {
	case LLMVLLM:
		if r.URL.Path == "/health" {
			return llmReply{}, true
		}
		// vLLM's API-key middleware.
		return llmJSON(401, map[string]any{"error": "Unauthorized"}), false
	case LLMLlamaCpp:
		switch r.URL.Path {
		case "/health", "/v1/health", "/models", "/v1/models":
			return llmReply{}, true
		}
		return llmJSON(401, llamaError(401, "Invalid API Key", "authentication_error")), false
	case LLMOpenAI:
		return llmJSON(401, map[string]any{"error": map[string]any{"message": "Incorrect API key provided.", "type": "invalid_request_error", "param": nil, "code": "invalid_api_key"}}), false
	}
	return b.errorReply(401, "unauthorized", ""), false
}

var errLLMStream = errors.New("stream: the fake backend answers whole replies only")
