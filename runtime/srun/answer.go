package srun

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/listener"
)

// call is one request the listener has read, on its way to the engine.
type call struct {
	// start is when the server received the request; deadlines count
	// from it.
	start time.Time
	req   *listener.ClientRequest
}

// answer runs a read request through the engine and returns what to
// answer with: an Outcome, or the error that answers the request as a
// whole. /v1/systemone and /v1/systemone/batch fail on their first failed
// question; /v1/decisions and /v1/bundle carry each failure in its answer.
func (s *Server) answer(ctx context.Context, c *call) (listener.Outcome, *ir.ErrorBody) {
	switch c.req.Endpoint {
	case listener.EndpointSystemOne:
		return s.answerStrict(ctx, c)
	case listener.EndpointDecisions:
		return s.answerDecisions(ctx, c)
	case listener.EndpointBatch:
		return s.answerBatch(ctx, c, true)
	case listener.EndpointBundle:
		return s.answerBatch(ctx, c, false)
	}
	return listener.Outcome{}, unknownPath()
}

// answerStrict answers POST /v1/systemone: one request, or on vllm-sr/4.0
// a states request, each state as a request of its own. The first
// question that fails, in request order (states in order), answers the
// whole request.
func (s *Server) answerStrict(ctx context.Context, c *call) (listener.Outcome, *ir.ErrorBody) {
	req := c.req.Request
	if req.States == nil {
		resp := s.decideOne(ctx, c.start, beforeFirstFailure(req, c.req.QuestionFailures, ""))
		if f := firstFailure(resp, c.req.QuestionFailures, "", ""); f != nil {
			return listener.Outcome{}, f
		}
		return listener.Outcome{Response: resp}, nil
	}
	out := &ir.BatchResponse{Model: s.modelName()}
	for _, st := range req.States {
		resp := s.decideOne(ctx, c.start, beforeFirstFailure(stateRequest(req, st.Value), c.req.QuestionFailures, ""))
		if f := firstFailure(resp, c.req.QuestionFailures, "", st.Name); f != nil {
			return listener.Outcome{}, f
		}
		out.Responses = append(out.Responses, ir.NamedResponse{Name: st.Name, Response: *resp})
	}
	out.Usage = sumUsage(out.Responses)
	return listener.Outcome{Batch: out}, nil
}

// answerDecisions answers POST /v1/decisions: every failed question
// carries its error in its own answer of a 200, unless no question of the
// request is valid, which is a 400 invalid_request listing each
// question's error. A failure that is not the request's fault (the model
// failing, the deadline passing) never counts as "not valid".
func (s *Server) answerDecisions(ctx context.Context, c *call) (listener.Outcome, *ir.ErrorBody) {
	req := c.req.Request
	var all []ir.Answer
	var out listener.Outcome
	if req.States == nil {
		resp := s.decideOne(ctx, c.start, req)
		all = listener.MergeFailures(resp.Answers, c.req.QuestionFailures, "")
		out.Response = resp
	} else {
		out.Batch = &ir.BatchResponse{Model: s.modelName()}
		for _, st := range req.States {
			resp := s.decideOne(ctx, c.start, stateRequest(req, st.Value))
			all = append(all, listener.MergeFailures(resp.Answers, c.req.QuestionFailures, "")...)
			out.Batch.Responses = append(out.Batch.Responses, ir.NamedResponse{Name: st.Name, Response: *resp})
		}
		out.Batch.Usage = sumUsage(out.Batch.Responses)
	}
	if e := noValidQuestion(all); e != nil {
		return listener.Outcome{}, e
	}
	return out, nil
}

// answerBatch answers a batch (vllm-sr/5.0's /v1/systemone/batch) or a
// stage bundle (/v1/bundle): each named request as it would be alone, in
// order, under one deadline counted from the call's start. A batch's
// items take its model and options; a bundle's items carry their own
// options. strict: the first failed question fails the call, naming its
// request as the error's state.
func (s *Server) answerBatch(ctx context.Context, c *call, strict bool) (listener.Outcome, *ir.ErrorBody) {
	b := c.req.Batch
	out := &ir.BatchResponse{Model: s.modelName(), Responses: make([]ir.NamedResponse, 0, len(b.Items))}
	for i := range b.Items {
		item := &b.Items[i]
		req := item.Request // a shallow copy: the IR read stays as read
		if req.Options == nil {
			req.Options = b.Options
		}
		if strict {
			req = *beforeFirstFailure(&req, c.req.QuestionFailures, item.Name)
		}
		resp := s.decideOne(ctx, c.start, &req)
		if strict {
			if f := firstFailure(resp, c.req.QuestionFailures, item.Name, item.Name); f != nil {
				return listener.Outcome{}, f
			}
		}
		out.Responses = append(out.Responses, ir.NamedResponse{Name: item.Name, Response: *resp})
	}
	out.Usage = sumUsage(out.Responses)
	return listener.Outcome{Batch: out}, nil
}

