package internalwire

import (
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
)

// responseExtension binds one vllm-sr/5.0 response member: write writes
// it under name when r holds it (false for a number JSON cannot carry),
// read reads its value (found at at) into r. The writer is passed and
// returned by value, so that writing allocates nothing but bytes.
type responseExtension struct {
	name  string
	write func(o jsonvalue.ObjectWriter, name string, r *ir.Response) (jsonvalue.ObjectWriter, bool)
	read  func(v jsonvalue.Value, at ir.Path, r *ir.Response) error
}

// responseExtensions are in the order every writer writes them. Each
// keyed member is an object of question name to the question's value.
var responseExtensions = [...]responseExtension{
	{vocab.ResponseSpans, func(o jsonvalue.ObjectWriter, name string, r *ir.Response) (jsonvalue.ObjectWriter, bool) {
		return appendKeyed(o, name, r.Spans, func(s *ir.QuestionSpans) string { return s.Question }, appendSpans)
	}, func(v jsonvalue.Value, at ir.Path, r *ir.Response) (err error) {
		r.Spans, err = readKeyed(v, at, readSpans)
		return err
	}},
	{vocab.ResponseSets, func(o jsonvalue.ObjectWriter, name string, r *ir.Response) (jsonvalue.ObjectWriter, bool) {
		return appendKeyed(o, name, r.Sets, func(s *ir.QuestionSet) string { return s.Question }, appendSet)
	}, func(v jsonvalue.Value, at ir.Path, r *ir.Response) (err error) {
		r.Sets, err = readKeyed(v, at, readSet)
		return err
	}},
	{vocab.ResponseThresholds, func(o jsonvalue.ObjectWriter, name string, r *ir.Response) (jsonvalue.ObjectWriter, bool) {
		return appendKeyed(o, name, r.Thresholds, func(t *ir.QuestionThreshold) string { return t.Question },
			func(dst []byte, t *ir.QuestionThreshold) ([]byte, bool) {
				finite := true
				return appendFloat(dst, t.Threshold, &finite), finite
			})
	}, func(v jsonvalue.Value, at ir.Path, r *ir.Response) (err error) {
		r.Thresholds, err = readKeyed(v, at, func(q string, x jsonvalue.Value, at ir.Path) (ir.QuestionThreshold, error) {
			f, ok := x.Float()
			if !ok || !unitInterval(f) {
				return ir.QuestionThreshold{}, malformed(at, "a threshold is a number from 0 to 1")
			}
			return ir.QuestionThreshold{Question: q, Threshold: f}, nil
		})
		return err
	}},
	{vocab.ResponseSpanHeads, func(o jsonvalue.ObjectWriter, name string, r *ir.Response) (jsonvalue.ObjectWriter, bool) {
		return appendKeyed(o, name, r.SpanHeads, func(h *ir.QuestionSpanHead) string { return h.Question },
			func(dst []byte, h *ir.QuestionSpanHead) ([]byte, bool) {
				return jsonvalue.AppendString(dst, string(h.Head)), true
			})
	}, func(v jsonvalue.Value, at ir.Path, r *ir.Response) (err error) {
		r.SpanHeads, err = readKeyed(v, at, func(q string, x jsonvalue.Value, at ir.Path) (ir.QuestionSpanHead, error) {
			head := ir.SpanHead(x.Str())
			if x.Kind() != jsonvalue.KindString || !head.Valid() {
				return ir.QuestionSpanHead{}, malformed(at, "a span head is router or broad")
			}
			return ir.QuestionSpanHead{Question: q, Head: head}, nil
		})
		return err
	}},
	{vocab.ResponseMeta, func(o jsonvalue.ObjectWriter, name string, r *ir.Response) (jsonvalue.ObjectWriter, bool) {
		return appendContent(o, name, r.Meta), true
	}, func(v jsonvalue.Value, _ ir.Path, r *ir.Response) error {
		r.Meta = v
		return nil
	}},
	{vocab.ResponseRouting, func(o jsonvalue.ObjectWriter, name string, r *ir.Response) (jsonvalue.ObjectWriter, bool) {
		return appendContent(o, name, r.Routing), true
	}, func(v jsonvalue.Value, _ ir.Path, r *ir.Response) error {
		r.Routing = v
		return nil
	}},
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

// readKeyed reads an object of question name to value, each by one (given
// the value's path), in order.
func readKeyed[T any](v jsonvalue.Value, at ir.Path, one func(q string, x jsonvalue.Value, at ir.Path) (T, error)) ([]T, error) {
	if v.Kind() != jsonvalue.KindObject {
		return nil, malformed(at, "an object keyed by question name")
	}
	out := make([]T, 0, v.Len())
	for _, m := range v.Members() {
		item, err := one(m.Name, m.Value, at.Key(m.Name))
		if err != nil {
			return nil, err
		}
		out = append(out, item)
	}
	return out, nil
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

func readSpans(q string, x jsonvalue.Value, at ir.Path) (ir.QuestionSpans, error) {
	if x.Kind() != jsonvalue.KindArray {
		return ir.QuestionSpans{}, malformed(at, "a question's spans are an array")
	}
	qs := ir.QuestionSpans{Question: q, Spans: make([]ir.Span, 0, x.Len())}
	for i, item := range x.Items() {
		span, ok := readSpan(item)
		if !ok {
			return qs, malformed(at.At(i), "a span has a label, text, start and end (0 <= start <= end) and a probability from 0 to 1")
		}
		qs.Spans = append(qs.Spans, span)
	}
	return qs, nil
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

func appendSet(dst []byte, s *ir.QuestionSet) ([]byte, bool) {
	finite := true
	o := jsonvalue.OpenObject(dst)
	o.Name(vocab.SetResultSelected)
	o.Dst = appendStrings(o.Dst, s.Selected)
	o.Name(vocab.SetResultProbabilities)
	o.Dst = appendProbabilities(o.Dst, s.Probabilities, &finite)
	return o.Close(), finite
}

func readSet(q string, x jsonvalue.Value, at ir.Path) (ir.QuestionSet, error) {
	sel, ok1 := x.Get(vocab.SetResultSelected)
	probs, ok2 := x.Get(vocab.SetResultProbabilities)
	if !ok1 || !ok2 || sel.Kind() != jsonvalue.KindArray {
		return ir.QuestionSet{}, malformed(at, "a set result has selected labels and probabilities")
	}
	qs := ir.QuestionSet{Question: q, Selected: make([]string, 0, sel.Len())}
	for i, label := range sel.Items() {
		if label.Kind() != jsonvalue.KindString {
			return qs, malformed(at.Key(vocab.SetResultSelected).At(i), "a selected label is a string")
		}
		qs.Selected = append(qs.Selected, label.Str())
	}
	ps, ok := probabilityList(probs)
	for _, p := range ps {
		ok = ok && unitInterval(p.P)
	}
	if !ok {
		return qs, malformed(at.Key(vocab.SetResultProbabilities), "probabilities are an object of numbers from 0 to 1")
	}
	qs.Probabilities = ps
	return qs, nil
}

// unitInterval reports 0 <= f <= 1 (false for NaN).
func unitInterval(f float64) bool { return f >= 0 && f <= 1 }
