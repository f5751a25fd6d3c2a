package srun

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
)

// Running is a started server: its address, and how it ends.
type Running struct {
	server *Server
	addr   net.Addr
	done   chan struct{}
	err    error
}

// Start builds a server for cfg, listens on cfg.Addr and serves, then
// runs the start-up self-test in the background; the server answers 503
// starting with Retry-After until the self-test passes. It is what
// `vllm-srun serve` runs, and what the tests start.
//
// The server stops when ctx is done (the CLI cancels it on SIGINT or
// SIGTERM) or the self-test fails: it stops accepting connections and
// waits up to cfg.ShutdownTimeout for the requests in flight to finish
// (http.Server.Shutdown). Wait returns how it ended.
func Start(ctx context.Context, cfg Config) (*Running, error) {
	s, err := New(cfg)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", s.cfg.Addr)
	if err != nil {
		return nil, err
	}
	return s.serve(ctx, ln), nil
}

func (s *Server) serve(ctx context.Context, ln net.Listener) *Running {
	hs := &http.Server{
		Handler: s.Handler(),
		// Headers have their own deadline here; the body's and the
		// answer's are per request (listener.Front: cfg.ReadTimeout and
		// cfg.WriteTimeout), so a stalled client frees its connection
		// within seconds while a long computation is not cut.
		ReadHeaderTimeout: s.cfg.ReadHeaderTimeout,
		IdleTimeout:       s.cfg.IdleTimeout,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
		// Requests do not inherit ctx: cancelling ctx starts a graceful
		// shutdown, which lets the requests in flight finish.
		BaseContext: func(net.Listener) context.Context { return context.Background() },
	}
	run := &Running{server: s, addr: ln.Addr(), done: make(chan struct{})}
	stop, stopNow := context.WithCancelCause(ctx)
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	go func() {
		s.log.Info("self-test started", slog.String("device", s.cfg.Device), slog.String("engine", s.cfg.EngineName))
		if err := s.SelfTest(stop); err != nil {
			stopNow(err)
			return
		}
		s.metrics.SetReady(true)
		s.log.Info("ready", slog.String("addr", ln.Addr().String()))
	}()
	go func() {
		defer close(run.done)
		select {
		case err := <-served:
			stopNow(err)
			run.err = err
			return
		case <-stop.Done():
		}
		cause := context.Cause(stop)
		if ctx.Err() != nil {
			cause = nil // the caller asked for the stop
		}
		run.err = s.shutdown(hs, cause)
	}()
	s.log.Info("listening", slog.String("addr", ln.Addr().String()))
	return run
}

// shutdown stops hs gracefully and reports why the server ended: cause
// (nil for a requested stop, else the self-test's failure), joined with a
// shutdown that ran out of time.
func (s *Server) shutdown(hs *http.Server, cause error) error {
	s.log.Info("shutting down", slog.Int("in_flight", s.admission.inFlight()))
	ctx, cancel := context.WithTimeout(context.Background(), s.cfg.ShutdownTimeout)
	defer cancel()
	err := hs.Shutdown(ctx)
	if err != nil {
		_ = hs.Close()
		err = errors.New("shutdown timed out with requests in flight")
	}
	if e := errors.Join(cause, err); e != nil {
		s.log.Error("stopped", slog.String("error", e.Error())) //vocab:not-spec slog attribute key
		return e
	}
	s.log.Info("stopped")
	return nil
}

// Addr is the address the server listens on.
func (r *Running) Addr() net.Addr { return r.addr }

// URL is the server's root URL, http://host:port.
func (r *Running) URL() string { return "http://" + r.addr.String() }

// Server is the running server.
func (r *Running) Server() *Server { return r.server }

// Done is closed once the server has stopped.
func (r *Running) Done() <-chan struct{} { return r.done }

// Wait blocks until the server has stopped and returns why: nil after a
// requested stop whose requests in flight all finished.
func (r *Running) Wait() error {
	<-r.done
	return r.err
}
