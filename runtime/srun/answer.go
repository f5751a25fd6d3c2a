package srun

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/vllm-sr/systemone/generated/vocab"
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
func (s *Server) answer(ctx context.Context, x *engine.Exchange, start time.Time) (listener.Outcome, *ir.ErrorBody) {
	x.Model = s.model.Name
	out, _, e := s.pipeline.Run(ctx, x, engine.Route{Caller: &modelCaller{s: s, start: start}})
	if e == nil && x.Client.Endpoint == listener.EndpointDecisions {
		e = noValidQuestion(answersOf(out, x.Client.QuestionFailures))
	}
	return out, e
}

// modelCaller is vllm-srun's engine.Caller: the model answers each item
// of the exchange in process, in order, under the request's deadline
// counted from start (when the server received it).
type modelCaller struct {
	s     *Server
	start time.Time
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
		resp := c.s.decideOne(ctx, c.start, &req)
		out = append(out, engine.ItemResult{Name: b.Items[i].Name, Response: resp})
		if x.FailFast && failed(resp) {
			break
		}
	}
	return out
}

func failed(resp *ir.Response) bool {
	for i := range resp.Answers {
		if resp.Answers[i].Error != "" {
			return true
		}
	}
	return false
}

// answersOf are every answer of out, each response's with the questions
// that failed while the request was read in their places.
func answersOf(out listener.Outcome, failures []listener.QuestionFailure) []ir.Answer {
	if out.Response != nil {
		return listener.MergeFailures(out.Response.Answers, failures, "")
	}
	var all []ir.Answer
	for _, nr := range out.Batch.Responses {
		all = append(all, listener.MergeFailures(nr.Response.Answers, failures, "")...)
	}
	return all
}

// noValidQuestion is the 400 of /v1/decisions when every question failed
// for a reason that is the request's own; nil otherwise. The message
// lists each question's error (its name and the fixed message), as the
// listener's own refusal of such a request does, and the detail items
// locate each question for a client that reads them. A failure that is
// not the request's fault (the model failing, the deadline passing) never
// counts as "not valid".
func noValidQuestion(answers []ir.Answer) *ir.ErrorBody {
	if len(answers) == 0 {
		return nil
	}
	msgs := make([]string, 0, len(answers))
	detail := make([]ir.DetailItem, 0, len(answers))
	for _, a := range answers {
		if a.Error == "" || !requestSide(a.Error) {
			return nil
		}
		msg := fmt.Sprintf("question %q cannot be answered: %s (%s)", a.Name, a.Message, a.Error)
		msgs = append(msgs, msg)
		detail = append(detail, ir.DetailItem{Loc: ir.Path{}.Key("body").Key(vocab.RequestQuestions).Key(a.Name), Msg: msg, Type: string(a.Error)})
	}
	e := listener.InvalidRequest(vocab.ReasonNoValidQuestion, "no question of the request can be answered: "+strings.Join(msgs, "; "))
	e.Detail = detail
	return e
}

func reasonOf(a ir.Answer) string {
	if a.Reason != "" {
		return a.Reason
	}
	return string(a.Error)
}
