package routerconfig

import (
	"slices"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/vllm-sr/systemone/generated/fieldtable"
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/modelcheck"
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
	cc, carries := d.Codec.(tc.CarryChecker)
	if carries {
		missing, verb = cc.CheckCarry(req, d.Target(), nil), "cannot carry" // its schema's limits, not only its model's
	} else {
		missing = unanswered(req, d)
	}
	report := func(m tc.Missing, verb string) {
		l.fail(nodeAt(at, jsonPointer(m.Path), questions), join("rules."+rule.Name, m.Path.String()),
			"rule %q refused: deployment %q (%s, model %q) %s %s", rule.Name, d.Name, d.Schema, d.Model, verb, m.What)
		last := &l.problems[len(l.problems)-1]
		last.Rule, last.Deployment = rule.Name, d.Name
	}
	for _, m := range missing {
		report(m, verb)
	}
	for _, m := range cardRefusals(req, d, missing, carries) {
		report(m, "does not answer")
	}
}

// cardRefusals lists what the card of d's model refuses about each
// question of r that missing names nothing of, checked as the runtime
// checks it (modelcheck.Asked): criteria counts outside the card's limits,
// named with the count and the range, and any other failure by its
// message. On a schema that checks what it carries (systemone/0.2, whose
// presets go expanded), a preset is not the card's to refuse.
func cardRefusals(r *ir.Request, d *Deployment, missing []tc.Missing, carries bool) []tc.Missing {
	if d.Card == nil {
		return nil
	}
	var out []tc.Missing
	for i := range r.Questions {
		q := r.Questions[i]
		qa := ir.Path{{Name: vocab.RequestQuestions}, {Name: q.Name}}
		if slices.ContainsFunc(missing, func(m tc.Missing) bool { return len(m.Path) >= 2 && m.Path[1].Name == q.Name }) {
			continue
		}
		if carries {
			q.Preset = nil
		}
		p, f := modelcheck.Asked(d.Card, r, &q)
		switch {
		case f == nil:
		case f.Limit != nil:
			out = append(out, tc.Missing{What: countText(d.Card, p), Path: qa.Key(vocab.QuestionCriteria)})
		default:
			out = append(out, tc.Missing{What: "the question as asked: " + f.Message + " (" + string(f.Reason) + ")", Path: qa})
		}
	}
	return out
}

// countText names a count of criteria the card's limits refuse: "a
// choice question with 33 options (the model reads 2 to 32)".
func countText(card *table.Card, p modelcheck.Plan) string {
	n, unit := len(p.Criteria.Keyed), "labels" //vocab:not-spec a count's unit, a word of the message
	switch p.Type {
	case table.QuestionChoice:
		unit = "options" //vocab:not-spec a count's unit, a word of the message
	case table.QuestionScore:
		n, unit = len(p.Criteria.Levels), "levels" //vocab:not-spec a count's unit, a word of the message
	}
	r, _ := card.Limits.Range(p.Type)
	return "a " + string(p.Type) + " question with " + strconv.Itoa(n) + " " + unit +
		" (the model reads " + strconv.Itoa(r.Min) + " to " + strconv.Itoa(r.Max) + ")"
}

// checkMedia refuses, one problem per medium, a rule reading a turn's
// image or video that its deployment does not read: its schema cannot
// carry the medium (systemone/0.2: video), or its card's modalities (else
// its declared capabilities) lack it. A deployment with neither is
// checked against its listing's features when the Router starts.
func (l *loader) checkMedia(rule *Rule, d *Deployment, where map[ir.AssetType]listed) {
	for _, m := range rule.Media {
		verb := "does not read"
		if _, refused := fieldtable.Refused(table.LevelAssetType, string(m)); refused && d.Codec != nil {
			if _, carries := d.Codec.(tc.CarryChecker); carries {
				verb = "cannot carry"
			}
		}
		if verb == "does not read" && d.Capabilities.Has(tc.Capability(m)) {
			continue
		}
		at := where[m]
		l.fail(at.at, at.path, "rule %q refused: deployment %q (%s, model %q) %s the turn's %s (input %s)",
			rule.Name, d.Name, d.Schema, d.Model, verb, m, m)
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
