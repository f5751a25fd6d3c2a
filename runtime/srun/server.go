package srun

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/vllm-sr/systemone/generated/catalog"
	"github.com/vllm-sr/systemone/runtime/engine"
	"github.com/vllm-sr/systemone/runtime/front"
	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/refscorer"
	"github.com/vllm-sr/systemone/runtime/table"
)

// Server is a System One model runtime for one model: its HTTP handler,
// its readiness and its counters. Build one with New and serve it with
// Start, or mount Handler yourself.
type Server struct {
	cfg   Config
	model table.Model
	// codec is the listener codec of cfg.Schema, from cfg.Schemas.
	codec listener.Codec
	// pipeline runs requests through the codecs; engine is the model.
	pipeline  *engine.Engine
	engine    Engine
	log       *slog.Logger
	admission *front.Admission
	metrics   *front.Metrics
	// front puts ids, deadlines, metrics and the access log around each
	// request (front.Front).
	front *front.Front
	// ready is set once the model has loaded and passed its self-test;
	// until then every endpoint but GET /metrics answers 503 starting.
	ready atomic.Bool
}

// New builds a server for cfg.Model. It fails, in one line, on a model
// the catalogue does not have (listing the ones it has), or a schema or
// device the server does not support. The server is not ready until
// SelfTest passes (Start runs it).
func New(cfg Config) (*Server, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	model, ok := catalog.Model(cfg.Model)
	if b, isBackend := cfg.Engine.(Backend); isBackend {
		// The backend's model is the engine's, under the name it serves.
		model, ok = b.Model(), true
	}
	if !ok {
		return nil, fmt.Errorf("unknown model %q; supported: %s", cfg.Model, strings.Join(ModelNames(), ", "))
	}
	if cfg.Engine == nil {
		cfg.Engine = &refscorer.Scorer{Device: cfg.Device} // the reference scorer, reporting the device in meta
		cfg.EngineName = cmp.Or(cfg.EngineName, refscorer.Engine)
	}
	cfg.EngineName = cmp.Or(cfg.EngineName, "custom")
	codec, _ := cfg.Schemas.Listener(cfg.Schema) // withDefaults checked it

	// The access line names the model itself (Served.Model), so the
	// front's logger must not carry it too: a repeated key in one JSON
	// line is read as the first or the last, as each log reader pleases.
	access := front.WithRequestIDs(cfg.Logger.With(slog.String("schema", string(cfg.Schema)))) //vocab:not-spec slog attribute key
	log := access.With(slog.String("model", model.Name))                                       //vocab:not-spec slog attribute key
	a := front.NewAdmission(cfg.MaxInFlight)
	metrics := newMetrics(a)
	if c, has := cfg.Engine.(interface{ Collectors() []prometheus.Collector }); has {
		metrics.Registry().MustRegister(c.Collectors()...)
	}
	return &Server{
		cfg:       cfg,
		model:     model,
		codec:     codec,
		pipeline:  engine.New(cfg.Schemas),
		engine:    cfg.Engine,
		log:       log,
		admission: a,
		metrics:   metrics,
		front: &front.Front{Metrics: metrics, IDs: front.NewRequestIDs(), Log: access,
			ReadTimeout: cfg.ReadTimeout, WriteTimeout: cfg.WriteTimeout},
	}, nil
}

// ModelNames are the names of the catalogue's models, in catalogue order.
func ModelNames() []string {
	models := catalog.Models()
	names := make([]string, len(models))
	for i, m := range models {
		names[i] = m.Name
	}
	return names
}

// Ready reports whether the server has passed its self-test.
func (s *Server) Ready() bool { return s.ready.Load() }

// Model is the model the server answers with.
func (s *Server) Model() table.Model { return s.model }

// connect completes a Backend engine's model from its backend (its card's
// token limits) before the self-test: only the card changes, which no
// handler reads before the server is ready (GET /v1/models answers 503
// starting until then). Any other engine's model is complete already.
func (s *Server) connect(ctx context.Context) error {
	b, ok := s.engine.(Backend)
	if !ok {
		return nil
	}
	m, err := b.Connect(ctx)
	if err != nil {
		return err
	}
	s.model.Card = m.Card
	return nil
}
