package listener

import (
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
		next("type")
		w.str(string(a.Type))
	}
	if a.Noul != nil {
		next("noul")
		w.float(*a.Noul)
	}
	if a.Choice != nil {
		next("choice")
		w.str(*a.Choice)
	}
	if a.Score != nil {
		next("score")
		w.float(*a.Score)
	}
	if a.Box != nil {
		next("box")
		w.box(a.Box)
	}
	if a.Track.IsValid() {
		next("track")
		w.content(a.Track)
	}
	if a.Probabilities != nil {
		next("probabilities")
		w.probabilities(a.Probabilities)
	}
	if a.Confidence != nil {
		next("confidence")
		w.float(*a.Confidence)
	}
	if a.Legend != nil {
		next("legend")
		w.dst = append(w.dst, '{')
		for i := range a.Legend {
			w.key(a.Legend[i].Name, i == 0)
			w.content(a.Legend[i].Value)
		}
		w.dst = append(w.dst, '}')
	}
	if a.AbstainProbability != nil {
		next("abstain_probability")
		w.float(*a.AbstainProbability)
	}
	if a.InputCoverage != "" {
		next("input_coverage")
		w.str(string(a.InputCoverage))
	}
	if a.Error != "" {
		next("error")
		w.str(string(a.Error))
		next("reason")
		w.str(a.Reason)
		next("message")
		w.str(a.Message)
	}
	w.dst = append(w.dst, '}')
}

func (w *writer) box(b *ir.Box) {
	w.dst = append(w.dst, `{"top":`...)
	w.float(b.Top)
	w.dst = append(w.dst, `,"bottom":`...)
	w.float(b.Bottom)
	w.dst = append(w.dst, `,"left":`...)
	w.float(b.Left)
	w.dst = append(w.dst, `,"right":`...)
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
		w.key("spans", false)
		w.dst = append(w.dst, '{')
		for i := range r.Spans {
			w.key(r.Spans[i].Question, i == 0)
			w.spans(r.Spans[i].Spans)
		}
		w.dst = append(w.dst, '}')
	}
	if r.Sets != nil {
		w.key("sets", false)
		w.dst = append(w.dst, '{')
		for i := range r.Sets {
			s := &r.Sets[i]
			w.key(s.Question, i == 0)
			w.dst = append(w.dst, `{"selected":[`...)
			for j, label := range s.Selected {
				if j > 0 {
					w.dst = append(w.dst, ',')
				}
				w.str(label)
			}
			w.dst = append(w.dst, `],"probabilities":`...)
			w.probabilities(s.Probabilities)
			w.dst = append(w.dst, '}')
		}
		w.dst = append(w.dst, '}')
	}
	if r.Thresholds != nil {
		w.key("thresholds", false)
		w.dst = append(w.dst, '{')
		for i := range r.Thresholds {
			w.key(r.Thresholds[i].Question, i == 0)
			w.float(r.Thresholds[i].Threshold)
		}
		w.dst = append(w.dst, '}')
	}
	if r.SpanHeads != nil {
		w.key("span_heads", false)
		w.dst = append(w.dst, '{')
		for i := range r.SpanHeads {
			w.key(r.SpanHeads[i].Question, i == 0)
			w.str(string(r.SpanHeads[i].Head))
		}
		w.dst = append(w.dst, '}')
	}
	if r.Meta.IsValid() {
		w.key("meta", false)
		w.content(r.Meta)
	}
	if r.Routing.IsValid() {
		w.key("routing", false)
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
		w.dst = append(w.dst, `{"label":`...)
		w.str(s.Label)
		w.dst = append(w.dst, `,"start":`...)
		w.int(s.Start)
		w.dst = append(w.dst, `,"end":`...)
		w.int(s.End)
		w.dst = append(w.dst, `,"text":`...)
		w.str(s.Text)
		w.dst = append(w.dst, `,"probability":`...)
		w.float(s.Probability)
		w.dst = append(w.dst, '}')
	}
	w.dst = append(w.dst, ']')
}
