package srun

import (
	"context"
	"slices"
	"sync"
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
// options, a bundle's carry their own. On a fail-fast exchange the first
// item with a failed question answers the request, and the items after it
// are not reported. An in-process engine answers the items in turn, and
// runs none after that first failure; a Backend engine (an LLM server)
// gets every item at once, its own bound (--max-concurrency) limiting the
// calls, as the items of a batch are answered concurrently.
func (c *modelCaller) Call(ctx context.Context, x *engine.Exchange) []engine.ItemResult {
	b := x.Batch
	_, concurrent := c.s.engine.(Backend)
	answers := make([]itemAnswer, len(b.Items))
	var wg sync.WaitGroup
	for i := range b.Items {
		req := b.Items[i].Request // a shallow copy: the IR read stays as read
		if req.Options == nil {
			req.Options = b.Options
		}
		if !concurrent {
			answers[i] = c.answerItem(ctx, &req)
			if answers[i].ends(x.FailFast) {
				answers = answers[:i+1]
				break
			}
			continue
		}
		wg.Go(func() { answers[i] = c.answerItem(ctx, &req) })
	}
	wg.Wait()
	out := make([]engine.ItemResult, 0, len(answers))
	for i, a := range answers {
		if a.refusal != nil {
			body, after := a.refusal.Refused()
			c.refusal = a.refusal
			return append(out, engine.ItemResult{Name: b.Items[i].Name, Error: body, RetryAfter: after})
		}
		out = append(out, engine.ItemResult{Name: b.Items[i].Name, Response: a.resp})
		if a.ends(x.FailFast) {
			break
		}
	}
	return out
}

// itemAnswer is one item's response, or the engine's refusal.
type itemAnswer struct {
	resp    *ir.Response
	refusal refused
}

func (c *modelCaller) answerItem(ctx context.Context, req *ir.Request) itemAnswer {
	resp, refusal := c.s.decideOne(ctx, c.start, req)
	return itemAnswer{resp: resp, refusal: refusal}
}

// ends reports whether the item ends the exchange: a refusal, or on a
// fail-fast exchange a failed question.
func (a itemAnswer) ends(failFast bool) bool {
	return a.refusal != nil ||
		(failFast && slices.ContainsFunc(a.resp.Answers, func(a ir.Answer) bool { return a.Error != "" }))
}
