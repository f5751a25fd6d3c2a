package router

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/vllm-sr/systemone/runtime/fleet"
	"github.com/vllm-sr/systemone/runtime/observe"
	"github.com/vllm-sr/systemone/runtime/routerconfig"
	"github.com/vllm-sr/systemone/runtime/socket"
)

// Running is a started Router: its listeners' addresses, the
// configuration in force (swapped by Reload), and how it ends.
type Running struct {
	// current is the Router of the configuration in force; each request
	// loads it once, so a reload never changes a request's configuration
	// halfway.
	current  atomic.Pointer[Router]
	reloadMu sync.Mutex
	addrs    map[string]net.Addr
	checkNow chan struct{}
	done     chan struct{}
	err      error
}

// Start serves every listener of cfg on its address and checks each
// deployment's readiness every Options.CheckInterval. It is what `vllm-sr
// serve` runs, and what the tests start. The Router stops when ctx is done
// (SIGINT or SIGTERM in `vllm-sr serve`): each listener stops accepting
// connections and the requests in flight get up to
// Options.ShutdownTimeout to finish. Wait returns how it ended.
func Start(ctx context.Context, cfg *routerconfig.Config, opts Options) (*Running, error) {
	r, err := New(cfg, opts)
	if err != nil {
		return nil, err
	}
	run := &Running{addrs: map[string]net.Addr{}, checkNow: make(chan struct{}, 1), done: make(chan struct{})}
	run.current.Store(r)
	logWarnings(r.log, cfg)                                                     // configstate.go
	r.fleet.OnChange(func(*fleet.Health) { run.current.Load().publishReady() }) // a circuit's change shows at once
	r.publishReady()                                                            // vsr_ready and the gauges before the first round (ready.go)
	var servers []*http.Server
	var lns []net.Listener
	if err := r.checkUpstreamsAtStart(ctx); err != nil { // upstreamcheck.go
		return nil, err
	}
	for _, lst := range r.bindings() { // the listeners, then the admin address (auth.go)
		ln, err := socket.Listen(lst.Address)
		if err != nil {
			for _, l := range lns {
				_ = l.Close()
			}
			return nil, fmt.Errorf("listener %q: %w", lst.Name, err)
		}
		lns = append(lns, ln)
		run.addrs[lst.Name] = ln.Addr()
		servers = append(servers, r.opts.Server(&liveHandler{run: run, name: lst.Name}, r.log))
	}
	if err := r.startTracing(ctx); err != nil { // observation.go
		for _, l := range lns {
			_ = l.Close()
		}
		return nil, err
	}
	failed := make(chan error, len(servers))
	for i, s := range servers {
		go func() {
			if err := s.Serve(lns[i]); !errors.Is(err, http.ErrServerClosed) {
				failed <- err
			}
		}()
		r.log.Info("listening", slog.String("listener", r.bindings()[i].Name), slog.String("addr", lns[i].Addr().String()))
	}
	checking, stopChecks := context.WithCancel(context.Background())
	checked := make(chan struct{})
	go func() { defer close(checked); run.checkLoop(checking) }()
	go func() {
		defer close(run.done)
		select {
		case <-ctx.Done():
		case run.err = <-failed:
		}
		stopChecks()
		<-checked
		run.err = errors.Join(run.err, run.shutdown(servers))
	}()
	return run, nil
}

// liveHandler serves a listener with the configuration in force.
type liveHandler struct {
	run  *Running
	name string
}

func (h *liveHandler) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	h.run.current.Load().handlers[h.name].ServeHTTP(w, req)
}

// shutdown stops every listener gracefully: no new connections, and the
// requests in flight finish within the shutdown timeout; then the Router's
// own client closes its idle upstream connections, so nothing of the
// Router's is left running.
func (run *Running) shutdown(servers []*http.Server) error {
	r := run.current.Load()
	r.log.Info("shutting down", slog.String("timeout", r.opts.ShutdownTimeout.String()))
	var wg sync.WaitGroup
	errs := make([]error, len(servers))
	for i, s := range servers {
		wg.Go(func() { errs[i] = r.opts.Shutdown(s, r.front) })
	}
	wg.Wait()
	if r.ownClient { // no call is left to make
		r.caller.closeIdle()
	}
	r.stopTracing() // the spans still queued go out
	err := errors.Join(errs...)
	if err != nil {
		r.log.Error("stopped", slog.String("error", err.Error())) //vocab:not-spec log attribute key
		return err
	}
	r.log.Info("stopped")
	return nil
}

// Reload loads the configuration at path and, when it is valid and keeps
// the same listeners at the same addresses, swaps it in atomically: the
// requests in flight finish with the configuration they started with,
// the next ones get the new one, and no connection is dropped. An invalid
// configuration is refused with every problem logged, one per line, and
// the one in force is kept. Either way the reload is counted by result
// and shown in GET /ready, a refused one's problems until one is applied
// (configstate.go). It is what `vllm-sr serve` calls on SIGHUP.
func (run *Running) Reload(path string) error {
	run.reloadMu.Lock()
	defer run.reloadMu.Unlock()
	cur := run.current.Load()
	cfg, err := LoadConfig(path)
	if err == nil {
		err = sameListeners(cur.cfg, cfg)
	}
	if err == nil {
		err = observe.SameTracing(cur.cfg, cfg)
	}
	if err == nil { // the start check, on the new configuration (upstreamcheck.go)
		err = cur.withConfig(cfg).checkUpstreamsAtStart(context.Background())
	}
	if err != nil {
		for _, problem := range strings.Split(err.Error(), "\n") {
			cur.log.Error("configuration problem", slog.String("problem", problem))
		}
		cur.log.Error("reload refused: the configuration in force is kept", slog.String("config", path))
		cur.config.refused(err, time.Now())
		cur.metrics.Reloaded(observe.ReloadRefused)
		return err
	}
	next := cur.withConfig(cfg)
	run.current.Store(next)
	next.publishReady()
	cur.config.applied(cfg, time.Now())
	cur.metrics.ConfigInForce(cfg.SHA256)
	cur.metrics.Reloaded(observe.ReloadApplied)
	cur.log.Info("configuration reloaded", slog.String("config", path), slog.String("sha256", cfg.SHA256)) //vocab:not-spec log attribute key
	logWarnings(cur.log, cfg)
	select {
	case run.checkNow <- struct{}{}:
	default:
	}
	return nil
}

// sameListeners refuses a configuration whose listeners differ from the
// running ones by name, order or address: a listener's socket is bound at
// start, so changing them takes a restart.
func sameListeners(running, next *routerconfig.Config) error {
	same := len(running.Listeners) == len(next.Listeners) && running.AdminAddress == next.AdminAddress
	for i := 0; same && i < len(next.Listeners); i++ {
		a, b := running.Listeners[i], next.Listeners[i]
		same = a.Name == b.Name && a.Address == b.Address
	}
	if !same {
		return errors.New("listeners: a reload keeps the same listeners, in the same order, at the same addresses; restart the Router to change them")
	}
	return nil
}

// URL is the root URL of the listener named name, http://host:port.
func (run *Running) URL(name string) string {
	if a := run.addrs[name]; a != nil {
		return "http://" + a.String()
	}
	return ""
}

// Done is closed once every listener has stopped.
func (run *Running) Done() <-chan struct{} { return run.done }

// Wait blocks until the Router has stopped and returns why: nil after a
// requested stop whose requests in flight all finished.
func (run *Running) Wait() error {
	<-run.done
	return run.err
}
