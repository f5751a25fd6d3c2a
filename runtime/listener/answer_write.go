package listener

import (
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
)

// answer writes one answer: its type, then every member the answer holds,
// in a fixed order (the standard's, then the extension's, then a failed
// question's error, reason and message).
func (w *writer) answer(a *ir.Answer) {
	w.dst = append(w.dst, '{')
	first := true
	next := func(name string) {
		w.key(name, first)
		first = false
	}
	if a.Type != "" {
		next(vocab.AnswerType)
		w.str(string(a.Type))
	}
	if a.Noul != nil {
		next(vocab.AnswerNoul)
		w.float(*a.Noul)
	}
	if a.Choice != nil {
		next(vocab.AnswerChoice)
		w.str(*a.Choice)
	}
	if a.Score != nil {
		next(vocab.AnswerScore)
		w.float(*a.Score)
	}
	if a.Box != nil {
		next(vocab.AnswerBox)
		w.box(a.Box)
	}
	if a.Track.IsValid() {
		next(vocab.AnswerTrack)
		w.content(a.Track)
	}
	if a.Probabilities != nil {
		next(vocab.AnswerProbabilities)
		w.probabilities(a.Probabilities)
	}
	if a.Confidence != nil {
		next(vocab.AnswerConfidence)
		w.float(*a.Confidence)
	}
	if a.Legend != nil {
		next(vocab.AnswerLegend)
		w.dst = append(w.dst, '{')
		for i := range a.Legend {
			w.key(a.Legend[i].Name, i == 0)
			w.content(a.Legend[i].Value)
		}
		w.dst = append(w.dst, '}')
	}
	if a.AbstainProbability != nil {
		next(vocab.AnswerAbstainProbability)
		w.float(*a.AbstainProbability)
	}
	if a.InputCoverage != "" {
		next(vocab.AnswerInputCoverage)
		w.str(string(a.InputCoverage))
	}
	if a.Error != "" {
		next(vocab.AnswerError)
		w.str(string(a.Error))
		next(vocab.AnswerReason)
		w.str(a.Reason)
		next(vocab.AnswerMessage)
		w.str(a.Message)
	}
	w.dst = append(w.dst, '}')
}

func (w *writer) box(b *ir.Box) {
	w.dst = append(w.dst, '{')
	w.key(vocab.BoxRegionTop, true)
	w.float(b.Top)
	w.key(vocab.BoxRegionBottom, false)
	w.float(b.Bottom)
	w.key(vocab.BoxRegionLeft, false)
	w.float(b.Left)
	w.key(vocab.BoxRegionRight, false)
	w.float(b.Right)
	w.dst = append(w.dst, '}')
}

func (w *writer) probabilities(ps []ir.Probability) {
	w.dst = append(w.dst, '{')
	for i := range ps {
		w.key(ps[i].Key, i == 0)
		w.float(ps[i].P)
	}
	w.dst = append(w.dst, '}')
}

// extensions writes the extension response members that are present:
// spans, sets, thresholds, span_heads, meta and routing.
func (w *writer) extensions(r *ir.Response) {
	if r.Spans != nil {
		w.key(vocab.ResponseSpans, false)
		w.dst = append(w.dst, '{')
		for i := range r.Spans {
			w.key(r.Spans[i].Question, i == 0)
			w.spans(r.Spans[i].Spans)
		}
		w.dst = append(w.dst, '}')
	}
	if r.Sets != nil {
		w.key(vocab.ResponseSets, false)
		w.dst = append(w.dst, '{')
		for i := range r.Sets {
			s := &r.Sets[i]
			w.key(s.Question, i == 0)
			w.dst = append(w.dst, '{')
			w.key(vocab.SetResultSelected, true)
			w.dst = append(w.dst, '[')
			for j, label := range s.Selected {
				if j > 0 {
					w.dst = append(w.dst, ',')
				}
				w.str(label)
			}
			w.dst = append(w.dst, ']')
			w.key(vocab.SetResultProbabilities, false)
			w.probabilities(s.Probabilities)
			w.dst = append(w.dst, '}')
		}
		w.dst = append(w.dst, '}')
	}
	if r.Thresholds != nil {
		w.key(vocab.ResponseThresholds, false)
		w.dst = append(w.dst, '{')
		for i := range r.Thresholds {
			w.key(r.Thresholds[i].Question, i == 0)
			w.float(r.Thresholds[i].Threshold)
		}
		w.dst = append(w.dst, '}')
	}
	if r.SpanHeads != nil {
		w.key(vocab.ResponseSpanHeads, false)
		w.dst = append(w.dst, '{')
		for i := range r.SpanHeads {
			w.key(r.SpanHeads[i].Question, i == 0)
			w.str(string(r.SpanHeads[i].Head))
		}
		w.dst = append(w.dst, '}')
	}
	if r.Meta.IsValid() {
		w.key(vocab.ResponseMeta, false)
		w.content(r.Meta)
	}
	if r.Routing.IsValid() {
		w.key(vocab.ResponseRouting, false)
		w.content(r.Routing)
	}
}

func (w *writer) spans(spans []ir.Span) {
	w.dst = append(w.dst, '[')
	for i := range spans {
		s := &spans[i]
		if i > 0 {
			w.dst = append(w.dst, ',')
		}
		w.dst = append(w.dst, '{')
		w.key(vocab.SpanItemLabel, true)
		w.str(s.Label)
		w.key(vocab.SpanItemStart, false)
		w.int(s.Start)
		w.key(vocab.SpanItemEnd, false)
		w.int(s.End)
		w.key(vocab.SpanItemText, false)
		w.str(s.Text)
		w.key(vocab.SpanItemProbability, false)
		w.float(s.Probability)
		w.dst = append(w.dst, '}')
	}
	w.dst = append(w.dst, ']')
}
