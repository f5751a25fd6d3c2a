package internalwire

import (
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
)

// responseExtension binds one vllm-sr/5.0 response member: write writes
// it under name when r holds it (false for a number JSON cannot carry),
// read reads its checked value into r, or returns the path (inside the
// member) of what the check cannot know to be wrong, and invalid says
// what that is. The writer is passed and returned by value, so that
// writing allocates nothing but bytes.
type responseExtension struct {
	name    string
	write   func(o jsonvalue.ObjectWriter, name string, r *ir.Response) (jsonvalue.ObjectWriter, bool)
	read    func(v jsonvalue.Value, r *ir.Response) (bad ir.Path, ok bool)
	invalid string
}

// responseExtensions are in the order every writer writes them. Each
// keyed member is an object of question name to the question's value.
var responseExtensions = [...]responseExtension{
	{vocab.ResponseSpans, func(o jsonvalue.ObjectWriter, name string, r *ir.Response) (jsonvalue.ObjectWriter, bool) {
		return appendKeyed(o, name, r.Spans, func(s *ir.QuestionSpans) string { return s.Question }, appendSpans)
	}, readSpans, "a span starts at or before its end"},
	{vocab.ResponseSets, func(o jsonvalue.ObjectWriter, name string, r *ir.Response) (jsonvalue.ObjectWriter, bool) {
		return appendKeyed(o, name, r.Sets, func(s *ir.QuestionSet) string { return s.Question }, appendSet)
	}, func(v jsonvalue.Value, r *ir.Response) (ir.Path, bool) {
		r.Sets = readKeyed(v, readSet)
		return nil, true
	}, ""},
	{vocab.ResponseThresholds, func(o jsonvalue.ObjectWriter, name string, r *ir.Response) (jsonvalue.ObjectWriter, bool) {
		return appendKeyed(o, name, r.Thresholds, func(t *ir.QuestionThreshold) string { return t.Question },
			func(dst []byte, t *ir.QuestionThreshold) ([]byte, bool) {
				finite := true
				return appendFloat(dst, t.Threshold, &finite), finite
			})
	}, func(v jsonvalue.Value, r *ir.Response) (ir.Path, bool) {
		r.Thresholds = readKeyed(v, func(q string, x jsonvalue.Value) ir.QuestionThreshold {
			f, _ := x.Float()
			return ir.QuestionThreshold{Question: q, Threshold: f}
		})
		return nil, true
	}, ""},
	{vocab.ResponseSpanHeads, func(o jsonvalue.ObjectWriter, name string, r *ir.Response) (jsonvalue.ObjectWriter, bool) {
		return appendKeyed(o, name, r.SpanHeads, func(h *ir.QuestionSpanHead) string { return h.Question },
			func(dst []byte, h *ir.QuestionSpanHead) ([]byte, bool) {
				return jsonvalue.AppendString(dst, string(h.Head)), true
			})
	}, func(v jsonvalue.Value, r *ir.Response) (ir.Path, bool) {
		r.SpanHeads = readKeyed(v, func(q string, x jsonvalue.Value) ir.QuestionSpanHead {
			return ir.QuestionSpanHead{Question: q, Head: ir.SpanHead(x.Str())}
		})
		return nil, true
	}, ""},
	{vocab.ResponseMeta, func(o jsonvalue.ObjectWriter, name string, r *ir.Response) (jsonvalue.ObjectWriter, bool) {
		return appendContent(o, name, r.Meta), true
	}, func(v jsonvalue.Value, r *ir.Response) (ir.Path, bool) {
		r.Meta = v
		return nil, true
	}, ""},
	{vocab.ResponseRouting, func(o jsonvalue.ObjectWriter, name string, r *ir.Response) (jsonvalue.ObjectWriter, bool) {
		return appendContent(o, name, r.Routing), true
	}, func(v jsonvalue.Value, r *ir.Response) (ir.Path, bool) {
		r.Routing = v
		return nil, true
	}, ""},
}

