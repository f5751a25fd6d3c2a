package llm

import (
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/modelcheck"
	"github.com/vllm-sr/systemone/runtime/table"
)

// Refusal is a backend failure that answers the whole request: 529
// overloaded when the backend limits or queues calls, 503 unavailable
// when it cannot be reached, with the delay the backend asked for.
type Refusal struct {
	Body       *ir.ErrorBody
	RetryAfter time.Duration // 0: the backend asked for none
	cause      error
}

func (r *Refusal) Error() string { return "llm backend: " + r.cause.Error() }
func (r *Refusal) Unwrap() error { return r.cause }

// Refused is the error body that answers the request and the delay the
// backend asked for (0: none; the server then asks for its own).
func (r *Refusal) Refused() (*ir.ErrorBody, time.Duration) { return r.Body, r.RetryAfter }

func refusal(ce *callError) *Refusal {
	msg := "the model's LLM backend cannot be reached; retry later"
	if ce.reason == vocab.ReasonBackendOverloaded {
		msg = "the model's LLM backend is overloaded; retry later"
	}
	return &Refusal{Body: ir.ReasonError(ce.reason, msg), RetryAfter: ce.retryAfter, cause: ce}
}

// outcome is one question's answer (or failure), what it adds to the
// response, and the backend's token counts.
type outcome struct {
	answer ir.Answer
	extra  []ir.Answer // a set's per-label nouls
	set    *ir.QuestionSet
	// threshold is a set's applied threshold.
	threshold float64
	prompt    string
	tokens    ir.Usage
	refusal   *Refusal
}

// Decide answers every question of req, in request order: each question
// (each label of a set) is one backend call, all of them concurrent under
// the engine's MaxConcurrency. A call not started by ctx's deadline is not
// made and its question answers deadline_exceeded. A backend that is
// overloaded or unreachable answers the whole request: Decide returns a
// *Refusal.
func (e *Engine) Decide(ctx context.Context, model table.Model, req *ir.Request) (*ir.Response, error) {
	if req == nil || req.States != nil {
		return nil, errors.New("llm: the engine answers one request with one state")
	}
	outs := make([]outcome, len(req.Questions))
	var wg sync.WaitGroup
	for i := range req.Questions {
		wg.Go(func() { outs[i] = e.question(ctx, model, req, &req.Questions[i]) })
	}
	wg.Wait()
	resp := &ir.Response{Usage: &ir.Usage{}}
	var prompts []jsonvalue.Member
	for i := range outs {
		o := &outs[i]
		if o.refusal != nil {
			return nil, o.refusal
		}
		resp.Answers = append(resp.Answers, o.answer)
		for _, x := range o.extra {
			// A set's per-label noul never shadows a question of the request.
			if !slices.ContainsFunc(req.Questions, func(q ir.Question) bool { return q.Name == x.Name }) {
				resp.Answers = append(resp.Answers, x)
			}
		}
		if o.set != nil {
			resp.Sets = append(resp.Sets, *o.set)
			resp.Thresholds = append(resp.Thresholds, ir.QuestionThreshold{Question: o.set.Question, Threshold: o.threshold})
		}
		resp.Usage.InputTokens += o.tokens.InputTokens
		resp.Usage.OutputTokens += o.tokens.OutputTokens
		if o.prompt != "" {
			prompts = append(prompts, jsonvalue.Member{Name: o.answer.Name, Value: jsonvalue.String(o.prompt)})
		}
	}
	if req.Options != nil && req.Options.ReturnMeta != nil && *req.Options.ReturnMeta {
		resp.Meta = e.meta(prompts)
	}
	return resp, nil
}

// meta is the engine's part of meta: the prompt template of each question
// and the backend that answered.
func (e *Engine) meta(prompts []jsonvalue.Member) jsonvalue.Value {
	p, _ := jsonvalue.Object(prompts...)
	backend, _ := jsonvalue.Object(
		jsonvalue.Member{Name: "flavor", Value: jsonvalue.String(string(e.flavor))},
		jsonvalue.Member{Name: vocab.ResponseModel, Value: jsonvalue.String(e.cfg.Model)})
	v, _ := jsonvalue.Object(
		jsonvalue.Member{Name: "prompts", Value: p},
		jsonvalue.Member{Name: "backend", Value: backend},
		jsonvalue.Member{Name: "calibrated", Value: jsonvalue.Bool(e.cfg.Calibration != nil)})
	return v
}

// ask checks one question against the card: its plan and the
// instructions it is asked with. A preset question (one the card lists,
// of its type) is asked through the catalogue's canonical texts, the
// question's own instructions and criteria first, as a systemone/0.2
// target gets it: the LLM has no trained head.
func ask(model table.Model, req *ir.Request, q *ir.Question) (modelcheck.Plan, string, *modelcheck.Failure) {
	asked := *q
	modelcheck.ExpandPreset(&asked)
	plan, f := modelcheck.Question(model, req, &asked)
	if f != nil {
		return plan, "", namedType(f, plan.Type)
	}
	return plan, modelcheck.Render(asked.Instructions), nil
}

