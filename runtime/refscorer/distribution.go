package refscorer

import (
	"math"
	"sort"
)

// units is the rounding grain: probabilities are whole multiples of
// 1/units, so they print with at most four decimals.
const units = 10000

// softmax turns logits into probabilities.
func softmax(logits []float64) []float64 {
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

// roundDistribution rounds a distribution to whole units that sum to
// exactly units (largest remainder: each share is floored, and the units
// left go one each to the largest remainders, ties to the earlier). It
// keeps the order of the probabilities: p[i] > p[j] gives rounded[i] ≥
// rounded[j], so the most probable option stays the most probable.
func roundDistribution(p []float64) []int64 {
	out := make([]int64, len(p))
	rest := make([]int, len(p))
	left := int64(units)
	for i, x := range p {
		out[i] = int64(math.Floor(x * units))
		left -= out[i]
		rest[i] = i
	}
	sort.SliceStable(rest, func(a, b int) bool {
		fa := p[rest[a]]*units - float64(out[rest[a]])
		fb := p[rest[b]]*units - float64(out[rest[b]])
		return fa > fb
	})
	for k := 0; left > 0 && len(rest) > 0; k, left = (k+1)%len(rest), left-1 {
		out[rest[k]]++
	}
	return out
}

// round4 rounds x to four decimals.
func round4(x float64) float64 { return math.Round(x*units) / units }

// argmax is the index of the largest value, the earliest on a tie.
func argmax(xs []float64) int {
	best := 0
	for i, x := range xs {
		if x > xs[best] {
			best = i
		}
	}
	return best
}

// choiceConfidence is the standard's (n·max(p) − 1)/(n − 1), 1 for n = 1.
func choiceConfidence(p []float64) float64 {
	n := float64(len(p))
	if len(p) <= 1 {
		return 1
	}
	return clamp01((n*p[argmax(p)] - 1) / (n - 1))
}

// scoreConfidence is the standard's 1 − E|level − mode| / meanAbsDev,
// where meanAbsDev is E|level − mode| under the uniform distribution over
// the same levels: a one-hot distribution gives 1, the uniform one 0, and
// the result is clamped to [0, 1].
func scoreConfidence(p []float64) float64 {
	mode := argmax(p)
	spread, uniform := 0.0, 0.0
	for i, x := range p {
		d := math.Abs(float64(i - mode))
		spread += x * d
		uniform += d / float64(len(p))
	}
	if uniform == 0 {
		return 1
	}
	return clamp01(1 - spread/uniform)
}

// expectedLevel is Σ index·p.
func expectedLevel(p []float64) float64 {
	s := 0.0
	for i, x := range p {
		s += float64(i) * x
	}
	return s
}

func clamp01(x float64) float64 { return math.Min(1, math.Max(0, x)) }

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }
