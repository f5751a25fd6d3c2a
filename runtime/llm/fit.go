package llm

import (
	"context"
	"errors"
	"math"
	"slices"

	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/modelcheck"
	"github.com/vllm-sr/systemone/runtime/table"
)

// Sample is one labelled prediction: a temperature group's raw label
// log-probabilities (before any temperature) and the expected label.
type Sample struct {
	Group    string
	LogProbs []float64
	Expected int
}

// ErrNoExpectation is returned for an expected answer that names no label
// of its question.
var ErrNoExpectation = errors.New("the expected answer is not one of the question's labels")

// Samples asks each question of req that expected answers (by name: a
// noul's true or false, a choice's option key, a score's level index, a
// set's array of labels that apply) and returns its samples: one per
// question, one per label of a set. A question the model cannot answer,
// or the backend failed, is an error naming the question.
func (e *Engine) Samples(ctx context.Context, model table.Model, req *ir.Request, expected jsonvalue.Value) ([]Sample, error) {
	var out []Sample
	for i := range req.Questions {
		q := &req.Questions[i]
		want, ok := expected.Get(q.Name)
		if !ok {
			continue
		}
		s, err := e.samples(ctx, model, req, q, want)
		if err != nil {
			return out, errors.New("question " + table.QuoteName(q.Name) + ": " + err.Error())
		}
		out = append(out, s...)
	}
	return out, nil
}

func (e *Engine) samples(ctx context.Context, model table.Model, req *ir.Request, q *ir.Question, want jsonvalue.Value) ([]Sample, error) {
	plan, instructions, f := ask(model, req, q)
	if f != nil {
		return nil, errors.New(f.Message)
	}
	group := calibrationKey(plan.Type, plan.Preset)
	if plan.Type == table.QuestionSet {
		var out []Sample
		for _, m := range plan.Criteria.Keyed {
			lp, _, err := e.scoreLabels(ctx, setPrompt(&plan, instructions, m))
			if err != nil {
				return nil, err
			}
			applies := slices.ContainsFunc(want.Items(), func(v jsonvalue.Value) bool { return v.Kind() == jsonvalue.KindString && v.Str() == m.Name })
			out = append(out, Sample{Group: group, LogProbs: lp, Expected: yesIndex(applies)})
		}
		return out, nil
	}
	index, err := expectedIndex(&plan, want)
	if err != nil {
		return nil, err
	}
	lp, _, err := e.scoreLabels(ctx, questionPrompt(&plan, instructions))
	if err != nil {
		return nil, err
	}
	return []Sample{{Group: group, LogProbs: lp, Expected: index}}, nil
}

func yesIndex(yes bool) int {
	if yes {
		return 0
	}
	return 1
}

// expectedIndex is the label index of an expected answer.
func expectedIndex(plan *modelcheck.Plan, want jsonvalue.Value) (int, error) {
	switch plan.Type {
	case table.QuestionNoul:
		if want.Kind() == jsonvalue.KindBool {
			return yesIndex(want.Bool()), nil
		}
	case table.QuestionChoice:
		if want.Kind() == jsonvalue.KindString {
			if i := slices.IndexFunc(plan.Criteria.Keyed, func(m jsonvalue.Member) bool { return m.Name == want.Str() }); i >= 0 {
				return i, nil
			}
		}
	case table.QuestionScore:
		if n, ok := want.Int(); ok && n >= 0 && int(n) < len(plan.Criteria.Levels) {
			return int(n), nil
		}
	}
	return 0, ErrNoExpectation
}

// Fit fits one temperature per group on the samples whose index (in the
// order given) is not a multiple of holdoutEvery minus one, and measures
// the others, the held-out split, before (temperature 1) and after. A
// group with no held-out sample is measured on its training samples.
func Fit(samples []Sample, holdoutEvery int) map[string]GroupReport {
	train, test := map[string][]Sample{}, map[string][]Sample{}
	for i, s := range samples {
		if holdoutEvery > 1 && i%holdoutEvery == holdoutEvery-1 {
			test[s.Group] = append(test[s.Group], s)
		} else {
			train[s.Group] = append(train[s.Group], s)
		}
	}
	out := map[string]GroupReport{}
	groups := map[string]bool{}
	for _, s := range samples {
		groups[s.Group] = true
	}
	for group := range groups {
		// A group all of whose samples fell on one side is fitted and
		// measured on that side: every group gets its temperature.
		tr, te := train[group], test[group]
		if len(tr) == 0 {
			tr = te
		}
		if len(te) == 0 {
			te = tr
		}
		t := FitTemperature(tr)
		out[group] = GroupReport{Group: group, Temperature: t, Train: len(train[group]), Test: len(test[group]),
			Before: Measure(te, 1), After: Measure(te, t)}
	}
	return out
}

// Temperature bounds of a fit.
const (
	minTemperature = 0.05
	maxTemperature = 20
)

// FitTemperature is the temperature that minimises the samples' mean log
// loss: a golden-section search over ln T in [ln 0.05, ln 20] (log loss
// is convex in 1/T, so unimodal there), to 1e-6.
func FitTemperature(samples []Sample) float64 {
	if len(samples) == 0 {
		return 1
	}
	loss := func(lnT float64) float64 { return Measure(samples, math.Exp(lnT)).LogLoss }
	lo, hi := math.Log(minTemperature), math.Log(maxTemperature)
	phi := (math.Sqrt(5) - 1) / 2
	a, b := hi-phi*(hi-lo), lo+phi*(hi-lo)
	fa, fb := loss(a), loss(b)
	for hi-lo > 1e-6 {
		if fa <= fb {
			hi, b, fb = b, a, fa
			a = hi - phi*(hi-lo)
			fa = loss(a)
		} else {
			lo, a, fa = a, b, fb
			b = lo + phi*(hi-lo)
			fb = loss(b)
		}
	}
	return math.Round(math.Exp((lo+hi)/2)*1e4) / 1e4
}

// Measure is the samples' measures at temperature t.
func Measure(samples []Sample, t float64) Measures {
	if len(samples) == 0 {
		return Measures{}
	}
	const bins = 10
	var m Measures
	var binConf, binAcc [bins]float64
	var binN [bins]int
	for _, s := range samples {
		p := tempered(s.LogProbs, t)
		top := 0
		for i := range p {
			if p[i] > p[top] {
				top = i
			}
		}
		hit := 0.0
		if top == s.Expected {
			hit = 1
		}
		m.Accuracy += hit
		m.LogLoss -= math.Log(max(p[s.Expected], 1e-15))
		for i := range p {
			d := p[i]
			if i == s.Expected {
				d--
			}
			m.Brier += d * d
		}
		b := min(int(p[top]*bins), bins-1)
		binConf[b] += p[top]
		binAcc[b] += hit
		binN[b]++
	}
	n := float64(len(samples))
	for b := range bins {
		if binN[b] > 0 {
			m.ECE += math.Abs(binAcc[b]-binConf[b]) / n
		}
	}
	m.Accuracy /= n
	m.LogLoss /= n
	m.Brier /= n
	return m
}
