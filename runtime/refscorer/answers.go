package refscorer

import (
	"strconv"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/distribution"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/modelcheck"
	"github.com/vllm-sr/systemone/runtime/table"
)

// logitScale spreads the hash draws over logits in [−scale, scale).
const logitScale = 3.0

// distribution draws one logit per key and returns the rounded softmax:
// probabilities of whole units that sum to exactly 1.
func (s seed) distribution(keys []string) []float64 {
	logits := make([]float64, len(keys))
	for i, k := range keys {
		logits[i] = logitScale * (2*s.uniform(drawOption, k) - 1)
	}
	return distribution.Rounded(distribution.Softmax(logits))
}

func probabilities(keys []string, p []float64) []ir.Probability {
	out := make([]ir.Probability, len(keys))
	for i, k := range keys {
		out[i] = ir.Probability{Key: k, P: p[i]}
	}
	return out
}

// choice: the most probable option, every option's probability and the
// standard's confidence, computed from the rounded probabilities so a
// client can check it.
func choice(s seed, plan *modelcheck.Plan, a *ir.Answer) {
	keys := keyedNames(plan.Criteria)
	p := s.distribution(keys)
	a.Choice = new(keys[distribution.Argmax(p)])
	a.Probabilities = probabilities(keys, p)
	a.Confidence = new(distribution.Round4(distribution.ChoiceConfidence(p)))
}

// noul: P(yes) from a two-way softmax of the noul's criteria keys, true
// and false.
func noul(s seed, a *ir.Answer) {
	p := s.distribution([]string{vocab.NoulCriteriaTrue, vocab.NoulCriteriaFalse})
	a.Noul = new(p[0])
}

// score: the expected level Σ index·p, every level's probability under its
// index, the standard's confidence, and the levels echoed as the legend.
func score(s seed, plan *modelcheck.Plan, a *ir.Answer) {
	keys := make([]string, len(plan.Criteria.Levels))
	for i := range keys {
		keys[i] = strconv.Itoa(i)
	}
	p := s.distribution(keys)
	a.Score = new(distribution.Round4(distribution.ExpectedLevel(p)))
	a.Probabilities = probabilities(keys, p)
	a.Confidence = new(distribution.Round4(distribution.ScoreConfidence(p)))
	for i, l := range plan.Criteria.Levels {
		a.Legend = append(a.Legend, jsonvalue.Member{Name: keys[i], Value: l})
	}
}

// abstain adds the abstain probability of a card that reports one.
func abstain(s seed, card *table.Card, a *ir.Answer) {
	if card.Abstain && (a.Type == table.QuestionChoice || a.Type == table.QuestionNoul) {
		a.AbstainProbability = new(distribution.Round4(0.2 * s.uniform(drawAbstain)))
	}
}

// drawBox is a box with 0.05 ≤ top < bottom ≤ 0.95 and the same for left
// and right, each edge pair at least 0.1 apart, so the order survives
// rounding.
func drawBox(s seed, labels ...string) ir.Box {
	edge := func(name string) (float64, float64) {
		lo := 0.05 + 0.5*s.uniform(with(labels, name, "lo")...)
		hi := lo + 0.1 + (0.95-lo-0.1)*s.uniform(with(labels, name, "hi")...)
		return distribution.Round4(lo), distribution.Round4(hi)
	}
	var b ir.Box
	b.Top, b.Bottom = edge("vertical")
	b.Left, b.Right = edge("horizontal")
	return b
}

func box(s seed, a *ir.Answer) {
	b := drawBox(s, drawBoxAnswer)
	a.Box = &b
	a.Confidence = new(distribution.Round4(0.5 + 0.5*s.uniform(drawBoxAnswer, drawConfidence)))
}

// track: a box for each sampled moment of the video, rate moments a
// second from 0 to its end, as content:
// {"rate": r, "moments": [{"second": t, "box": {...}, "confidence": c}]}.
// The specs describe these members in prose only, so the vocabulary has
// none of their own: rate is the question's, box and confidence a box
// answer's.
func track(s seed, plan *modelcheck.Plan, q *ir.Question, a *ir.Answer) {
	rate := int64(1)
	if q.Rate != nil {
		rate = *q.Rate
	}
	var moments []jsonvalue.Value
	for k := int64(0); float64(k) <= plan.VideoSeconds*float64(rate); k++ {
		second := float64(k) / float64(rate)
		b := drawBox(s, drawTrack, strconv.FormatInt(k, 10))
		moments = append(moments, object(
			member("second", jsonvalue.Float(second)),
			member(vocab.AnswerBox, boxValue(b)),
			member(vocab.AnswerConfidence, jsonvalue.Float(distribution.Round4(0.5+0.5*s.uniform(drawTrack, strconv.FormatInt(k, 10), drawConfidence)))),
		))
	}
	a.Track = object(member(vocab.QuestionRate, jsonvalue.Int(rate)), member("moments", jsonvalue.Array(moments...)))
}

func boxValue(b ir.Box) jsonvalue.Value {
	return object(
		member(vocab.BoxRegionTop, jsonvalue.Float(b.Top)), member(vocab.BoxRegionBottom, jsonvalue.Float(b.Bottom)),
		member(vocab.BoxRegionLeft, jsonvalue.Float(b.Left)), member(vocab.BoxRegionRight, jsonvalue.Float(b.Right)),
	)
}

func member(name string, v jsonvalue.Value) jsonvalue.Member {
	return jsonvalue.Member{Name: name, Value: v}
}

// object builds an object of distinct, present members, which every
// caller here passes.
func object(members ...jsonvalue.Member) jsonvalue.Value {
	v, _ := jsonvalue.Object(members...)
	return v
}

func keyedNames(c ir.Criteria) []string {
	out := make([]string, len(c.Keyed))
	for i, m := range c.Keyed {
		out[i] = m.Name
	}
	return out
}

// with is labels followed by more, in a new slice.
func with(labels []string, more ...string) []string {
	return append(append(make([]string, 0, len(labels)+len(more)), labels...), more...)
}
