package shapes

import (
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/table"
)

// The vllm-sr/5.0 response members (spans, sets, thresholds, span_heads,
// meta, routing) and the objects inside them (span_item, set_result),
// each written and read by the function the generated dispatch names for
// it. Each keyed member is an object of question name to the question's
// value, written only when the response holds it.

func (w AnswerWriter) writeResponseSpans(o *replyObject, s *responseWrite) {
	writeKeyed(o, vocab.ResponseSpans, s.r.Spans, func(q *ir.QuestionSpans) string { return q.Question },
		func(dst []byte, q *ir.QuestionSpans) []byte {
			return appendJoined(dst, "[]", q.Spans, func(dst []byte, sp *ir.Span) []byte { return w.appendSpan(dst, sp, &o.finite) })
		})
}

func (w AnswerWriter) writeResponseSets(o *replyObject, s *responseWrite) {
	writeKeyed(o, vocab.ResponseSets, s.r.Sets, func(q *ir.QuestionSet) string { return q.Question },
		func(dst []byte, q *ir.QuestionSet) []byte { return w.appendSet(dst, q, &o.finite) })
}

// writeKeyed writes name: {key(item): value(item), ...} unless items is
// nil.
func writeKeyed[T any](o *replyObject, name string, items []T, key func(*T) string, value func([]byte, *T) []byte) {
	if items == nil {
		return
	}
	o.Name(name)
	keyed := jsonvalue.OpenObject(o.Dst)
	for i := range items {
		keyed.Name(key(&items[i]))
		keyed.Dst = value(keyed.Dst, &items[i])
	}
	o.Dst = keyed.Close()
}

// readResponseSpans reads a checked object of span question name to
// spans. A span's start after its end is the one thing the check cannot
// know (the specification bounds each alone): a *ir.ProtocolError naming
// the span.
func (s *responseRead) readResponseSpans(m *jsonvalue.Member) error {
	r := &s.read.response
	r.Spans = make([]ir.QuestionSpans, 0, m.Value.Len())
	for _, q := range m.Value.Members() {
		qs := ir.QuestionSpans{Question: q.Name, Spans: make([]ir.Span, 0, q.Value.Len())}
		for i, item := range q.Value.Items() {
			sr := spanItemRead{defined: s.rs.spanItem}
			_, _ = readSpanItemMembers(&sr, item.Members())
			span := sr.sp
			span.Extra = sr.extra
			if span.Start > span.End {
				return ir.Refuse(ir.ReasonOutOfRange, responsePath(s.item).Key(vocab.ResponseSpans).Key(q.Name).At(i),
					"a span starts at or before its end")
			}
			qs.Spans = append(qs.Spans, span)
		}
		r.Spans = append(r.Spans, qs)
	}
	return nil
}

func (s *responseRead) readResponseSets(m *jsonvalue.Member) error {
	s.read.response.Sets = readKeyed(m.Value, func(q string, x jsonvalue.Value) ir.QuestionSet {
		sr := setResultRead{set: ir.QuestionSet{Question: q}, defined: s.rs.setResult}
		_, _ = readSetResultMembers(&sr, x.Members())
		sr.set.Extra = sr.extra
		return sr.set
	})
	return nil
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

// spanItemWrite is the state of writing one span.
type spanItemWrite struct{ sp *ir.Span }

func (w AnswerWriter) appendSpan(dst []byte, sp *ir.Span, finite *bool) []byte {
	o := w.object(dst, table.LevelSpanItem, sp.Extra)
	s := spanItemWrite{sp: sp}
	o.each(spanItemSlots, func(slot int) { w.writeSpanItemSlot(&o, &s, slot) })
	return o.close(finite)
}

// spanItemRead is the state of reading one checked span, which it holds
// (not a pointer to the caller's, which would then live on the heap).
type spanItemRead struct {
	sp      ir.Span
	defined uint64
	extra   []jsonvalue.Member
}

func (s *spanItemRead) takes(slot int) bool { return s.defined&(1<<slot) != 0 }

// setResultWrite is the state of writing one set question's result.
type setResultWrite struct{ set *ir.QuestionSet }

func (w AnswerWriter) appendSet(dst []byte, set *ir.QuestionSet, finite *bool) []byte {
	o := w.object(dst, table.LevelSetResult, set.Extra)
	s := setResultWrite{set: set}
	o.each(setResultSlots, func(slot int) { w.writeSetResultSlot(&o, &s, slot) })
	return o.close(finite)
}

// setResultRead is the state of reading one checked set result, which it
// holds, as spanItemRead does.
type setResultRead struct {
	set     ir.QuestionSet
	defined uint64
	extra   []jsonvalue.Member
}

func (s *setResultRead) takes(slot int) bool { return s.defined&(1<<slot) != 0 }
