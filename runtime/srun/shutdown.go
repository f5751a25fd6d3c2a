package srun

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/vllm-sr/systemone/runtime/socket"
)

// Running is a started server: its URL, its readiness, and how it ends.
type Running struct {
	url   string
	ready chan struct{} // closed once the self-test passed
	done  chan struct{}
	err   error
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
	ln, err := socket.Listen(s.cfg.Addr)
	if err != nil {
		return nil, err
	}
	addr := slog.String("addr", ln.Addr().String())
	hs := s.cfg.Server(s.Handler(), s.log)
	run := &Running{url: "http://" + ln.Addr().String(), ready: make(chan struct{}), done: make(chan struct{})}
	stop, stopNow := context.WithCancelCause(ctx)
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	go func() {
		s.log.Info("self-test started", slog.String("device", s.cfg.Device), slog.String("engine", s.cfg.EngineName))
		if err := s.connect(stop); err != nil {
			stopNow(err)
			return
		}
		if err := s.SelfTest(stop); err != nil {
			stopNow(err)
			return
		}
		s.metrics.SetReady(true)
		close(run.ready)
		s.log.Info("ready", addr)
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
	s.log.Info("listening", addr)
	return run, nil
}

// shutdown stops hs gracefully and reports why the server ended: cause
// (nil for a requested stop, else the self-test's failure), joined with a
// shutdown that ran out of time.
func (s *Server) shutdown(hs *http.Server, cause error) error {
	s.log.Info("shutting down", slog.Int("in_flight", s.admission.InFlight()))
	if e := errors.Join(cause, s.cfg.Shutdown(hs, s.front)); e != nil {
		s.log.Error("stopped", slog.String("error", e.Error())) //vocab:not-spec slog attribute key
		return e
	}
	s.log.Info("stopped")
	return nil
}

// URL is the server's root URL, http://host:port.
func (r *Running) URL() string { return r.url }

// WaitReady waits up to timeout for the server to pass its self-test, and
// says why it did not: the server stopped first, or the time ran out.
func (r *Running) WaitReady(timeout time.Duration) error {
	select {
	case <-r.ready:
		return nil
	case <-r.done:
		return fmt.Errorf("the server stopped while starting: %v", r.err)
	case <-time.After(timeout):
		return fmt.Errorf("the server was not ready within %v", timeout)
	}
}

// Wait blocks until the server has stopped and returns why: nil after a
// requested stop whose requests in flight all finished.
func (r *Running) Wait() error {
	<-r.done
	return r.err
}
