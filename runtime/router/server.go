package router

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/vllm-sr/systemone/runtime/engine"
	"github.com/vllm-sr/systemone/runtime/fleet"
	"github.com/vllm-sr/systemone/runtime/front"
	"github.com/vllm-sr/systemone/runtime/observe"
	"github.com/vllm-sr/systemone/runtime/registry"
	"github.com/vllm-sr/systemone/runtime/routerconfig"
	"github.com/vllm-sr/systemone/runtime/rules"
	"github.com/vllm-sr/systemone/runtime/upstream"
)

// DefaultListingTimeout bounds one fetch of a deployment's GET /v1/models.
const DefaultListingTimeout = 2 * time.Second

// Options are how a Router runs; the zero value of each field has a
// default.
type Options struct {
	// APIs is the registry paths resolve through; nil is
	// registry.BuiltinAPIs(), the one configurations load with.
	APIs *registry.APIs
	// Schemas is the registry the engine looks codecs up in; nil is
	// registry.BuiltinSchemas(), the one configurations load with.
	Schemas *registry.Schemas
	// Client makes the upstream calls; nil is a client whose calls are
	// bounded by each request's deadline only, keeping idle connections
	// for the widest window of the configuration it starts with
	// (upstreamIdleConns).
	Client *http.Client
	// DialContext opens the connections of the Router's own client and
	// upstream connections (when Client is nil); nil is a net.Dialer's.
	DialContext func(ctx context.Context, network, addr string) (net.Conn, error)
	// Logger receives the structured logs; nil is slog.Default().
	Logger *slog.Logger
	// ListingTimeout bounds one fetch of a deployment's listing, and one
	// readiness check.
	ListingTimeout time.Duration
	// Timeouts bound the listeners' connections and requests, and
	// Start's graceful shutdown.
	front.Timeouts
	// CheckInterval is how often each deployment's readiness is checked.
	CheckInterval time.Duration
	// SpanExporter receives the spans of a configuration with tracing on
	// (runtime/observe); nil is OTLP/HTTP to its tracing.otlp_endpoint. Only
	// Start exports: a Router from New alone records no spans.
	SpanExporter sdktrace.SpanExporter
	// StrictUpstreams makes the start check's findings about deployments'
	// listings (a model not listed, a rule the listed features do not
	// answer) errors that stop a start or refuse a reload, not warnings
	// (upstreamcheck.go).
	StrictUpstreams bool
}

// DefaultCheckInterval is Options.CheckInterval's default.
const DefaultCheckInterval = 15 * time.Second

// Router serves one loaded configuration. It is safe for concurrent use,
// and immutable but for what it counts and caches: a reload makes a new
// Router (withConfig) that shares the process-wide parts.
type Router struct {
	cfg    *routerconfig.Config
	apis   *registry.APIs
	engine *engine.Engine
	// caller sends every plan's wire calls (execute.go), through callers,
	// one per deployment of cfg with its fleet settings (runtime/fleet).
	caller  *httpCaller
	callers map[*routerconfig.Deployment]*deploymentCaller
	// fleet is every deployment's call health, process-wide (runtime/fleet).
	fleet *fleet.Fleet
	// systemone is the default System One entry (defaultSystemOne).
	systemone *routerconfig.ListenerAPI
	log       *slog.Logger
	metrics   *metrics
	// front puts ids, deadlines, metrics and the access log around each
	// request (front.Front).
	front *front.Front
	// rules evaluates the configuration's rules (runtime/rules).
	rules *rules.Evaluator
	// checks are the deployments' last readiness checks (runtime/fleet).
	checks   *fleet.Checks
	listings *fleet.Listings
	handlers map[string]*listenerHandler // by listener name
	opts     Options
	// tracing exports the spans of the requests served; nil: tracing is
	// off, and a client's trace context is only passed on (runtime/observe).
	tracing *observe.Tracing
	// ownClient is whether opts.Client is the Router's own (none was
	// given): its shutdown then closes the client's idle upstream
	// connections, which would otherwise outlive it.
	ownClient bool
	// config is what /ready says of the configuration in force and of
	// the last refused reload (configstate.go).
	config *configState
	// generation counts the configurations the process has served, this
	// one's included: the gauges publishReady sets are never those of a
	// configuration a reload replaced.
	generation uint64
}

// LoadConfig loads the configuration at path with the built-in API and
// schema registries: what `vllm-sr serve` and `vllm-sr decide` run with.
func LoadConfig(path string) (*routerconfig.Config, error) {
	return routerconfig.LoadFile(path, routerconfig.Registries{APIs: registry.BuiltinAPIs(), Schemas: registry.BuiltinSchemas()})
}

