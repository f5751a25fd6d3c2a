package llm

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/vllm-sr/systemone/generated/catalog"
	"github.com/vllm-sr/systemone/runtime/table"
)

// Config is how the engine reaches its backend. The zero value of every
// field but URL and Model has a default (withDefaults).
type Config struct {
	// URL is the backend's OpenAI-compatible base, ending in /v1.
	URL string
	// Model is the backend's model id, as its /v1/models lists it.
	Model string
	// Name is the name the runtime serves the model as; Model by default.
	Name string
	// APIKey is sent as a bearer token when set.
	APIKey string
	// Flavor is the backend's server; FlavorAuto reads it from /v1/models.
	Flavor Flavor
	// MaxLogprobs is vLLM's --max-logprobs (20 by default): the most
	// top_logprobs a vLLM backend accepts.
	MaxLogprobs int
	// MaxConcurrency bounds the backend calls in flight, across requests.
	MaxConcurrency int
	// ReasoningTokens is the budget of generated tokens before the answer
	// position, for a reasoning model whose thinking cannot be turned off
	// (0: thinking is turned off and the answer is the first token).
	ReasoningTokens int
	// MaxInputTokens is the validated input length (the card's
	// max_input_tokens); 0 keeps the catalogue card's. The backend's
	// context length caps it, and is the long-context limit.
	MaxInputTokens int64
	// Calibration holds the temperatures; nil answers at temperature 1.
	Calibration *Calibration
	// CallTimeout bounds each backend call, within the request's deadline.
	CallTimeout time.Duration
	// ConnectTimeout bounds how long Connect waits for the backend.
	ConnectTimeout time.Duration
	// MaxReplyBytes bounds a backend reply read.
	MaxReplyBytes int64
	// HTTP is the client the calls go through; nil is a client of its own.
	HTTP   *http.Client
	Logger *slog.Logger
}

// Defaults of Config.
const (
	DefaultMaxConcurrency = 8
	DefaultMaxLogprobs    = 20
	DefaultCallTimeout    = 60 * time.Second
	DefaultConnectTimeout = 5 * time.Minute
	DefaultMaxReplyBytes  = 8 << 20
	// TemplateModel is the catalogue card an LLM-backed model starts from.
	TemplateModel = "vllm-sr/llm"
	// EngineName is what meta's engine says.
	EngineName = "llm"
	// promptReserve is the context the prompt's own text and the
	// generated tokens take beyond what the card counts.
	promptReserve = 256
)

