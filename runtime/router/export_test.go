package router

import (
	"context"
	"fmt"
	"net"
	"net/http"

	"github.com/vllm-sr/systemone/runtime/routerconfig"
)

// Config is the configuration the Router serves.
func (r *Router) Config() *routerconfig.Config { return r.cfg }

// Handler is the HTTP handler of the listener named name.
func (r *Router) Handler(name string) (http.Handler, error) {
	if h, ok := r.handlers[name]; ok {
		return h, nil
	}
	return nil, fmt.Errorf("router: no listener named %q", name)
}

// Router is the Router of the configuration in force.
func (run *Running) Router() *Router { return run.current.Load() }

// Addr is the address the listener named name listens on; nil for none.
func (run *Running) Addr(name string) net.Addr { return run.addrs[name] }

// StartTracing starts the span export Start would, for a Router from New.
func (r *Router) StartTracing(ctx context.Context) error { return r.startTracing(ctx) }

// StopTracing exports the queued spans and stops the export.
func (r *Router) StopTracing() { r.stopTracing() }
