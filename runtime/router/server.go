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

	"github.com/vllm-sr/systemone/runtime/engine"
	"github.com/vllm-sr/systemone/runtime/registry"
	"github.com/vllm-sr/systemone/runtime/routerconfig"
)

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
	// bounded by each request's deadline only.
	Client *http.Client
	// Logger receives the structured logs; nil is slog.Default().
	Logger *slog.Logger
	// ListingTimeout bounds one fetch of a deployment's listing.
	ListingTimeout time.Duration
	// ShutdownTimeout bounds how long Start's shutdown waits for the
	// requests in flight.
	ShutdownTimeout time.Duration
}

// DefaultShutdownTimeout is Options.ShutdownTimeout's default.
const DefaultShutdownTimeout = 10 * time.Second

// Router serves one loaded configuration. It is safe for concurrent use.
type Router struct {
	cfg    *routerconfig.Config
	apis   *registry.APIs
	engine *engine.Engine
	// caller sends every plan's wire calls (execute.go).
	caller *httpCaller
	// systemone is the default System One entry (defaultSystemOne).
	systemone *routerconfig.ListenerAPI
	log       *slog.Logger
	metrics   *Metrics
	listings  *listings
	opts      Options
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
	if opts.APIs == nil {
		opts.APIs = registry.BuiltinAPIs()
	}
	if opts.Schemas == nil {
		opts.Schemas = registry.BuiltinSchemas()
	}
	if opts.Client == nil {
		opts.Client = &http.Client{Transport: &http.Transport{
			MaxIdleConnsPerHost: 64, IdleConnTimeout: 90 * time.Second, ResponseHeaderTimeout: 10 * time.Minute,
		}}
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.ListingTimeout <= 0 {
		opts.ListingTimeout = DefaultListingTimeout
	}
	if opts.ShutdownTimeout <= 0 {
		opts.ShutdownTimeout = DefaultShutdownTimeout
	}
	systemone, err := defaultSystemOne(opts.APIs, opts.Schemas)
	if err != nil {
		return nil, fmt.Errorf("router: %w", err)
	}
	metrics := newMetrics()
	return &Router{cfg: cfg, apis: opts.APIs, engine: engine.New(opts.Schemas), caller: &httpCaller{client: opts.Client, metrics: metrics},
		systemone: systemone, log: opts.Logger, metrics: metrics,
		listings: newListings(opts.Client, opts.ListingTimeout), opts: opts}, nil
}

// Config is the configuration the Router serves.
func (r *Router) Config() *routerconfig.Config { return r.cfg }

// Metrics are the Router's counters.
func (r *Router) Metrics() *Metrics { return r.metrics }

// Handler is the HTTP handler of the listener named name.
func (r *Router) Handler(name string) (http.Handler, error) {
	for i := range r.cfg.Listeners {
		lst := &r.cfg.Listeners[i]
		if lst.Name != name {
			continue
		}
		h := &listenerHandler{router: r, lst: lst}
		if api, ok := lst.Serves(registry.SystemOne, r.apis); ok {
			h.systemone = api
		}
		h.errors = cmp.Or(h.systemone, r.systemone)
		return h, nil
	}
	return nil, fmt.Errorf("router: no listener named %q", name)
}

// Running is a started Router: its listeners' addresses, and how it ends.
type Running struct {
	router *Router
	addrs  map[string]net.Addr
	done   chan struct{}
	err    error
}

// Start serves every listener of cfg on its address. It is what `vllm-sr
// serve` runs, and what the tests start. The Router stops when ctx is
// done: each listener stops accepting connections and the requests in
// flight get up to Options.ShutdownTimeout to finish. Wait returns how it
// ended.
func Start(ctx context.Context, cfg *routerconfig.Config, opts Options) (*Running, error) {
	r, err := New(cfg, opts)
	if err != nil {
		return nil, err
	}
	run := &Running{router: r, addrs: map[string]net.Addr{}, done: make(chan struct{})}
	var servers []*http.Server
	var lns []net.Listener
	for _, lst := range cfg.Listeners {
		h, _ := r.Handler(lst.Name)
		ln, err := net.Listen("tcp", lst.Address)
		if err != nil {
			for _, l := range lns {
				_ = l.Close()
			}
			return nil, fmt.Errorf("listener %q: %w", lst.Name, err)
		}
		lns = append(lns, ln)
		run.addrs[lst.Name] = ln.Addr()
		servers = append(servers, &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute,
			ErrorLog: slog.NewLogLogger(r.log.Handler(), slog.LevelWarn)})
	}
	failed := make(chan error, len(servers))
	for i, s := range servers {
		go func() {
			if err := s.Serve(lns[i]); !errors.Is(err, http.ErrServerClosed) {
				failed <- err
			}
		}()
		r.log.Info("listening", slog.String("listener", cfg.Listeners[i].Name), slog.String("addr", lns[i].Addr().String()))
	}
	go func() {
		defer close(run.done)
		select {
		case <-ctx.Done():
		case run.err = <-failed:
		}
		run.err = errors.Join(run.err, r.shutdown(servers))
	}()
	return run, nil
}

func (r *Router) shutdown(servers []*http.Server) error {
	ctx, cancel := context.WithTimeout(context.Background(), r.opts.ShutdownTimeout)
	defer cancel()
	var errs []error
	for _, s := range servers {
		if err := s.Shutdown(ctx); err != nil {
			_ = s.Close()
			errs = append(errs, errors.New("shutdown timed out with requests in flight"))
		}
	}
	r.log.Info("stopped")
	return errors.Join(errs...)
}

// Router is the running Router.
func (r *Running) Router() *Router { return r.router }

// Addr is the address the listener named name listens on; nil for none.
func (r *Running) Addr(name string) net.Addr { return r.addrs[name] }

// URL is the root URL of the listener named name, http://host:port.
func (r *Running) URL(name string) string {
	if a := r.addrs[name]; a != nil {
		return "http://" + a.String()
	}
	return ""
}

// Done is closed once every listener has stopped.
func (r *Running) Done() <-chan struct{} { return r.done }

// Wait blocks until the Router has stopped and returns why: nil after a
// requested stop whose requests in flight all finished.
func (r *Running) Wait() error {
	<-r.done
	return r.err
}