// appendKeyed writes name: {key(item): value(item), ...} unless items is
// nil; false when a value held a number JSON cannot carry.
func appendKeyed[T any](o jsonvalue.ObjectWriter, name string, items []T, key func(*T) string, value func([]byte, *T) ([]byte, bool)) (jsonvalue.ObjectWriter, bool) {
	finite := true
	if items == nil {
		return o, finite
	}
	o.Name(name)
	keyed := jsonvalue.OpenObject(o.Dst)
	for i := range items {
		keyed.Name(key(&items[i]))
		var ok bool
		keyed.Dst, ok = value(keyed.Dst, &items[i])
		finite = finite && ok
	}
	o.Dst = keyed.Close()
	return o, finite
}

// appendContent writes name: v unless v is absent.
func appendContent(o jsonvalue.ObjectWriter, name string, v jsonvalue.Value) jsonvalue.ObjectWriter {
	if v.IsValid() {
		o.Name(name)
		o.Dst = jsonvalue.AppendCompact(o.Dst, v)
	}
	return o
}

// readKeyed reads a checked object of question name to value, each by
// one, in order.
func readKeyed[T any](v jsonvalue.Value, one func(q string, x jsonvalue.Value) T) []T {
	out := make([]T, 0, v.Len())
	for _, m := range v.Members() {
		out = append(out, one(m.Name, m.Value))
	}
	return out
}

func appendSpans(dst []byte, qs *ir.QuestionSpans) ([]byte, bool) {
	finite := true
	dst = appendJoined(dst, "[]", qs.Spans, func(dst []byte, s *ir.Span) []byte {
		o := jsonvalue.OpenObject(dst)
		o.Name(vocab.SpanItemLabel)
		o.Dst = jsonvalue.AppendString(o.Dst, s.Label)
		o.Name(vocab.SpanItemStart)
		o.Dst = appendInt(o.Dst, s.Start)
		o.Name(vocab.SpanItemEnd)
		o.Dst = appendInt(o.Dst, s.End)
		o.Name(vocab.SpanItemText)
		o.Dst = jsonvalue.AppendString(o.Dst, s.Text)
		o.Name(vocab.SpanItemProbability)
		o.Dst = appendFloat(o.Dst, s.Probability, &finite)
		return o.Close()
	})
	return dst, finite
}

// readSpans reads a checked object of span question name to spans. A
// span's start after its end is the one thing the check cannot know (the
// specification bounds each alone); bad locates it.
func readSpans(v jsonvalue.Value, r *ir.Response) (bad ir.Path, ok bool) {
	r.Spans = make([]ir.QuestionSpans, 0, v.Len())
	for _, m := range v.Members() {
		qs := ir.QuestionSpans{Question: m.Name, Spans: make([]ir.Span, 0, m.Value.Len())}
		for i, item := range m.Value.Items() {
			span := readSpan(item)
			if span.Start > span.End {
				return ir.Path{{Name: m.Name}, {Index: i, IsIndex: true}}, false
			}
			qs.Spans = append(qs.Spans, span)
		}
		r.Spans = append(r.Spans, qs)
	}
	return nil, true
}

func readSpan(v jsonvalue.Value) ir.Span {
	var s ir.Span
	label, _ := v.Get(vocab.SpanItemLabel)
	text, _ := v.Get(vocab.SpanItemText)
	start, _ := v.Get(vocab.SpanItemStart)
	end, _ := v.Get(vocab.SpanItemEnd)
	p, _ := v.Get(vocab.SpanItemProbability)
	s.Label, s.Text = label.Str(), text.Str()
	s.Start, _ = start.Int()
	s.End, _ = end.Int()
	s.Probability, _ = p.Float()
	return s
}

func appendSet(dst []byte, s *ir.QuestionSet) ([]byte, bool) {
	finite := true
	o := jsonvalue.OpenObject(dst)
	o.Name(vocab.SetResultSelected)
	o.Dst = appendStrings(o.Dst, s.Selected)
	o.Name(vocab.SetResultProbabilities)
	o.Dst = appendProbabilities(o.Dst, s.Probabilities, &finite)
	return o.Close(), finite
}

func readSet(q string, x jsonvalue.Value) ir.QuestionSet {
	sel, _ := x.Get(vocab.SetResultSelected)
	probs, _ := x.Get(vocab.SetResultProbabilities)
	qs := ir.QuestionSet{Question: q, Selected: make([]string, 0, sel.Len()), Probabilities: probabilityList(probs)}
	for _, label := range sel.Items() {
		qs.Selected = append(qs.Selected, label.Str())
	}
	return qs
}