// New returns a Router for cfg, a configuration routerconfig loaded (and
// so checked: every rule against its deployment).
func New(cfg *routerconfig.Config, opts Options) (*Router, error) {
	if cfg == nil {
		return nil, errors.New("router: no configuration")
	}
	ownClient := opts.Client == nil
	opts = opts.withDefaults(cfg)
	systemone, err := defaultSystemOne(opts.APIs, opts.Schemas)
	if err != nil {
		return nil, fmt.Errorf("router: %w", err)
	}
	metrics := newMetrics()
	log := front.WithRequestIDs(opts.Logger)
	caller := &httpCaller{metrics: metrics, log: log, transport: upstream.New(upstream.Options{Client: opts.Client,
		Own: ownClient, MaxIdle: upstreamIdleConns(cfg), Dial: opts.DialContext, Log: log})}
	r := &Router{apis: opts.APIs, engine: engine.New(opts.Schemas), caller: caller,
		systemone: systemone, log: log, metrics: metrics, checks: fleet.NewChecks(), config: &configState{}, fleet: fleet.New(log), opts: opts, ownClient: ownClient,
		front: &front.Front{Metrics: metrics.Metrics.Metrics, IDs: front.NewRequestIDs(), Log: log,
			ReadTimeout: opts.ReadTimeout, WriteTimeout: opts.WriteTimeout}}
	r.config.applied(cfg, time.Now())
	metrics.ConfigInForce(cfg.SHA256)
	return r.withConfig(cfg), nil
}

func (opts Options) withDefaults(cfg *routerconfig.Config) Options {
	if opts.APIs == nil {
		opts.APIs = registry.BuiltinAPIs()
	}
	if opts.Schemas == nil {
		opts.Schemas = registry.BuiltinSchemas()
	}
	if opts.Client == nil {
		opts.Client = &http.Client{Transport: &http.Transport{DialContext: opts.DialContext,
			MaxIdleConnsPerHost: upstreamIdleConns(cfg), IdleConnTimeout: 90 * time.Second, ResponseHeaderTimeout: 10 * time.Minute,
		}}
	}
	opts.Client = upstream.WithoutRedirects(opts.Client) // no upstream redirect is followed
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	opts.ListingTimeout = cmp.Or(opts.ListingTimeout, DefaultListingTimeout)
	opts.Timeouts = opts.Timeouts.WithDefaults()
	opts.CheckInterval = cmp.Or(opts.CheckInterval, DefaultCheckInterval)
	return opts
}

// minIdleConns is the fewest idle connections the default client keeps
// per upstream host: room for several requests' windows at once.
const minIdleConns = 64

// upstreamIdleConns is how many idle connections per upstream host the
// default client and the Router's own connections (runtime/upstream) keep:
// minIdleConns, or the largest max_concurrency of
// cfg's deployments when that is more. A batch split into calls keeps
// max_concurrency of them in flight, and a connection the transport may
// not keep idle is closed when its call ends and dialled again by the
// next (BenchmarkBatchFanOut's conns/batch). The client outlives a
// reload: a reload that widens a window past this keeps the start's size.
func upstreamIdleConns(cfg *routerconfig.Config) int {
	n := minIdleConns
	for i := range cfg.Deployments {
		n = max(n, cfg.Deployments[i].MaxConcurrency)
	}
	return n
}

// withConfig is a Router for cfg sharing r's process-wide parts (client,
// engine, metrics, ids, log, readiness checks): what a reload swaps in.
// What depends on the configuration (listings, listener handlers) is new.
func (r *Router) withConfig(cfg *routerconfig.Config) *Router {
	next := *r
	next.cfg = cfg
	next.generation++
	next.listings = fleet.NewListings(r.prober())
	next.handlers = map[string]*listenerHandler{}
	next.rules = &rules.Evaluator{Config: cfg, Deployments: ruleDeployments{&next}, Metrics: r.metrics.Metrics, Log: r.log}
	next.callers = make(map[*routerconfig.Deployment]*deploymentCaller, len(cfg.Deployments))
	for i := range cfg.Deployments {
		d := &cfg.Deployments[i]
		next.callers[d] = &deploymentCaller{c: r.caller, d: d, health: r.fleet.Of(d)}
	}
	for i := range cfg.Listeners {
		lst := &cfg.Listeners[i]
		h := &listenerHandler{router: &next, lst: lst, inFlight: listenerAdmission(r.handlers[lst.Name], lst)}
		if api, ok := lst.Serves(registry.SystemOne, next.apis); ok {
			h.systemone = api
		}
		h.errors = cmp.Or(h.systemone, next.systemone)
		next.handlers[lst.Name] = h
	}
	if cfg.AdminAddress != "" { // the admin address's handler (auth.go)
		next.handlers[adminName] = next.adminHandler()
	}
	return &next
}