func (c Config) withDefaults() (Config, error) {
	if c.URL == "" || c.Model == "" {
		return c, errors.New("the LLM backend needs a URL and a model")
	}
	if !strings.HasPrefix(c.URL, "http://") && !strings.HasPrefix(c.URL, "https://") {
		return c, fmt.Errorf("the LLM backend URL %q is not http:// or https://", c.URL)
	}
	c.URL = strings.TrimRight(c.URL, "/")
	c.Name = cmp.Or(c.Name, c.Model)
	c.Flavor = cmp.Or(c.Flavor, FlavorAuto)
	if !slices.Contains(Flavors, c.Flavor) {
		return c, fmt.Errorf("unknown LLM backend %q; supported: %s", c.Flavor, joinFlavors())
	}
	if c.MaxConcurrency < 0 || c.MaxLogprobs < 0 || c.ReasoningTokens < 0 || c.MaxInputTokens < 0 {
		return c, errors.New("the LLM backend's counts must not be negative")
	}
	c.MaxConcurrency = cmp.Or(c.MaxConcurrency, DefaultMaxConcurrency)
	c.MaxLogprobs = cmp.Or(c.MaxLogprobs, DefaultMaxLogprobs)
	c.CallTimeout = cmp.Or(c.CallTimeout, DefaultCallTimeout)
	c.ConnectTimeout = cmp.Or(c.ConnectTimeout, DefaultConnectTimeout)
	c.MaxReplyBytes = cmp.Or(c.MaxReplyBytes, DefaultMaxReplyBytes)
	if c.HTTP == nil {
		c.HTTP = &http.Client{Transport: &http.Transport{Proxy: http.ProxyFromEnvironment,
			MaxIdleConnsPerHost: c.MaxConcurrency, IdleConnTimeout: 90 * time.Second}}
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	return c, nil
}

func joinFlavors() string {
	s := make([]string, len(Flavors))
	for i, f := range Flavors {
		s[i] = string(f)
	}
	return strings.Join(s, ", ")
}

// Engine answers System One requests with an LLM backend. Build one with
// New, Connect it, then Decide; it is safe for concurrent use.
type Engine struct {
	cfg     Config
	client  *client
	slots   chan struct{}
	metrics *metrics
	// flavor and path are set by Connect.
	flavor Flavor
	path   path
}

// New checks cfg and builds an engine; it makes no call (Connect does).
func New(cfg Config) (*Engine, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	m := newMetrics()
	e := &Engine{cfg: cfg, slots: make(chan struct{}, cfg.MaxConcurrency), metrics: m, flavor: cfg.Flavor}
	e.client = &client{base: cfg.URL, apiKey: cfg.APIKey, http: cfg.HTTP, timeout: cfg.CallTimeout,
		maxReply: cfg.MaxReplyBytes, observe: m.observe}
	return e, nil
}

// Model is the served model before Connect: the catalogue's LLM card
// under the served name, its token limits not yet read from the backend.
func (e *Engine) Model() table.Model {
	m, _ := catalog.Model(TemplateModel) // srgen requires a model of every family
	m.Name = e.cfg.Name
	m.Description = "The LLM " + e.cfg.Model + ", answering from its token log-probabilities."
	m.Revision = PromptsVersion
	if e.cfg.MaxInputTokens > 0 {
		m.Card.Limits.MaxInputTokens = e.cfg.MaxInputTokens
		m.Card.Limits.LongContextMaxInputTokens = max(m.Card.Limits.LongContextMaxInputTokens, e.cfg.MaxInputTokens)
	}
	return m
}

// Collectors are the engine's Prometheus series, for the server's
// registry.
func (e *Engine) Collectors() []prometheus.Collector { return e.metrics.collectors() }

// Flavor is the backend's server, known once Connect has returned.
func (e *Engine) Flavor() Flavor { return e.flavor }

// Connect waits for the backend to list the model (GET /v1/models, once a
// second, up to ConnectTimeout), reads its flavor and context length, and
// returns the served model with its limits: the validated length capped
// by the context, the context as the long-context limit. A backend that
// answers without the model fails at once, naming what it serves.
func (e *Engine) Connect(ctx context.Context) (table.Model, error) {
	ctx, cancel := context.WithTimeout(ctx, e.cfg.ConnectTimeout)
	defer cancel()
	var list modelList
	for {
		err := e.client.get(ctx, "/models", &list)
		if err == nil {
			break
		}
		e.cfg.Logger.Warn("waiting for the LLM backend", slog.String("url", e.cfg.URL), slog.String("error", err.Error())) //vocab:not-spec slog attribute key
		select {
		case <-ctx.Done():
			return table.Model{}, fmt.Errorf("the LLM backend at %s did not list its models within %v: %w", e.cfg.URL, e.cfg.ConnectTimeout, err)
		case <-time.After(time.Second):
		}
	}
	var served []string
	for _, d := range list.Data {
		served = append(served, d.ID)
		// Ollama lists a model under its tag, and answers it untagged.
		if d.ID != e.cfg.Model && d.ID != e.cfg.Model+":latest" {
			continue
		}
		if e.flavor == FlavorAuto {
			e.flavor = detectFlavor(d.OwnedBy, d.Meta != nil)
		}
		e.path = e.flavor.path(e.cfg.MaxLogprobs)
		return e.withContext(e.contextLength(ctx, d.MaxModelLen)), nil
	}
	return table.Model{}, fmt.Errorf("the LLM backend at %s does not serve %q; it serves: %s", e.cfg.URL, e.cfg.Model, strings.Join(served, ", "))
}

// contextLength is the backend's context: vLLM's max_model_len, llama.cpp's
// slot context from /props; 0 when the backend does not tell (Ollama,
// OpenAI).
func (e *Engine) contextLength(ctx context.Context, maxModelLen int64) int64 {
	if maxModelLen > 0 {
		return maxModelLen
	}
	if e.flavor == FlavorLlamaCpp {
		var props llamaProps
		if err := e.client.get(ctx, "/props", &props); err == nil {
			return props.DefaultGenerationSettings.NCtx
		}
	}
	return 0
}

// withContext is the served model with its token limits within n, the
// backend's context length (unknown: 0 leaves the card's).
func (e *Engine) withContext(n int64) table.Model {
	m := e.Model()
	if n <= 0 {
		return m
	}
	room := max(n-promptReserve-int64(e.cfg.ReasoningTokens), 1)
	l := &m.Card.Limits
	l.MaxInputTokens = min(l.MaxInputTokens, room)
	l.LongContextMaxInputTokens = room
	if l.LongContextMaxInputTokens < l.MaxInputTokens {
		l.LongContextMaxInputTokens = l.MaxInputTokens
	}
	return m
}

// acquire takes a backend call slot, or reports that the context ended
// first: the call is then not made.
func (e *Engine) acquire(ctx context.Context) error {
	select {
	case e.slots <- struct{}{}:
		if ctx.Err() != nil { // both were ready: a call not started by the deadline is not made
			<-e.slots
			return ctx.Err()
		}
		e.metrics.inFlight.Inc()
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (e *Engine) release() {
	e.metrics.inFlight.Dec()
	<-e.slots
}