// question checks one question against the card and answers it.
func (e *Engine) question(ctx context.Context, model table.Model, req *ir.Request, q *ir.Question) outcome {
	plan, instructions, f := ask(model, req, q)
	if f != nil {
		return failed(q, plan.Type, f)
	}
	temperature := e.cfg.Calibration.Temperature(plan.Type, plan.Preset)
	if plan.Type == table.QuestionSet {
		return e.set(ctx, &plan, q, instructions, temperature)
	}
	p := questionPrompt(&plan, instructions)
	lp, tokens, err := e.scoreLabels(ctx, p)
	if err != nil {
		return failedBy(q, plan.Type, err)
	}
	a := compose(&plan, q.Name, tempered(lp, temperature))
	return outcome{answer: a, prompt: p.name, tokens: tokens}
}

// set asks one Yes/No question per label, concurrently: each label's
// probability is its P(yes), the selected labels those at or above the
// threshold, the set's own answer the highest label probability.
func (e *Engine) set(ctx context.Context, plan *modelcheck.Plan, q *ir.Question, instructions string, temperature float64) outcome {
	labels := plan.Criteria.Keyed
	ps := make([]float64, len(labels))
	errs := make([]error, len(labels))
	tokens := make([]ir.Usage, len(labels))
	var wg sync.WaitGroup
	for i := range labels {
		wg.Go(func() {
			var lp []float64
			lp, tokens[i], errs[i] = e.scoreLabels(ctx, setPrompt(plan, instructions, labels[i]))
			if errs[i] == nil {
				ps[i] = roundedYes(tempered(lp, temperature))
			}
		})
	}
	wg.Wait()
	var o outcome
	for i := range labels {
		o.tokens.InputTokens += tokens[i].InputTokens
		o.tokens.OutputTokens += tokens[i].OutputTokens
	}
	if err := firstError(errs); err != nil {
		f := failedBy(q, table.QuestionSet, err)
		f.tokens = o.tokens
		return f
	}
	result := ir.QuestionSet{Question: q.Name, Selected: []string{}}
	highest := 0.0
	for i, m := range labels {
		result.Probabilities = append(result.Probabilities, ir.Probability{Key: m.Name, P: ps[i]})
		if ps[i] >= plan.Threshold {
			result.Selected = append(result.Selected, m.Name)
		}
		highest = max(highest, ps[i])
		o.extra = append(o.extra, ir.Answer{Name: q.Name + "." + m.Name, Type: table.QuestionNoul, Noul: new(ps[i])})
	}
	o.answer = ir.Answer{Name: q.Name, Type: table.QuestionSet, Noul: new(highest)}
	o.set, o.threshold, o.prompt = &result, plan.Threshold, PromptsVersion+"/"+string(table.QuestionSet)
	return o
}

// firstError is the error that answers a set: a refusal first (it answers
// the whole request), else the first label's error.
func firstError(errs []error) error {
	var first error
	for _, err := range errs {
		var ce *callError
		if errors.As(err, &ce) && ce.refuses() {
			return err
		}
		if first == nil {
			first = err
		}
	}
	return first
}

// namedType names the question type in a question_type_not_answered
// failure's message: a word of the spec's closed set, which the listener
// checked, never request data.
func namedType(f *modelcheck.Failure, t table.QuestionType) *modelcheck.Failure {
	if f.Reason != vocab.ReasonQuestionTypeNotAnswered || t == "" { // the listener checked t against the spec's types
		return f
	}
	named := *f
	named.Message = "the model does not answer " + string(t) + " questions: an LLM answers noul, choice, score and set" //vocab:not-spec message words
	return &named
}

// failed is a question that failed a check.
func failed(q *ir.Question, t table.QuestionType, f *modelcheck.Failure) outcome {
	if t == "" {
		t = q.Type
	}
	return outcome{answer: ir.Answer{Name: q.Name, Type: t, Error: f.Code, Reason: string(f.Reason), Message: f.Message, Limit: f.Limit}}
}

// failedBy is a question whose backend work failed: the request's deadline
// or cancellation, a refusal, the backend's context, or what the backend
// answered.
func failedBy(q *ir.Question, t table.QuestionType, err error) outcome {
	var ce *callError
	var le *labelError
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return failed(q, t, modelcheck.Fail(vocab.ReasonDeadlinePassed))
	case errors.Is(err, context.Canceled):
		return failed(q, t, modelcheck.Fail(vocab.ReasonRequestCancelled))
	case errors.As(err, &ce) && ce.refuses():
		return outcome{refusal: refusal(ce)}
	case errors.As(err, &ce) && ce.reason == vocab.ReasonBackendContextExceeded && ce.limit > 0:
		return failed(q, t, modelcheck.FailLimit(modelcheck.Reason(ce.reason), ce.limit))
	case errors.As(err, &ce):
		return failed(q, t, modelcheck.Fail(modelcheck.Reason(ce.reason)))
	case errors.As(err, &le):
		return failed(q, t, modelcheck.Fail(modelcheck.Reason(le.reason)))
	}
	return failed(q, t, modelcheck.Fail(vocab.ReasonEngineFailed))
}
