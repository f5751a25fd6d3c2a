package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/vllm-sr/systemone/generated/vocab"
)

// Flavor is which server the backend is, for what it accepts: the fields
// that turn thinking off, the top_logprobs cap, continuation scoring.
type Flavor string

const (
	FlavorAuto     Flavor = "auto"
	FlavorVLLM     Flavor = "vllm"
	FlavorLlamaCpp Flavor = "llama.cpp"
	FlavorOllama   Flavor = "ollama"
	FlavorOpenAI   Flavor = "openai"
)

// Flavors are the flavors --llm-backend takes.
var Flavors = []Flavor{FlavorAuto, FlavorVLLM, FlavorLlamaCpp, FlavorOllama, FlavorOpenAI}

// path is what one flavor gets (doc.go has the table).
type path struct {
	// topLogprobs is the most alternatives asked for at a position.
	topLogprobs int
	// thinkingOff is how a request turns a reasoning model's thinking
	// off: chat_template_kwargs (vLLM, llama.cpp), reasoning_effort
	// (Ollama), nothing (OpenAI).
	templateKwargs  bool
	reasoningEffort bool
	// continuations: /v1/completions scores prompt tokens (echo).
	continuations bool
}

func (f Flavor) path(maxLogprobs int) path {
	switch f {
	case FlavorVLLM:
		return path{topLogprobs: maxLogprobs, templateKwargs: true, continuations: true}
	case FlavorLlamaCpp:
		return path{topLogprobs: 50, templateKwargs: true}
	case FlavorOllama:
		return path{topLogprobs: 20, reasoningEffort: true}
	}
	return path{topLogprobs: 20}
}

// detectFlavor reads the flavor from a /v1/models entry's owner.
func detectFlavor(ownedBy string, hasMeta bool) Flavor {
	switch {
	case ownedBy == "vllm":
		return FlavorVLLM
	case ownedBy == "llamacpp" || hasMeta:
		return FlavorLlamaCpp
	case ownedBy == "library" || ownedBy == "ollama":
		return FlavorOllama
	}
	return FlavorOpenAI
}

// callError is a failed backend call: the reason word the answer carries,
// what the server answers the request with, and the backend's own words,
// for the log only.
type callError struct {
	reason     string
	retryAfter time.Duration
	limit      int64 // the backend's context length, for backend_context_exceeded
	status     int
	detail     string
}

func (e *callError) Error() string {
	if e.status != 0 {
		return fmt.Sprintf("%s: status %d: %s", e.reason, e.status, e.detail)
	}
	return e.reason + ": " + e.detail
}

// refuses reports whether the error answers the whole request (529 or
// 503) rather than one question.
func (e *callError) refuses() bool {
	return e.reason == vocab.ReasonBackendOverloaded || e.reason == vocab.ReasonBackendUnreachable
}

// client calls one backend: JSON in, JSON out, each call under its
// context's deadline and the per-call timeout, replies read within
// maxReply bytes.
type client struct {
	base     string // ending in /v1
	apiKey   string
	http     *http.Client
	timeout  time.Duration
	maxReply int64
	observe  func(endpoint, outcome string, took time.Duration)
}

// maxDetail bounds the backend's words kept for the log.
const maxDetail = 512

func (c *client) post(ctx context.Context, endpoint string, in, out any) error {
	body, err := json.Marshal(in)
	if err != nil {
		return err
	}
	return c.do(ctx, http.MethodPost, endpoint, body, out)
}

func (c *client) get(ctx context.Context, endpoint string, out any) error {
	return c.do(ctx, http.MethodGet, endpoint, nil, out)
}

