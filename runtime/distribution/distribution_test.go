package distribution

import (
	"math"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// TestConfidenceFormulas pins the standard's confidences against values
// computed by hand.
func TestConfidenceFormulas(t *testing.T) {
	choices := []struct {
		p    []float64
		want float64
	}{
		{[]float64{1}, 1},                  // n = 1
		{[]float64{0.5, 0.3, 0.2}, 0.25},   // (3·0.5 − 1)/2
		{[]float64{0.5, 0.5}, 0},           // (2·0.5 − 1)/1
		{[]float64{0.9, 0.05, 0.05}, 0.85}, // (2.7 − 1)/2
		{[]float64{0.25, 0.25, 0.25, 0.25}, 0},
	}
	for _, c := range choices {
		if got := ChoiceConfidence(c.p); !near(got, c.want) {
			t.Errorf("ChoiceConfidence(%v) = %v, want %v", c.p, got, c.want)
		}
	}
	scores := []struct {
		p    []float64
		want float64
	}{
		{[]float64{0, 1, 0}, 1},
		{[]float64{1.0 / 3, 1.0 / 3, 1.0 / 3}, 0}, // mode 0: E|i−0| = 1 = the uniform's
		{[]float64{0.2, 0.6, 0.2}, 0.4},           // mode 1: 0.4 / (2/3) = 0.6
		{[]float64{0.7, 0.2, 0.1}, 0.6},           // mode 0: (0.2 + 0.2) / 1
		{[]float64{0.34, 0, 0.33, 0.33}, 0},       // mode 0: 1.65 / 1.5 > 1, clamped
	}
	for _, c := range scores {
		if got := ScoreConfidence(c.p); !near(got, c.want) {
			t.Errorf("ScoreConfidence(%v) = %v, want %v", c.p, got, c.want)
		}
	}
	if got := ExpectedLevel([]float64{0.2, 0.3, 0.5}); !near(got, 1.3) {
		t.Errorf("expectedLevel = %v, want 1.3", got)
	}
}

func TestRoundDistributionSumsExactlyAndKeepsOrder(t *testing.T) {
	cases := [][]float64{
		{1.0 / 3, 1.0 / 3, 1.0 / 3},
		{0.66666, 0.33334},
		{0.123456, 0.876544},
		Softmax([]float64{0.1, 0.2, 0.3, -1, 2, 2, 0}),
	}
	for n := 1; n <= 255; n += 7 {
		logits := make([]float64, n)
		for i := range logits {
			logits[i] = math.Sin(float64(i*i + n))
		}
		cases = append(cases, Softmax(logits))
	}
	for _, p := range cases {
		u := RoundUnits(p)
		var sum int64
		for i := range u {
			sum += u[i]
			if math.Abs(float64(u[i])-p[i]*Units) >= 1 {
				t.Errorf("%v: unit %d is %d, more than one unit from %v", p, i, u[i], p[i]*Units)
			}
			for j := range u {
				if p[i] > p[j] && u[i] < u[j] {
					t.Errorf("%v: rounding swapped %d and %d", p, i, j)
				}
			}
		}
		if sum != Units {
			t.Errorf("%v: rounded Units sum to %d", p, sum)
		}
	}
	if got := RoundUnits([]float64{1.0 / 3, 1.0 / 3, 1.0 / 3}); got[0] != 3334 || got[1] != 3333 || got[2] != 3333 {
		t.Errorf("thirds round to %v, want [3334 3333 3333]", got)
	}
}
