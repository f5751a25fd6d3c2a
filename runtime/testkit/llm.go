package testkit

// The fake OpenAI-compatible LLM backend of vllm-srun's LLM engine tests:
// it speaks as vLLM, llama.cpp's llama-server, Ollama's /v1 layer or
// OpenAI do, from what their source says, and answers from a deterministic
// toy model (llm_model.go) whose log-probabilities a test can predict.
//
// Modelled on (see also /work/shared/reference/llm-logprob-protocols.md):
//
//   - vLLM, vllm-project/vllm:
//     vllm/entrypoints/openai/chat_completion/protocol.py @002032ee2b18e1f7bd924ec47b62504ba3866063
//     (request fields, ChatCompletionLogProb{token, logprob=-9999.0, bytes},
//     top_logprobs needs logprobs); vllm/entrypoints/openai/completion/protocol.py
//     @002032ee (int logprobs, echo, list prompts); .../completion/serving.py
//     @cc139d8ea6ff4db984778a3e77e95e1d1c7f1362 (echo with max_tokens 0,
//     tokens/token_logprobs/top_logprobs/text_offset, first entry null,
//     usage summed); .../chat_completion/serving.py (_get_top_logprobs:
//     sampled first, max(logprob, -9999.0), bytes of the UTF-8 string, as
//     stored for several commits); vllm/entrypoints/serve/exception_handling/error_response.py
//     @ba638200e9731168ac964ebcee2f704f9f01098d ({"error":{message, type,
//     param, code}}, message = str(exc)); vllm/exceptions.py
//     (VLLMValidationError.__str__ appends " (parameter=P, value=V)");
//     vllm/v1/engine/input_processor.py (_validate_logprobs: "Requested
//     sample logprobs of N, which is greater than max allowed: M");
//     vllm/entrypoints/openai/engine/protocol.py (ModelCard: owned_by
//     "vllm", root, parent, max_model_len, permission); vllm/v1/worker/gpu_model_runner.py
//     @4e1790651fc758c06c7a903dd4cd82364ac91b27 (grammar bitmask before
//     the sampler: guided choice renormalises); vllm/entrypoints/serve/instrumentator/health.py
//     @98b137c61dcf8be6fac463c982053db8c1417cfb (/health 200, empty).
//   - llama.cpp, ggml-org/llama.cpp: tools/server/server-common.cpp
//     @006639c3ff51a3dbde5f52ebf4c5a55ad5306caf (oaicompat_chat_params_parse:
//     top_logprobs 20 by default, "top_logprobs requires logprobs to be set
//     to true"; oaicompat_completion_params_parse: "Only no echo is
//     supported"; format_error_response types); tools/server/server-task.cpp
//     @00efb3e184262872916bf136b3df63c1822a19bd (probs_vector_to_json: id,
//     token, bytes, logprob; reasoning_content); tools/server/server-context.cpp
//     (populate_token_probs: sorted, no cap; exceed_context_size_error with
//     n_prompt_tokens, n_ctx; /v1/models owned_by "llamacpp" with meta);
//     tools/server/server-http.cpp @00dd0816129a5210351c78bb90e0828f8eb69f99
//     (503 "Loading model" on every route); tools/server/README.md
//     @00dc8057ab28c9cb4c79a6dd6dfce07fe779f63b (/props, /health).
//   - Ollama, ollama/ollama @fb30760996871fa9460115c753afd2c60d4ab0f7:
//     openai/openai.go (Error{message,type,param,code} with type by status,
//     ChoiceLogprobs, Message.reasoning, thinkFromReasoningEffort, Model
//     owned_by = the name's namespace "library", CompletionRequest.prompt a
//     string, ToCompletion without logprobs); api/types.go (Logprob,
//     TokenLogprob: bytes and top_logprobs omitempty); server/routes.go
//     ("top_logprobs must be between 0 and 20", "model '%s' not found", GET
//     / "Ollama is running"); server/sched.go (ErrMaxQueue "server busy,
//     please try again.  maximum pending requests exceeded");
//     middleware/openai.go (writeError wraps the native error).
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
// completions); LLMLoading to every route.
type LLMFault string

// The faults.
const (
	LLMNoLogprobs  LLMFault = "no-logprobs" // 200 without logprobs, as a server whose logprobs are off
	LLMMalformed   LLMFault = "malformed"   // 200, a body that is not JSON
	LLMCut         LLMFault = "cut"         // 200, the body cut mid-JSON and the connection closed
	LLMOversized   LLMFault = "oversized"   // 200, the real reply padded to more than 8 MiB
	LLMOverloaded  LLMFault = "overloaded"  // 429 in the flavor's error shape
	LLMBusy        LLMFault = "busy"        // 503: vLLM's queue overflow, Ollama's "server busy"
	LLMLoading     LLMFault = "loading"     // llama.cpp's 503 "Loading model" on every route
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
		send(llmJSON(503, map[string]any{"error": map[string]any{"code": 503, "message": "Loading model", "type": "unavailable_error"}}))
		return
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
