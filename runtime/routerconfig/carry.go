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
	verb := "does not answer"
	if cc, ok := d.Codec.(tc.CarryChecker); ok {
		missing, verb = cc.CheckCarry(req, d.Target(), nil), "cannot carry" // its schema's limits, not only its model's
	} else {
		missing = unanswered(req, d)
	}
	for _, m := range missing {
		l.fail(nodeAt(at, jsonPointer(m.Path), questions), join("rules."+rule.Name, m.Path.String()),
			"rule %q refused: deployment %q (%s, model %q) %s %s", rule.Name, d.Name, d.Schema, d.Model, verb, m.What)
		last := &l.problems[len(l.problems)-1]
		last.Rule, last.Deployment = rule.Name, d.Name
	}
}

func jsonPointer(p ir.Path) string {
	var b strings.Builder
	for _, e := range p {
		b.WriteByte('/')
		if e.IsIndex {
			b.WriteString(strconv.Itoa(e.Index))
		} else {
			b.WriteString(escapePointer(e.Name))
		}
	}
	return b.String()
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
		c := d.Card
		if c == nil {
			continue
		}
		// The question's extension fields the card does not answer.
		if q.Head != nil && !c.HasSpanHead(string(*q.Head)) {
			add("the span head "+string(*q.Head), qa.Key(vocab.QuestionHead))
		}
		if q.DecisionAdapter != nil && *q.DecisionAdapter && !c.DecisionAdapter {
			add(vocab.QuestionDecisionAdapter, qa.Key(vocab.QuestionDecisionAdapter))
		}
		if q.Rate != nil && !slices.Contains(c.TrackRates, *q.Rate) {
			add("track rate "+strconv.FormatInt(*q.Rate, 10), qa.Key(vocab.QuestionRate))
		}
		overScoped := c.Over == table.OverAny || c.Over == table.OverSpansAndPresets && (q.Type == table.QuestionSpan || q.Preset != nil)
		if q.Over != nil && !overScoped {
			add("over on this question", qa.Key(vocab.QuestionOver))
		}
	}
	return out
}

// presetAnswered: the card lists the preset, or the declared capabilities
// include preset.
func presetAnswered(d *Deployment, name string) bool {
	if d.Card != nil {
		_, ok := d.Card.Preset(name)
		return ok
	}
	return d.Capabilities.Has(tc.CapPreset)
}
