package modelcheck

import (
	"slices"

	"github.com/vllm-sr/systemone/generated/catalog"
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/table"
)

// Plan is how a model answers one question that passed every check.
type Plan struct {
	// Type is the question type answered: the question's, or its preset's
	// when the question names none.
	Type table.QuestionType
	// Criteria are the question's, or the preset's canonical criteria when
	// the question carries none.
	Criteria ir.Criteria
	// Preset names the trained head that answers; "" for a zero-shot
	// answer.
	Preset string
	// Input is what the model reads: truncated when it truncates.
	Input Input
	// QuestionText is the question as the model reads it.
	QuestionText string
	// InputTokens counts the parts read (all of them, when read in
	// windows), the media and the question.
	InputTokens int64
	// Windows: the model reads a long part in windows.
	Windows bool
	// Complete: every part the question reads is read completely.
	Complete bool
	// Threshold is the applied threshold of a set or span question.
	Threshold float64
	// Head is the span head of a span question.
	Head ir.SpanHead
	// Assets are the request's assets the question reads, in request
	// order.
	Assets []*ir.Asset
	// VideoSeconds is the duration of the video a track question reads.
	VideoSeconds float64
}

// Question checks one question of req against model: the question, then
// its input, then its length. It returns the plan, or the first failure.
func Question(model table.Model, req *ir.Request, q *ir.Question) (Plan, *Failure) {
	card := &model.Card
	p, f := Asked(card, req, q)
	if f != nil {
		return p, f
	}
	p.Input = ForQuestion(card.RoleAware, req, q, p.Type)
	p.QuestionText = QuestionText(q, p.Criteria)
	if f := checkInput(card, req, q, &p); f != nil {
		return p, f
	}
	return p, checkLength(card, req, q, &p)
}

// Asked checks the question itself against card, what the card alone
// decides: its type and preset, its extension fields, its criteria and
// their counts; not what it reads (its input and length). It is the first
// part of Question, and what a server that holds only the card (the
// Router, at load and before a call) can check the same way.
func Asked(card *table.Card, req *ir.Request, q *ir.Question) (Plan, *Failure) {
	p := Plan{Type: q.Type, Criteria: q.Criteria}
	if f := resolvePreset(card, q, &p); f != nil {
		return p, f
	}
	if !card.Answers(p.Type) {
		return p, Fail(vocab.ReasonQuestionTypeNotAnswered)
	}
	if f := checkFields(card, req, q, &p); f != nil {
		return p, f
	}
	return p, checkCriteria(card, p.Type, p.Criteria)
}

// resolvePreset finds the trained head: a preset the card lists, whose
// type the question's must be. A question without a type takes the
// preset's, and one without criteria takes its canonical criteria.
func resolvePreset(card *table.Card, q *ir.Question, p *Plan) *Failure {
	if q.Preset == nil {
		if q.Type == "" {
			return Fail(vocab.ReasonMissingType)
		}
		return nil
	}
	cp, ok := card.Preset(*q.Preset)
	if !ok {
		if q.Type == "" {
			return Fail(vocab.ReasonMissingType)
		}
		return Fail(vocab.ReasonPresetNotAnswered)
	}
	if q.Type != "" && q.Type != cp.Type {
		return Fail(vocab.ReasonPresetTypeMismatch)
	}
	p.Type, p.Preset = cp.Type, cp.Name
	if !q.Criteria.Present() {
		if canonical, ok := catalog.Preset(cp.Name); ok {
			p.Criteria = PresetCriteria(&canonical)
		}
	}
	return nil
}

