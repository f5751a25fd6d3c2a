package srun

import (
	"cmp"
	"context"
	"errors"
	"log/slog"
	"slices"
	"time"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
)

// decideOne answers one request (one state) with the engine, under the
// request's deadline counted from start, and returns a complete response:
// every question the engine was given has an answer or a failure, in
// request order; model and usage are set; meta is added on return_meta.
// What went wrong is in the answers, but for an engine's refusal (an LLM
// backend overloaded or unreachable), which answers the whole request and
// is returned instead.
func (s *Server) decideOne(parent context.Context, start time.Time, req *ir.Request) (*ir.Response, refused) {
	ctx, cancel := withDeadline(parent, start, req.Options)
	defer cancel()
	if len(req.Questions) == 0 {
		// Every question failed while the request was read; there is
		// nothing to run.
		return s.finish(req, &ir.Response{}, start, 0), nil
	}
	if ctx.Err() != nil {
		// The deadline passed before the work started: it is not run.
		return s.finish(req, failAll(ctx.Err(), req), start, 0), nil
	}
	began := time.Now()
	resp, err := s.engine.Decide(ctx, s.model, req)
	took := time.Since(began)
	var refusal refused
	switch {
	case errors.As(err, &refusal):
		s.log.LogAttrs(parent, slog.LevelWarn, "engine refused the request", slog.String("error", err.Error())) //vocab:not-spec slog attribute key
		return nil, refusal
	case err != nil && (ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded)):
		resp = failAll(cmp.Or(ctx.Err(), err), req)
	case err != nil:
		// The error text is the engine's: logged for the operator, never
		// sent to the client.
		s.log.LogAttrs(parent, slog.LevelError, "engine failed", slog.String("error", err.Error())) //vocab:not-spec slog attribute key
		resp = nil
	}
	if resp == nil {
		resp = failEvery(req, ir.QuestionErrorInvalidModelOutput, vocab.ReasonEngineFailed, "the model produced no answer")
	}
	return s.finish(req, resp, start, took), nil
}

// withDeadline bounds ctx by the request's deadline_ms, counted from the
// moment the server received the request (start).
func withDeadline(ctx context.Context, start time.Time, o *ir.Options) (context.Context, context.CancelFunc) {
	if o == nil || o.DeadlineMs == nil {
		return context.WithCancel(ctx)
	}
	return context.WithDeadline(ctx, start.Add(ir.DeadlineDuration(*o.DeadlineMs)))
}

// failAll fails every question for the reason the work ended early: its
// deadline, or the client going away.
func failAll(cause error, req *ir.Request) *ir.Response {
	if errors.Is(cause, context.DeadlineExceeded) {
		return failEvery(req, ir.QuestionErrorDeadlineExceeded, vocab.ReasonDeadlinePassed,
			"options.deadline_ms passed before the question was run")
	}
	return failEvery(req, ir.QuestionErrorUnavailable, vocab.ReasonRequestCancelled,
		"the request was cancelled before the question was run")
}

// failEvery answers every question of req with the same failure.
func failEvery(req *ir.Request, code ir.QuestionErrorCode, reason, message string) *ir.Response {
	resp := &ir.Response{Answers: make([]ir.Answer, len(req.Questions))}
	for i, q := range req.Questions {
		resp.Answers[i] = ir.Answer{Name: q.Name, Type: q.Type, Error: code, Reason: reason, Message: message}
	}
	return resp
}

// finish completes what the engine answered: the served model's name, a
// usage (zero when the engine gave none), an invalid_model_output failure
// for a question the engine left unanswered, and meta on return_meta.
func (s *Server) finish(req *ir.Request, resp *ir.Response, start time.Time, took time.Duration) *ir.Response {
	name := s.model.Name
	resp.Model = &name
	if resp.Usage == nil {
		resp.Usage = &ir.Usage{}
	}
	for _, q := range req.Questions {
		if !answered(resp, q) {
			resp.Answers = append(resp.Answers, ir.Answer{Name: q.Name, Type: q.Type,
				Error: ir.QuestionErrorInvalidModelOutput, Reason: vocab.ReasonNoAnswer,
				Message: "the model produced no answer for the question"})
		}
	}
	if req.Options != nil && req.Options.ReturnMeta != nil && *req.Options.ReturnMeta {
		resp.Meta = s.meta(resp.Meta, time.Since(start), took)
	}
	return resp
}

// answered reports whether resp answers q: an answer under its name, or,
// for a set question, its result under sets (a composed set answers its
// labels as nouls under <question>.<label> instead of under its name).
func answered(resp *ir.Response, q ir.Question) bool {
	return slices.ContainsFunc(resp.Answers, func(a ir.Answer) bool { return a.Name == q.Name }) ||
		slices.ContainsFunc(resp.Sets, func(s ir.QuestionSet) bool { return s.Question == q.Name })
}

// meta is the response's meta: the engine's own members, then the
// server's for any the engine did not set: the model's identity,
// revision, precision and numerics from its card, the engine and device
// serving it, and the timings of this request.
func (s *Server) meta(engine jsonvalue.Value, total, decide time.Duration) jsonvalue.Value {
	timings := object(member("total_ms", jsonvalue.Float(millis(total))), member("decide_ms", jsonvalue.Float(millis(decide))))
	v, ok := jsonvalue.Object(withMissing(engine,
		member(vocab.ResponseModel, jsonvalue.String(s.model.Name)), // meta names the model as a response does
		member("family", jsonvalue.String(string(s.model.Family))),
		member("revision", jsonvalue.String(s.model.Revision)),
		member("precision", jsonvalue.String(s.model.Card.Precision)),
		member("numerics", jsonvalue.String(s.model.Card.Numerics)),
		member("engine", jsonvalue.String(s.cfg.EngineName)),
		member("device", jsonvalue.String(s.cfg.Device)),
		member("timings", timings))...)
	if !ok {
		return engine
	}
	return v
}

// millis is d in milliseconds, to the microsecond.
func millis(d time.Duration) float64 {
	return float64(d.Microseconds()) / 1000
}

func member(name string, v jsonvalue.Value) jsonvalue.Member {
	return jsonvalue.Member{Name: name, Value: v}
}

// object builds an object from members with distinct names, which every
// caller here passes.
func object(members ...jsonvalue.Member) jsonvalue.Value {
	v, _ := jsonvalue.Object(members...)
	return v
}
