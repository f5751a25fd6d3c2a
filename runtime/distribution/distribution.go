package distribution

import (
	"math"
	"sort"
)

// Units is the rounding grain: probabilities are whole multiples of
// 1/Units, so they print with at most four decimals.
const Units = 10000

// Softmax turns logits into probabilities.
func Softmax(logits []float64) []float64 {
	peak := math.Inf(-1)
	for _, l := range logits {
		peak = math.Max(peak, l)
	}
	out := make([]float64, len(logits))
	sum := 0.0
	for i, l := range logits {
		out[i] = math.Exp(l - peak)
		sum += out[i]
	}
	for i := range out {
		out[i] /= sum
	}
	return out
}

// RoundUnits rounds a distribution to whole Units that sum to
// exactly Units (largest remainder: each share is floored, and the Units
// left go one each to the largest remainders, ties to the earlier). It
// keeps the order of the probabilities: p[i] > p[j] gives rounded[i] ≥
// rounded[j], so the most probable option stays the most probable.
func RoundUnits(p []float64) []int64 {
	out := make([]int64, len(p))
	rest := make([]int, len(p))
	left := int64(Units)
	for i, x := range p {
		out[i] = int64(math.Floor(x * Units))
		left -= out[i]
		rest[i] = i
	}
	sort.SliceStable(rest, func(a, b int) bool {
		fa := p[rest[a]]*Units - float64(out[rest[a]])
		fb := p[rest[b]]*Units - float64(out[rest[b]])
		return fa > fb
	})
	for k := 0; left > 0 && len(rest) > 0; k, left = (k+1)%len(rest), left-1 {
		out[rest[k]]++
	}
	return out
}

// Round4 rounds x to four decimals.
func Round4(x float64) float64 { return math.Round(x*Units) / Units }

// Argmax is the index of the largest value, the earliest on a tie.
func Argmax(xs []float64) int {
	best := 0
	for i, x := range xs {
		if x > xs[best] {
			best = i
		}
	}
	return best
}

// ChoiceConfidence is the standard's (n·max(p) − 1)/(n − 1), 1 for n = 1.
func ChoiceConfidence(p []float64) float64 {
	n := float64(len(p))
	if len(p) <= 1 {
		return 1
	}
	return Clamp01((n*p[Argmax(p)] - 1) / (n - 1))
}

// ScoreConfidence is the standard's 1 − E|level − mode| / meanAbsDev,
// where meanAbsDev is E|level − mode| under the uniform distribution over
// the same levels: a one-hot distribution gives 1, the uniform one 0, and
// the result is clamped to [0, 1].
func ScoreConfidence(p []float64) float64 {
	mode := Argmax(p)
	spread, uniform := 0.0, 0.0
	for i, x := range p {
		d := math.Abs(float64(i - mode))
		spread += x * d
		uniform += d / float64(len(p))
	}
	if uniform == 0 {
		return 1
	}
	return Clamp01(1 - spread/uniform)
}

// ExpectedLevel is Σ index·p.
func ExpectedLevel(p []float64) float64 {
	s := 0.0
	for i, x := range p {
		s += float64(i) * x
	}
	return s
}

// Clamp01 is x within [0, 1].
func Clamp01(x float64) float64 { return math.Min(1, math.Max(0, x)) }

// Sigmoid is the logistic function.
func Sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// Rounded is p rounded to whole units (RoundUnits) as probabilities:
// they sum to exactly 1 and keep p's order.
func Rounded(p []float64) []float64 {
	u := RoundUnits(p)
	out := make([]float64, len(u))
	for i := range u {
		out[i] = float64(u[i]) / Units
	}
	return out
}
