package srun

import (
	"context"
	"time"

	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/table"
)

// Engine answers System One requests with a model: the seam between the
// server and what computes answers. The reference scorer plugs in here,
// and a real engine can replace it without the server changing.
//
// Decide answers one request (never a states or batch request: the server
// splits those) with model. A question the engine cannot answer comes
// back as an Answer with Error, Reason and Message set, in request order
// with the others. ctx carries the request's deadline (options.deadline_ms):
// work not started by then is not run, and its questions answer
// deadline_exceeded. An error means the engine answered nothing; when ctx
// has expired the server answers every question deadline_exceeded, and
// otherwise invalid_model_output.
type Engine interface {
	Decide(ctx context.Context, model table.Model, req *ir.Request) (*ir.Response, error)
}

// Backend is an engine whose model is served elsewhere (an LLM server,
// runtime/llm): the server takes the model's identity from Model, and
// before its self-test calls Connect, which waits for the backend and
// returns the model with its card complete (token limits read from the
// backend). Until Connect and the self-test pass, the server answers 503
// starting, GET /v1/models included.
type Backend interface {
	Engine
	Model() table.Model
	Connect(ctx context.Context) (table.Model, error)
}

// refused is an engine error that answers the whole request instead of
// its questions (an LLM backend that is overloaded or unreachable): the
// error body, and the delay the backend asked for (0: the server's own).
type refused interface {
	Refused() (*ir.ErrorBody, time.Duration)
}
