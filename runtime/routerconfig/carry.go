package routerconfig

import (
	"slices"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v4"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/table"
	tc "github.com/vllm-sr/systemone/runtime/target"
)

// checkCarry refuses, one problem per missing thing, what a rule asks
// that its deployment cannot carry (its schema, where its codec checks
// that: target.CarryChecker, which also applies the declared
// capabilities) or otherwise answer (its card or declared capabilities).
func (l *loader) checkCarry(rule *Rule, req *ir.Request, d *Deployment, at map[string]*yaml.Node, questions *yaml.Node) {
	var missing []tc.Missing
	if cc, ok := d.Codec.(tc.CarryChecker); ok {
		missing = cc.CheckCarry(req, d.Target(), nil)
	} else {
		missing = unanswered(req, d)
	}
	for _, m := range missing {
		pointer := "/" + strings.Join(pathNames(m.Path), "/")
		l.problems = append(l.problems, Problem{
			File:       l.file,
			Path:       join("rules."+rule.Name, m.Path.String()),
			Message:    refusalMessage(rule, d, m),
			Rule:       rule.Name,
			Deployment: d.Name,
		})
		if n := nodeAt(at, pointer, questions); n != nil {
			last := &l.problems[len(l.problems)-1]
			last.Line, last.Column = n.Line, n.Column
		}
	}
}

// refusalMessage is one line naming the rule, the deployment and what it
// cannot carry.
func refusalMessage(rule *Rule, d *Deployment, m tc.Missing) string {
	verb := "does not answer"
	if _, carries := d.Codec.(tc.CarryChecker); carries {
		verb = "cannot carry" // its schema's limits, not only its model's
	}
	return "rule " + strconv.Quote(rule.Name) + " refused: deployment " + strconv.Quote(d.Name) +
		" (" + string(d.Schema) + ", model " + strconv.Quote(d.Model) + ") " + verb + " " + m.What
}

// pathNames are a path's elements as JSON Pointer segments.
func pathNames(p ir.Path) []string {
	out := make([]string, len(p))
	for i, e := range p {
		if e.IsIndex {
			out[i] = strconv.Itoa(e.Index)
		} else {
			out[i] = escapePointer(e.Name)
		}
	}
	return out
}

// unanswered lists what a rule asks that a vllm-sr deployment's card (or
// declared capabilities) does not answer. A deployment with neither is
// checked when the Router reads its listing, not at load.
func unanswered(r *ir.Request, d *Deployment) []tc.Missing {
	if d.Card == nil && d.Declared == nil {
		return nil
	}
	var out []tc.Missing
	add := func(what string, path ir.Path) { out = append(out, tc.Missing{What: what, Path: path}) }
	for i := range r.Questions {
		q := &r.Questions[i]
		qa := ir.Path{{Name: vocab.RequestQuestions}, {Name: q.Name}}
		if !d.Capabilities.Has(tc.Capability(q.Type)) {
			add(string(q.Type)+" question", qa.Key(vocab.QuestionType))
		}
		if q.Preset != nil && !presetAnswered(d, *q.Preset) {
			add("the preset "+strconv.Quote(*q.Preset), qa.Key(vocab.QuestionPreset))
		}
		if d.Card != nil {
			cardMissing(d.Card, q, qa, add)
		}
	}
	return out
}

// presetAnswered: the card lists the preset, or the declared capabilities
// include presets.
func presetAnswered(d *Deployment, name string) bool {
	if d.Card != nil {
		_, ok := d.Card.Preset(name)
		return ok
	}
	return d.Capabilities.Has(tc.CapPresets)
}

// cardMissing adds the question's extension fields the card does not
// answer.
func cardMissing(c *table.Card, q *ir.Question, qa ir.Path, add func(string, ir.Path)) {
	if q.Head != nil && !c.HasSpanHead(string(*q.Head)) {
		add("the span head "+string(*q.Head), qa.Key(vocab.QuestionHead))
	}
	if q.DecisionAdapter != nil && *q.DecisionAdapter && !c.DecisionAdapter {
		add(vocab.QuestionDecisionAdapter, qa.Key(vocab.QuestionDecisionAdapter))
	}
	if q.Rate != nil && !slices.Contains(c.TrackRates, *q.Rate) {
		add("track rate "+strconv.FormatInt(*q.Rate, 10), qa.Key(vocab.QuestionRate))
	}
	if q.Over != nil && !overAnswered(c.Over, q) {
		add("over on this question", qa.Key(vocab.QuestionOver))
	}
}

// overAnswered applies the card's over scope to one question.
func overAnswered(scope table.OverScope, q *ir.Question) bool {
	switch scope {
	case table.OverAny:
		return true
	case table.OverSpansAndPresets:
		return q.Type == table.QuestionSpan || q.Preset != nil
	}
	return false
}
