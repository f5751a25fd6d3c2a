package srun

import (
	"context"
	"slices"
	"time"

	"github.com/vllm-sr/systemone/runtime/engine"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/listener"
)

// answer runs a read request through the pipeline with the served model
// as its caller, in process, and returns what to answer with: an Outcome
// in the served model's name, or the error that answers the request as a
// whole. /v1/systemone and /v1/systemone/batch fail on their first failed
// question (the engine's fail-fast reassembly); /v1/decisions and
// /v1/bundle carry each failure in its answer, except that a
// /v1/decisions request none of whose questions is valid is refused.
//
// An engine's refusal (an LLM backend overloaded or unreachable) answers
// the request on every endpoint, with the delay the backend asked for
// (retryAfter; 0 for the server's own).
func (s *Server) answer(ctx context.Context, x *engine.Exchange, start time.Time) (out listener.Outcome, retryAfter time.Duration, e *ir.ErrorBody) {
	x.Model = s.model.Name
	caller := &modelCaller{s: s, start: start}
	out, _, e = s.pipeline.Run(ctx, x, engine.Route{Caller: caller})
	if caller.refusal != nil {
		body, after := caller.refusal.Refused()
		return listener.Outcome{}, after, body
	}
	if e == nil && x.Client.Endpoint == listener.EndpointDecisions {
		e = listener.NoValidQuestion(out, x.Client.QuestionFailures)
	}
	return out, 0, e
}

// modelCaller is vllm-srun's engine.Caller: the model answers each item
// of the exchange in process, in order, under the request's deadline
// counted from start (when the server received it).
type modelCaller struct {
	s     *Server
	start time.Time
	// refusal is the engine's refusal that ended the call, if one did.
	refusal refused
}

// Call answers each item as it would be alone: a batch's items take its
// options, a bundle's carry their own. On a fail-fast exchange it stops at
// the first item with a failed question, which answers the request: the
// items after it are not run.
func (c *modelCaller) Call(ctx context.Context, x *engine.Exchange) []engine.ItemResult {
	b := x.Batch
	out := make([]engine.ItemResult, 0, len(b.Items))
	for i := range b.Items {
		req := b.Items[i].Request // a shallow copy: the IR read stays as read
		if req.Options == nil {
			req.Options = b.Options
		}
		resp, refusal := c.s.decideOne(ctx, c.start, &req)
		if refusal != nil {
			body, after := refusal.Refused()
			c.refusal = refusal
			return append(out, engine.ItemResult{Name: b.Items[i].Name, Error: body, RetryAfter: after})
		}
		out = append(out, engine.ItemResult{Name: b.Items[i].Name, Response: resp})
		if x.FailFast && slices.ContainsFunc(resp.Answers, func(a ir.Answer) bool { return a.Error != "" }) {
			break
		}
	}
	return out
}
