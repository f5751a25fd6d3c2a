package srun_test

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/srun"
	"github.com/vllm-sr/systemone/runtime/table"
)

// The engines below are test doubles at the srun.Engine seam, the one
// place a real engine plugs in. Each wraps the reference scorer to
// provoke what a real model can do and the reference scorer never does:
// produce no valid answer, be unavailable, be slow, or block until the
// test lets it go. None computes an answer of its own.

// failing fails the question called name with code, as a model whose
// output for it was unusable (invalid_model_output) or whose weights are
// not loaded (unavailable); the other questions are the scorer's.
type failing struct {
	inner  srun.Engine
	name   string
	code   ir.QuestionErrorCode
	reason string
}

func (f failing) Decide(ctx context.Context, m table.Model, req *ir.Request) (*ir.Response, error) {
	resp, err := f.inner.Decide(ctx, m, req)
	if err != nil {
		return nil, err
	}
	for i := range resp.Answers {
		if resp.Answers[i].Name == f.name {
			resp.Answers[i] = ir.Answer{Name: f.name, Type: resp.Answers[i].Type, Error: f.code,
				Reason: f.reason, Message: "the test engine failed the question"}
		}
	}
	return resp, nil
}

// slow waits delay before the scorer runs a request that asks a question
// called question (so the self-test runs at full speed), or gives up when
// ctx ends first, as a busy model does.
type slow struct {
	inner    srun.Engine
	delay    time.Duration
	question string
}

func (s slow) Decide(ctx context.Context, m table.Model, req *ir.Request) (*ir.Response, error) {
	asks := false
	for _, q := range req.Questions {
		asks = asks || q.Name == s.question
	}
	if !asks {
		return s.inner.Decide(ctx, m, req)
	}
	select {
	case <-time.After(s.delay):
		return s.inner.Decide(ctx, m, req)
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// gate, once armed, blocks every call until the test opens it; entered
// receives one value per call that reached it, so the test knows a request
// is in flight. Unarmed, it lets calls (the self-test's) straight through.
type gate struct {
	inner   srun.Engine
	armed   atomic.Bool
	open    chan struct{}
	entered chan struct{}
	once    sync.Once
}

func newGate(inner srun.Engine, armed bool) *gate {
	g := &gate{inner: inner, open: make(chan struct{}), entered: make(chan struct{}, 64)}
	g.armed.Store(armed)
	return g
}

func (g *gate) Decide(ctx context.Context, m table.Model, req *ir.Request) (*ir.Response, error) {
	if !g.armed.Load() {
		return g.inner.Decide(ctx, m, req)
	}
	g.entered <- struct{}{}
	select {
	case <-g.open:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return g.inner.Decide(ctx, m, req)
}

func (g *gate) release() { g.once.Do(func() { close(g.open) }) }

// waitEntered waits for n calls to reach the gate, at most 5 s.
func (g *gate) waitEntered(n int) bool {
	timeout := time.After(5 * time.Second)
	for range n {
		select {
		case <-g.entered:
		case <-timeout:
			return false
		}
	}
	return true
}
