package router

import (
	"cmp"
	"slices"

	"github.com/vllm-sr/systemone/generated/catalog"
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/engine"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/modelcheck"
	"github.com/vllm-sr/systemone/runtime/routerconfig"
	tc "github.com/vllm-sr/systemone/runtime/target"
)

// /v1/decisions answers a question its deployment cannot carry or answer
// as vllm-srun answers one its model does not: that question fails on its
// own inside the 200, and the others go on. A request none of whose
// questions is left is 400 invalid_request no_valid_question on both
// servers. /v1/systemone and /v1/systemone/batch, which fail as a whole,
// are refused before any call (forward), and so is a pool request no
// member can take (choose).

// failUncarried fails on their own the questions of x that need what m
// (missing's list for d) names, adds them to the client request's
// question failures in request order, and leaves them out of what is
// planned. When no question is left it returns the refusal that answers
// the request, as vllm-srun's.
//
// A question type d does not answer is question_type_not_answered, a
// preset it cannot take preset_not_answered or preset_type_mismatch, a
// question member its schema cannot carry not_carried (each
// invalid_question); an asset of a medium d does not read fails every
// question, which reads it with the state: image_not_read or
// video_not_read (invalid_input). Each message is the CarryError's line
// for that question: the deployment and what it cannot carry, where.
func failUncarried(x *engine.Exchange, d *routerconfig.Deployment, m []tc.Missing) *ir.ErrorBody {
	byQuestion, media := uncarriedByQuestion(m)
	medium := firstMedium(media, x.Batch.Items[0].Request.Assets) // fails every question that has no failure of its own
	return failAlone(x, func(q *ir.Question) (listener.QuestionFailure, bool) {
		switch qm := byQuestion[q.Name]; {
		case len(qm) > 0:
			return listener.QuestionFailure{Error: ir.QuestionErrorInvalidQuestion, Reason: questionReason(q, qm[0]), Message: uncarriedLine(d, qm)}, true
		case medium != "":
			return listener.QuestionFailure{Error: ir.QuestionErrorInvalidInput, Reason: notRead(medium), Message: uncarriedLine(d, media)}, true
		}
		return listener.QuestionFailure{}, false
	})
}

// failUnasked fails on their own the questions of x that d's card
// refuses as the runtime's model check refuses them before it reads the
// input (modelcheck.Asked: type, preset, extension fields, criteria and
// their counts), with the runtime's own error, reason, limit and message,
// so a question the runtime would fail never goes upstream and a request
// none of whose questions is left gets the runtime's 400 without a call.
// A deployment without a card, or whose schema checks what it carries
// (systemone/0.2: zero-shot, presets expanded), is left to its checks.
func failUnasked(x *engine.Exchange, d *routerconfig.Deployment) *ir.ErrorBody {
	if _, carries := d.Codec.(tc.CarryChecker); d.Card == nil || carries {
		return nil
	}
	req := &x.Batch.Items[0].Request
	return failAlone(x, func(q *ir.Question) (listener.QuestionFailure, bool) {
		p, f := modelcheck.Asked(d.Card, req, q)
		if f == nil {
			return listener.QuestionFailure{}, false
		}
		return listener.QuestionFailure{Type: cmp.Or(q.Type, p.Type), Error: f.Code, Reason: string(f.Reason), Message: f.Message, Limit: f.Limit}, true
	})
}

// failAlone fails on their own the questions of a /v1/decisions exchange
// that fail says fail (its failure's index and name are filled in, and
// its type when it gives none), adds them to the client request's
// question failures in request order, and leaves them out of what is
// planned. When no question is left it returns the refusal that answers
// the request, as vllm-srun's.
func failAlone(x *engine.Exchange, fail func(q *ir.Question) (listener.QuestionFailure, bool)) *ir.ErrorBody {
	cr := x.Client
	questions := x.Batch.Items[0].Request.Questions // a /v1/decisions request's items share its questions
	indexes := clientIndexes(len(questions), cr.QuestionFailures)
	failures := slices.Clone(cr.QuestionFailures)
	failed := map[string]bool{}
	for i := range questions {
		q := &questions[i]
		f, fails := fail(q)
		if !fails {
			continue
		}
		f.Index, f.Name = indexes[i], q.Name
		if f.Type == "" {
			f.Type = questionType(q)
		}
		failures = append(failures, f)
		failed[q.Name] = true
	}
	if len(failed) == 0 {
		return nil
	}
	slices.SortStableFunc(failures, func(a, b listener.QuestionFailure) int { return a.Index - b.Index })
	cr.QuestionFailures = failures
	if x.DropQuestions(func(q *ir.Question) bool { return failed[q.Name] }) == 0 {
		return listener.NoValidQuestion(listener.Outcome{Response: &ir.Response{}}, failures)
	}
	return nil
}

// uncarriedByQuestion sorts m into what each question needs, by name, and
// the request's media; the paths are unbatched, from the request's root.
func uncarriedByQuestion(m []tc.Missing) (byQuestion map[string][]tc.Missing, media []tc.Missing) {
	byQuestion = map[string][]tc.Missing{}
	for _, x := range unbatched(m, true) {
		switch {
		case len(x.Path) >= 2 && x.Path[0].Name == vocab.RequestQuestions:
			byQuestion[x.Path[1].Name] = append(byQuestion[x.Path[1].Name], x)
		case len(x.Path) >= 2 && x.Path[0].Name == vocab.RequestAssets:
			media = append(media, x)
		}
	}
	return byQuestion, media
}

// clientIndexes are the positions, in the request as the client sent it,
// of the n questions left after the read's failures (at their own
// indexes) were taken out.
func clientIndexes(n int, failures []listener.QuestionFailure) []int {
	taken := map[int]bool{}
	for i := range failures {
		taken[failures[i].Index] = true
	}
	out := make([]int, 0, n)
	for p := 0; len(out) < n; p++ {
		if !taken[p] {
			out = append(out, p)
		}
	}
	return out
}

// questionReason is the reason word of what q needs, by the member it is
// missing at.
func questionReason(q *ir.Question, m tc.Missing) string {
	switch m.Path[len(m.Path)-1].Name {
	case vocab.QuestionType:
		return vocab.ReasonQuestionTypeNotAnswered
	case vocab.QuestionPreset:
		if q.Preset == nil {
			return vocab.ReasonPresetNotAnswered
		}
		if _, known := catalog.Preset(*q.Preset); known {
			return vocab.ReasonPresetTypeMismatch
		}
		return vocab.ReasonPresetNotAnswered
	}
	return vocab.ReasonNotCarried
}

// firstMedium is the type of the first asset media names, "" for none.
func firstMedium(media []tc.Missing, assets []ir.Asset) ir.AssetType {
	for _, m := range media {
		for i := range assets {
			if assets[i].Placeholder == m.Path[1].Name {
				return assets[i].Type
			}
		}
	}
	return ""
}

func notRead(t ir.AssetType) string {
	if t == ir.AssetVideo {
		return vocab.ReasonVideoNotRead
	}
	return vocab.ReasonImageNotRead
}

// uncarriedLine is the CarryError's line for m: the deployment, and what
// it cannot carry where, names cut.
func uncarriedLine(d *routerconfig.Deployment, m []tc.Missing) string {
	return (&tc.CarryError{Deployment: d.Name, Schema: string(d.Schema), Missing: m}).Error()
}
