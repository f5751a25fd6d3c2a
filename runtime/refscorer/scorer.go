package refscorer

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/vllm-sr/systemone/generated/fieldtable"
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/modelcheck"
	"github.com/vllm-sr/systemone/runtime/table"
)

// Engine is the name meta reports.
const Engine = "reference-scorer"

// Scorer is the reference scorer. The zero value is ready to use: it
// reports device "cpu" and reads the wall clock. A Scorer holds no state
// between calls and is safe for concurrent use.
type Scorer struct {
	// Device is what meta reports; "" is "cpu".
	Device string
	// Now is the clock deadlines and timings read; nil is time.Now.
	Now func() time.Time
}

// ErrStatesForm is returned for a vllm-sr/4.0 states-form request, which
// a server answers as one request per state.
var ErrStatesForm = errors.New("refscorer: a states-form request is answered one state at a time")

// Decide answers every question of req with model, in request order.
//
// Before each question it checks the context and options.deadline_ms
// (counted from the call's start): a question whose work has not started
// by the deadline, or after the context's deadline passed, is not run and
// answers deadline_exceeded, as does every question after it. A canceled
// context ends the whole call with its error.
func (s *Scorer) Decide(ctx context.Context, model table.Model, req *ir.Request) (*ir.Response, error) {
	if req == nil {
		return nil, errors.New("refscorer: nil request")
	}
	if req.States != nil {
		return nil, ErrStatesForm
	}
	start := s.now()
	var deadline time.Time
	if req.Options != nil && req.Options.DeadlineMs != nil {
		deadline = start.Add(ir.DeadlineDuration(*req.Options.DeadlineMs))
	}
	resp := &ir.Response{Model: new(model.Name)}
	late := false
	for i := range req.Questions {
		q := &req.Questions[i]
		if err := ctx.Err(); err != nil && !errors.Is(err, context.DeadlineExceeded) {
			return nil, err
		}
		if !late && (ctx.Err() != nil || (!deadline.IsZero() && s.now().After(deadline))) {
			late = true
		}
		if late {
			resp.Answers = append(resp.Answers, failedAnswer(q, questionType(model, q), deadlineFailure))
			continue
		}
		s.answer(model, req, q, resp)
	}
	resp.Usage = usage(model, req)
	if req.Options != nil && req.Options.ReturnMeta != nil && *req.Options.ReturnMeta {
		resp.Meta = s.meta(model, start)
	}
	return resp, nil
}

func (s *Scorer) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// answer checks one question and answers it, or records its failure.
func (s *Scorer) answer(model table.Model, req *ir.Request, q *ir.Question, resp *ir.Response) {
	plan, failure := modelcheck.Question(model, req, q)
	if failure != nil {
		resp.Answers = append(resp.Answers, failedAnswer(q, questionType(model, q), failure))
		return
	}
	adapter := q.DecisionAdapter != nil && *q.DecisionAdapter
	sd := questionSeed(model, &plan, adapter)
	a := ir.Answer{Name: q.Name, Type: plan.Type}
	var extra []ir.Answer
	switch plan.Type {
	case table.QuestionChoice:
		choice(sd, &plan, &a)
	case table.QuestionNoul:
		noul(sd, &a)
	case table.QuestionScore:
		score(sd, &plan, &a)
	case table.QuestionBox:
		box(sd, &a)
	case table.QuestionTrack:
		track(sd, &plan, q, &a)
	case table.QuestionSet:
		var result ir.QuestionSet
		result, extra = set(sd, &plan, &a)
		resp.Sets = append(resp.Sets, result)
		resp.Thresholds = append(resp.Thresholds, ir.QuestionThreshold{Question: q.Name, Threshold: plan.Threshold})
	case table.QuestionSpan:
		// A span answers as a noul (the highest probability any word
		// reached); its spans go under the response's spans.
		resp.Spans = append(resp.Spans, ir.QuestionSpans{Question: q.Name, Spans: span(sd, &plan, &a)})
		a.Type = fieldtable.AnswerType(table.QuestionSpan)
		resp.Thresholds = append(resp.Thresholds, ir.QuestionThreshold{Question: q.Name, Threshold: plan.Threshold})
		if model.Card.HasSpanHead(string(ir.SpanHeadBroad)) {
			resp.SpanHeads = append(resp.SpanHeads, ir.QuestionSpanHead{Question: q.Name, Head: plan.Head})
		}
	}
	abstain(sd, &model.Card, &a)
	if q.RequireFullInput != nil && *q.RequireFullInput && plan.Complete {
		a.InputCoverage = ir.CoverageComplete
	}
	resp.Answers = append(resp.Answers, a)
	for _, x := range extra {
		// A set's per-label noul never shadows a question of the request.
		if !slices.ContainsFunc(req.Questions, func(q ir.Question) bool { return q.Name == x.Name }) {
			resp.Answers = append(resp.Answers, x)
		}
	}
}

// questionType is the type a failed question's answer carries: its own,
// else its preset's on the model's card.
func questionType(model table.Model, q *ir.Question) table.QuestionType {
	if q.Type == "" && q.Preset != nil {
		if p, ok := model.Card.Preset(*q.Preset); ok {
			return p.Type
		}
	}
	return q.Type
}

var deadlineFailure = modelcheck.Fail(vocab.ReasonDeadlinePassed)

func failedAnswer(q *ir.Question, t table.QuestionType, f *modelcheck.Failure) ir.Answer {
	return ir.Answer{Name: q.Name, Type: t, Error: f.Code, Reason: string(f.Reason), Message: f.Message, Limit: f.Limit}
}

// usage counts the state once, as the family reads it whole, with every
// asset it places, plus every question's own text; output tokens are 0.
func usage(model table.Model, req *ir.Request) *ir.Usage {
	n := modelcheck.Whole(model.Card.RoleAware, req).Tokens()
	for _, a := range req.Assets {
		if a.Type == ir.AssetVideo {
			n += model.Card.Limits.Video.Tokens
		} else {
			n += model.Card.Limits.Image.Tokens
		}
	}
	for i := range req.Questions {
		q := &req.Questions[i]
		n += modelcheck.Count(modelcheck.QuestionText(q, q.Criteria))
	}
	return &ir.Usage{InputTokens: n}
}

// meta is the model's identity and the call's timings; timings are the
// only non-deterministic member of a response. The specs list meta's
// members in prose only; its model names the model as a response's does.
func (s *Scorer) meta(model table.Model, start time.Time) jsonvalue.Value {
	device := s.Device
	if device == "" {
		device = "cpu"
	}
	elapsed := float64(s.now().Sub(start).Microseconds()) / 1000
	return object(
		member(vocab.ResponseModel, jsonvalue.String(model.Name)),
		member("family", jsonvalue.String(string(model.Family))),
		member("revision", jsonvalue.String(model.Revision)),
		member("precision", jsonvalue.String(model.Card.Precision)),
		member("numerics", jsonvalue.String(model.Card.Numerics)),
		member("engine", jsonvalue.String(Engine)),
		member("device", jsonvalue.String(device)),
		member("timings", object(member("total_ms", jsonvalue.Float(elapsed)))),
	)
}
