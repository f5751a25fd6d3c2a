package srun

import (
	"context"

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
