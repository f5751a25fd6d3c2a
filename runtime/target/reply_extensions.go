package target

import (
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
)

// readExtensions reads the vllm-sr/5.0 response members: spans, sets,
// thresholds, span_heads, meta and routing.
func readExtensions(v jsonvalue.Value, at ir.Path, r *ir.Response) error {
	if s, ok := v.Get(vocab.ResponseSpans); ok {
		spans, err := readSpans(s, at.Key(vocab.ResponseSpans))
		if err != nil {
			return err
		}
		r.Spans = spans
	}
	if s, ok := v.Get(vocab.ResponseSets); ok {
		sets, err := readSets(s, at.Key(vocab.ResponseSets))
		if err != nil {
			return err
		}
		r.Sets = sets
	}
	if t, ok := v.Get(vocab.ResponseThresholds); ok {
		if t.Kind() != jsonvalue.KindObject {
			return malformed(at.Key(vocab.ResponseThresholds), "thresholds is an object of numbers")
		}
		r.Thresholds = make([]ir.QuestionThreshold, 0, t.Len())
		for _, m := range t.Members() {
			f, ok := m.Value.Float()
			if !ok || !unitInterval(f) {
				return malformed(at.Key(vocab.ResponseThresholds).Key(m.Name), "a threshold is a number from 0 to 1")
			}
			r.Thresholds = append(r.Thresholds, ir.QuestionThreshold{Question: m.Name, Threshold: f})
		}
	}
	if h, ok := v.Get(vocab.ResponseSpanHeads); ok {
		if h.Kind() != jsonvalue.KindObject {
			return malformed(at.Key(vocab.ResponseSpanHeads), "span_heads is an object of span heads")
		}
		r.SpanHeads = make([]ir.QuestionSpanHead, 0, h.Len())
		for _, m := range h.Members() {
			head := ir.SpanHead(m.Value.Str())
			if m.Value.Kind() != jsonvalue.KindString || !head.Valid() {
				return malformed(at.Key(vocab.ResponseSpanHeads).Key(m.Name), "a span head is router or broad")
			}
			r.SpanHeads = append(r.SpanHeads, ir.QuestionSpanHead{Question: m.Name, Head: head})
		}
	}
	if m, ok := v.Get(vocab.ResponseMeta); ok {
		r.Meta = m
	}
	if m, ok := v.Get(vocab.ResponseRouting); ok {
		r.Routing = m
	}
	return nil
}

func readSpans(s jsonvalue.Value, at ir.Path) ([]ir.QuestionSpans, error) {
	if s.Kind() != jsonvalue.KindObject {
		return nil, malformed(at, "spans is an object of span lists")
	}
	out := make([]ir.QuestionSpans, 0, s.Len())
	for _, m := range s.Members() {
		if m.Value.Kind() != jsonvalue.KindArray {
			return nil, malformed(at.Key(m.Name), "a question's spans are an array")
		}
		qs := ir.QuestionSpans{Question: m.Name, Spans: make([]ir.Span, 0, m.Value.Len())}
		for i, item := range m.Value.Items() {
			span, ok := readSpan(item)
			if !ok {
				return nil, malformed(at.Key(m.Name).At(i), "a span has a label, text, start and end (0 <= start <= end) and a probability from 0 to 1")
			}
			qs.Spans = append(qs.Spans, span)
		}
		out = append(out, qs)
	}
	return out, nil
}

func readSpan(v jsonvalue.Value) (ir.Span, bool) {
	var s ir.Span
	label, ok1 := v.Get(vocab.SpanItemLabel)
	text, ok2 := v.Get(vocab.SpanItemText)
	start, ok3 := v.Get(vocab.SpanItemStart)
	end, ok4 := v.Get(vocab.SpanItemEnd)
	p, ok5 := v.Get(vocab.SpanItemProbability)
	if !(ok1 && ok2 && ok3 && ok4 && ok5) || label.Kind() != jsonvalue.KindString || text.Kind() != jsonvalue.KindString {
		return s, false
	}
	var isInt1, isInt2, isNum bool
	s.Label, s.Text = label.Str(), text.Str()
	s.Start, isInt1 = start.Int()
	s.End, isInt2 = end.Int()
	s.Probability, isNum = p.Float()
	inRange := 0 <= s.Start && s.Start <= s.End && unitInterval(s.Probability)
	return s, isInt1 && isInt2 && isNum && inRange
}

func readSets(s jsonvalue.Value, at ir.Path) ([]ir.QuestionSet, error) {
	if s.Kind() != jsonvalue.KindObject {
		return nil, malformed(at, "sets is an object of set results")
	}
	out := make([]ir.QuestionSet, 0, s.Len())
	for _, m := range s.Members() {
		here := at.Key(m.Name)
		sel, ok1 := m.Value.Get(vocab.SetResultSelected)
		probs, ok2 := m.Value.Get(vocab.SetResultProbabilities)
		if !ok1 || !ok2 || sel.Kind() != jsonvalue.KindArray {
			return nil, malformed(here, "a set result has selected labels and probabilities")
		}
		qs := ir.QuestionSet{Question: m.Name, Selected: make([]string, 0, sel.Len())}
		for i, label := range sel.Items() {
			if label.Kind() != jsonvalue.KindString {
				return nil, malformed(here.Key(vocab.SetResultSelected).At(i), "a selected label is a string")
			}
			qs.Selected = append(qs.Selected, label.Str())
		}
		ps, ok := probabilityList(probs)
		if !ok || !allUnit(ps) {
			return nil, malformed(here.Key(vocab.SetResultProbabilities), "probabilities are an object of numbers from 0 to 1")
		}
		qs.Probabilities = ps
		out = append(out, qs)
	}
	return out, nil
}

func allUnit(ps []ir.Probability) bool {
	for _, p := range ps {
		if !unitInterval(p.P) {
			return false
		}
	}
	return true
}
