package listener

import (
	"errors"

	"github.com/vllm-sr/systemone/runtime/ir"
)

// ErrNoOutcome: the outcome does not fit the request (a batch request
// answered with a single response, or nothing at all).
var ErrNoOutcome = errors.New("listener: the outcome does not answer the request's kind")

// AnswerSuccess writes a success body for req: a batch response for a
// batch, a vllm-sr/4.0 states answer for a states request, else a response
// whose model, when it names none, is the request's; the questions that
// failed while the request was read are put in their places.
func (c readersCodec) AnswerSuccess(req *ClientRequest, out Outcome) ([]byte, error) {
	switch {
	case req == nil:
		return nil, ErrNoOutcome
	case req.Batch != nil || req.Request != nil && req.Request.States != nil:
		if out.Batch == nil {
			return nil, ErrNoOutcome
		}
		if req.Batch == nil && c.answers.Legacy {
			return c.answers.States(out.Batch, func(nr *ir.NamedResponse) []ir.Answer {
				return MergeFailures(nr.Response.Answers, req.QuestionFailures, "")
			})
		}
		return c.answers.Batch(out.Batch, func(nr *ir.NamedResponse) []ir.Answer {
			return MergeFailures(nr.Response.Answers, req.QuestionFailures, nr.Name)
		})
	case out.Response == nil:
		return nil, ErrNoOutcome
	}
	var model *string
	if req.Request != nil {
		model = req.Request.Model
	}
	return c.answers.Response(out.Response, MergeFailures(out.Response.Answers, req.QuestionFailures, ""), model)
}