// stateRequest is req asked of one of its states.
func stateRequest(req *ir.Request, state jsonvalue.Value) *ir.Request {
	one := *req
	one.State = state
	one.States = nil
	return &one
}

// beforeFirstFailure drops the questions at and after the first question
// of item that failed while the request was read: on a fail-fast
// endpoint that failure answers the request unless an earlier question
// fails, so the later ones need not run. Questions are independent, so
// the earlier ones answer as they would with the rest present.
func beforeFirstFailure(req *ir.Request, failures []listener.QuestionFailure, item string) *ir.Request {
	for _, f := range failures {
		if f.Item != item {
			continue
		}
		// f.Index counts the client's questions; the failures before it
		// (none: it is the first) are not in the IR, so the IR's first
		// f.Index questions are exactly the ones before it.
		if f.Index < len(req.Questions) {
			cut := *req
			cut.Questions = req.Questions[:f.Index]
			return &cut
		}
		return req
	}
	return req
}

// firstFailure returns the error answering a fail-fast request whose first
// failed question, in client order, is among resp's answers or the
// read-time failures of item; nil when no question failed. state names
// the batch item or 4.0 state, "" for a single request.
func firstFailure(resp *ir.Response, failures []listener.QuestionFailure, item, state string) *ir.ErrorBody {
	for _, a := range listener.MergeFailures(resp.Answers, failures, item) {
		if a.Error == "" {
			continue
		}
		limit := a.Limit
		if limit == nil {
			limit = limitOf(failures, item, a.Name)
		}
		return questionFailed(a, limit, item, state)
	}
	return nil
}

func limitOf(failures []listener.QuestionFailure, item, name string) *int64 {
	for _, f := range failures {
		if f.Item == item && f.Name == name {
			return f.Limit
		}
	}
	return nil
}

// questionFailed is the error a failed question answers a fail-fast
// request with: the status of its kind from the generated table, code
// question_failed, and on a 422 the standard's detail list locating it.
func questionFailed(a ir.Answer, limit *int64, item, state string) *ir.ErrorBody {
	status := questionStatus(a.Error)
	msg := fmt.Sprintf("question %q cannot be answered: %s", a.Name, a.Message)
	e := &ir.ErrorBody{
		Status:   status,
		Code:     ir.ErrorQuestionFailed,
		Message:  msg,
		Question: a.Name,
		State:    state,
		Reason:   reasonOf(a),
		Limit:    limit,
	}
	if status == 422 {
		e.Detail = []ir.DetailItem{{Loc: questionLoc(item, a.Name), Msg: msg, Type: string(a.Error)}}
	}
	return e
}

// noValidQuestion is the 400 of /v1/decisions when every question failed
// for a reason that is the request's own; nil otherwise. The message
// lists each question's error (its name and the fixed message), as the
// listener's own refusal of such a request does, and the detail items
// locate each question for a client that reads them.
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
		detail = append(detail, ir.DetailItem{Loc: questionLoc("", a.Name), Msg: msg, Type: string(a.Error)})
	}
	e := invalidRequest(vocab.ReasonNoValidQuestion, "no question of the request can be answered: "+strings.Join(msgs, "; "))
	e.Detail = detail
	return e
}

func reasonOf(a ir.Answer) string {
	if a.Reason != "" {
		return a.Reason
	}
	return string(a.Error)
}

// questionLoc locates a question in the body: body.questions.<name>, or in
// a batch body.requests.<item>.questions.<name>.
func questionLoc(item, name string) ir.Path {
	p := ir.Path{}.Key("body")
	if item != "" {
		p = p.Key(vocab.BatchRequests).Key(item)
	}
	return p.Key(vocab.RequestQuestions).Key(name)
}

func sumUsage(rs []ir.NamedResponse) *ir.Usage {
	sum := &ir.Usage{}
	for _, r := range rs {
		if r.Response.Usage != nil {
			sum.InputTokens += r.Response.Usage.InputTokens
			sum.OutputTokens += r.Response.Usage.OutputTokens
		}
	}
	return sum
}

func (s *Server) modelName() *string {
	name := s.model.Name
	return &name
}