// do makes one call and decodes a 200's body into out; any other outcome
// is a *callError (or the context's error, when its deadline passed or it
// was cancelled).
func (c *client) do(ctx context.Context, method, endpoint string, body []byte, out any) (err error) {
	start := time.Now()
	defer func() { c.observe(endpoint, outcomeOf(err), time.Since(start)) }()
	parent := ctx
	ctx, cancel := context.WithTimeout(parent, c.timeout)
	defer cancel()
	// A call that outlives its own timeout, not the request's deadline,
	// is a backend that does not answer.
	defer func() {
		if err != nil && parent.Err() == nil && ctx.Err() != nil {
			err = &callError{reason: vocab.ReasonBackendUnreachable, detail: "no reply within " + c.timeout.String()}
		}
	}()
	url := c.base + endpoint
	if endpoint == "/props" { // llama.cpp's, beside /v1
		url = strings.TrimSuffix(c.base, "/v1") + endpoint
	}
	req, err := http.NewRequestWithContext(ctx, method, url, bytes.NewReader(body))
	if err != nil {
		return &callError{reason: vocab.ReasonBackendUnreachable, detail: err.Error()}
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.apiKey)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil && errors.Is(err, ctxErr) {
			return ctxErr
		}
		return &callError{reason: vocab.ReasonBackendUnreachable, detail: err.Error()}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, c.maxReply+1))
	switch {
	case err != nil && ctx.Err() != nil:
		return ctx.Err()
	case err != nil:
		return &callError{reason: vocab.ReasonBackendReplyInvalid, status: resp.StatusCode, detail: "reply cut: " + err.Error()}
	case int64(len(data)) > c.maxReply:
		return &callError{reason: vocab.ReasonBackendReplyInvalid, status: resp.StatusCode, detail: "reply larger than " + strconv.FormatInt(c.maxReply, 10) + " bytes"}
	}
	if resp.StatusCode != http.StatusOK {
		return classify(resp, data)
	}
	if err := json.Unmarshal(data, out); err != nil {
		return &callError{reason: vocab.ReasonBackendReplyInvalid, status: resp.StatusCode, detail: "reply not JSON: " + err.Error()}
	}
	return nil
}

// contextWords find vLLM's and Ollama's context errors (llama.cpp's has
// its own type), and vLLM's context length in its message.
var (
	contextWords = regexp.MustCompile(`(?i)maximum context length|context length|exceeds the available context size|longer than the context`)
	vllmContext  = regexp.MustCompile(`maximum context length is (\d+) tokens`)
)

// classify turns a non-200 reply into the answer it gives: 429, and 503
// other than llama.cpp's "Loading model", are overload (529 with the
// backend's Retry-After); 503 loading and 502/504 are unavailable; a 400
// about the context is max_length_exceeded; anything else failed.
func classify(resp *http.Response, data []byte) *callError {
	e := &callError{status: resp.StatusCode, detail: clip(string(data))}
	var er errorReply
	_ = json.Unmarshal(data, &er) // a body that is not the envelope classifies by status alone
	typ, msg := er.Type, er.Message
	if er.Error != nil {
		typ, msg = er.Error.Type, er.Error.Message
	}
	switch {
	case resp.StatusCode == http.StatusServiceUnavailable && (typ == "unavailable_error" || strings.Contains(msg, "Loading model")):
		e.reason = vocab.ReasonBackendUnreachable
	case resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable:
		e.reason = vocab.ReasonBackendOverloaded
	case resp.StatusCode == http.StatusBadGateway || resp.StatusCode == http.StatusGatewayTimeout:
		e.reason = vocab.ReasonBackendUnreachable
	case resp.StatusCode == http.StatusBadRequest && (typ == "exceed_context_size_error" || contextWords.MatchString(msg)):
		e.reason = vocab.ReasonBackendContextExceeded
		if er.Error != nil && er.Error.NCtx > 0 {
			e.limit = er.Error.NCtx
		} else if m := vllmContext.FindStringSubmatch(msg); m != nil {
			e.limit, _ = strconv.ParseInt(m[1], 10, 64)
		}
	default:
		e.reason = vocab.ReasonBackendFailed
	}
	e.retryAfter = retryAfter(resp.Header)
	return e
}

// retryAfter reads Retry-After in seconds (none of the three servers
// sends one; an OpenAI-compatible proxy in front of them may).
func retryAfter(h http.Header) time.Duration {
	s, err := strconv.Atoi(strings.TrimSpace(h.Get("Retry-After")))
	if err != nil || s < 0 {
		return 0
	}
	return time.Duration(min(s, 3600)) * time.Second
}

func outcomeOf(err error) string {
	var ce *callError
	switch {
	case err == nil:
		return "ok"
	case errors.As(err, &ce):
		return ce.reason
	case errors.Is(err, context.DeadlineExceeded):
		return vocab.ReasonDeadlinePassed
	}
	return vocab.ReasonRequestCancelled
}

func clip(s string) string {
	if len(s) > maxDetail {
		return s[:maxDetail] + "…"
	}
	return s
}