// checkFields checks the extension fields against the card, and sets the
// applied threshold and span head.
func checkFields(card *table.Card, req *ir.Request, q *ir.Question, p *Plan) *Failure {
	t := p.Type
	switch {
	case q.Head != nil && (t != table.QuestionSpan || !card.HasSpanHead(string(*q.Head))):
		return Fail(vocab.ReasonSpanHeadNotAnswered)
	case q.DecisionAdapter != nil && *q.DecisionAdapter &&
		(!card.DecisionAdapter || (t != table.QuestionChoice && t != table.QuestionNoul && t != table.QuestionScore)):
		return Fail(vocab.ReasonDecisionAdapterNotAnswered)
	case q.Overflow != nil && card.Limits.ScanBudget == 0:
		return Fail(vocab.ReasonOverflowNotAnswered)
	case q.Threshold != nil && t != table.QuestionSet && t != table.QuestionSpan:
		return Fail(vocab.ReasonThresholdNotAnswered)
	case q.Threshold != nil && (*q.Threshold < 0 || *q.Threshold > 1):
		return Fail(vocab.ReasonThresholdOutOfRange)
	case q.At != nil && (t != table.QuestionBox || !card.Reads(table.ModalityVideo)):
		return Fail(vocab.ReasonAtNotAnswered)
	case q.Rate != nil && (t != table.QuestionTrack || !slices.Contains(card.TrackRates, *q.Rate)):
		return Fail(vocab.ReasonRateNotAnswered)
	}
	if f := checkOver(card, req, q, p); f != nil {
		return f
	}
	switch t {
	case table.QuestionSet:
		p.Threshold = card.SetThreshold
	case table.QuestionSpan:
		p.Threshold, p.Head = card.SpanThreshold, ir.SpanHeadRouter
		if q.Head != nil {
			p.Head = *q.Head
		}
	}
	if q.Threshold != nil {
		p.Threshold = *q.Threshold
	}
	return nil
}

// checkOver: over only where the card answers it, only on an object state,
// naming only keys the state has.
func checkOver(card *table.Card, req *ir.Request, q *ir.Question, p *Plan) *Failure {
	if q.Over == nil {
		return nil
	}
	switch card.Over {
	case table.OverAny:
	case table.OverSpansAndPresets:
		if p.Type != table.QuestionSpan && p.Preset == "" {
			return Fail(vocab.ReasonOverNotAnswered)
		}
	default:
		return Fail(vocab.ReasonOverNotAnswered)
	}
	if req.State.Kind() != jsonvalue.KindObject {
		return Fail(vocab.ReasonOverNeedsObjectState)
	}
	for _, key := range q.Over {
		if _, ok := req.State.Get(key); !ok {
			return Fail(vocab.ReasonOverUnknownKey)
		}
	}
	return nil
}

// checkCriteria: each type's criteria form, with counts in the card's
// ranges.
func checkCriteria(card *table.Card, t table.QuestionType, c ir.Criteria) *Failure {
	switch t {
	case table.QuestionNoul:
		for _, m := range c.Keyed {
			if m.Name != vocab.NoulCriteriaTrue && m.Name != vocab.NoulCriteriaFalse {
				return Fail(vocab.ReasonBadNoulCriteria)
			}
		}
		if c.Form == ir.CriteriaLevels {
			return Fail(vocab.ReasonBadNoulCriteria)
		}
		return nil
	case table.QuestionBox, table.QuestionTrack:
		if c.Present() && c.Form != ir.CriteriaNull {
			return Fail(vocab.ReasonCriteriaNotAllowed)
		}
		return nil
	}
	want, n := ir.CriteriaKeyed, len(c.Keyed)
	few, many := Reason(vocab.ReasonTooFewOptions), Reason(vocab.ReasonTooManyOptions)
	switch t {
	case table.QuestionScore:
		want, n = ir.CriteriaLevels, len(c.Levels)
		few, many = vocab.ReasonTooFewLevels, vocab.ReasonTooManyLevels
	case table.QuestionSet, table.QuestionSpan:
		few, many = vocab.ReasonTooFewLabels, vocab.ReasonTooManyLabels
	}
	if c.Form != want {
		return Fail(vocab.ReasonMissingCriteria)
	}
	r, _ := card.Limits.Range(t)
	switch {
	case n < r.Min:
		return FailLimit(few, int64(r.Min))
	case n > r.Max:
		return FailLimit(many, int64(r.Max))
	}
	return nil
}
