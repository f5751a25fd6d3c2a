package routerconfig

import (
	"fmt"
	"slices"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/registry"
	"github.com/vllm-sr/systemone/runtime/table"
)

// A rule's match, action and route: what makes it fire on served traffic
// and what it then does.

var actionValues = []string{string(ActionBlock), string(ActionRoute)}

// readAction reads a rule's action and route: route is required with
// action route and allowed only with it.
func (l *loader) readAction(rule *Rule, s section) {
	if v, ok := s.oneOf("action", actionValues); ok {
		rule.Action = Action(v)
	}
	route, has := s.value("route")
	switch {
	case rule.Action == ActionRoute && !has:
		l.fail(s.m["action"].Value, s.path, "missing required key route: action route names an upstream, a model or both")
	case has && rule.Action != ActionRoute:
		l.fail(s.m["route"].KeyAt, s.at("route"), "only a rule with action: route takes route")
	case has:
		rule.Route = l.route(route, s.at("route"))
	}
}

var routeKeys = keysOf(routeForm{})

// route reads a route: an LLM upstream, a model an upstream serves, or
// both (the upstream then serves the model).
func (l *loader) route(n *yaml.Node, path string) *Route {
	s, ok := l.fields(n, path, routeKeys, nil)
	if !ok {
		return nil
	}
	out := &Route{}
	var up *Upstream
	if name, ok := s.str("upstream"); ok {
		out.Upstream = name
		if up = l.cfg.upstream(name); up == nil {
			s.fail("upstream", "names no upstream")
		}
	}
	if m, ok := s.str("model"); ok { //vocab:not-spec Router config key
		out.Model = m
		switch {
		case up != nil && !slices.Contains(up.Models, m):
			s.fail("model", "upstream %q does not serve this model", up.Name) //vocab:not-spec Router config key
		case out.Upstream == "" && !l.upstreamServes(m):
			s.fail("model", "no upstream serves this model") //vocab:not-spec Router config key
		}
	}
	if out.Upstream == "" && out.Model == "" {
		l.fail(n, path, "names neither an upstream nor a model")
	}
	return out
}

// readMatch reads a rule's match, a mapping of its question names to
// conditions: a number from 0 to 1 for a question answering a noul (noul,
// set, span: P(yes) at least it), a number of levels for a score (the
// expected level at least it), an option or list of options for a choice
// (the choice is one of them). Without match, each question answering a
// noul matches at DefaultNoulMatch.
func (l *loader) readMatch(rule *Rule, s section) {
	match, has := s.value("match")
	if !has {
		rule.Match = defaultMatch(rule.Questions)
		return
	}
	entries, ok := l.mapping(match, s.at("match"), false)
	if !ok {
		return
	}
	if len(entries) == 0 {
		s.fail("match", "names no question; leave match out to match every noul question at 0.5")
	}
	for _, m := range entries {
		p := join(s.at("match"), m.Key)
		i := slices.IndexFunc(rule.Questions, func(q ir.Question) bool { return q.Name == m.Key })
		if i < 0 {
			l.fail(m.KeyAt, p, "names no question of the rule")
			continue
		}
		if c, good := l.condition(&rule.Questions[i], m.Value, p); good {
			rule.Match = append(rule.Match, c)
		}
	}
}

// defaultMatch is P(yes) >= 0.5 on each question answering a noul.
func defaultMatch(qs []ir.Question) []Condition {
	var out []Condition
	for _, q := range qs {
		if answersNoul(q.Type) {
			at := DefaultNoulMatch
			out = append(out, Condition{Question: q.Name, Type: q.Type, AtLeast: &at})
		}
	}
	return out
}

func answersNoul(t table.QuestionType) bool {
	return t == table.QuestionNoul || t == table.QuestionSet || t == table.QuestionSpan
}

// condition reads one question's condition, by the question's type.
func (l *loader) condition(q *ir.Question, n *yaml.Node, path string) (Condition, bool) {
	c := Condition{Question: q.Name, Type: q.Type}
	top, bounds := 1.0, fmt.Sprintf("a %s question matches at a P(yes) from 0 to 1", q.Type)
	switch {
	case q.Type == table.QuestionChoice:
		return l.choiceCondition(q, n, path, c)
	case q.Type == table.QuestionScore:
		top = float64(len(q.Criteria.Levels) - 1)
		bounds = fmt.Sprintf("a score question matches at an expected level from 0 to %g", top)
	case !answersNoul(q.Type):
		l.fail(n, path, "a %s question cannot be matched; match noul, set, span, score and choice questions", q.Type)
		return c, false
	}
	v, ok := l.number(n, path)
	if ok && (v < 0 || top > 0 && v > top) {
		l.fail(n, path, "%s", bounds)
		ok = false
	}
	c.AtLeast = &v
	return c, ok
}

// choiceCondition reads an option, or a list of options, of a choice
// question.
func (l *loader) choiceCondition(q *ir.Question, n *yaml.Node, path string, c Condition) (Condition, bool) {
	var at []*yaml.Node
	if resolve(n).Kind == yaml.SequenceNode {
		var ok bool
		if c.Choices, at, ok = l.strList(n, path); !ok {
			return c, false
		}
	} else if s, ok := l.str(n, path); ok {
		c.Choices, at = []string{s}, []*yaml.Node{n}
	} else {
		return c, false
	}
	var options []string
	for _, m := range q.Criteria.Keyed {
		options = append(options, m.Name)
	}
	ok := len(c.Choices) > 0
	if !ok {
		l.fail(n, path, "lists no option")
	}
	for i, choice := range c.Choices {
		if !slices.Contains(options, choice) {
			l.fail(at[i], path, "is not an option of the question; options: %s", strings.Join(options, ", "))
			ok = false
		}
	}
	return c, ok
}

// ruleRef is a listener's (or one of its APIs') use of a rule, checked
// once every rule is read.
type ruleRef struct {
	listener int
	// api is the API whose entry names the rule; "" for the listener's
	// own rules.
	api  string
	name string
	at   *yaml.Node
	path string
}

// ruleNames reads a rules list of rule names, each checked once the rules
// are read.
func (l *loader) ruleNames(n *yaml.Node, path string, ref ruleRef) []string {
	names, _ := l.items(n, path, "lists no rule; leave rules out to run none", func(name string, at *yaml.Node, path string) {
		ref.name, ref.at, ref.path = name, at, path
		l.ruleRefs = append(l.ruleRefs, ref)
	})
	return names
}

// checkRuleRefs checks each rule a listener runs: it exists, it can
// match, it is not run twice on one API, and a route rule's route serves
// every API it runs on.
func (l *loader) checkRuleRefs() {
	for _, ref := range l.ruleRefs {
		if ref.listener >= len(l.cfg.Listeners) {
			continue
		}
		lst := &l.cfg.Listeners[ref.listener]
		if ref.api == "" && !slices.ContainsFunc(lst.APIs, func(a ListenerAPI) bool { return a.API.Kind == registry.KindLLM }) {
			l.fail(ref.at, ref.path, "the listener serves no LLM API to run rules on")
			continue
		}
		rule, ok := l.cfg.Rule(ref.name)
		if !ok {
			if !slices.Contains(l.declaredRules, ref.name) {
				l.fail(ref.at, ref.path, "names no rule")
			}
			continue
		}
		if len(rule.Match) == 0 {
			l.fail(ref.at, ref.path, "rule %q has no question answering a noul; give it a match to run it on traffic", rule.Name)
		}
		for i := range lst.APIs {
			api := &lst.APIs[i]
			if api.API.Kind != registry.KindLLM || ref.api != "" && ref.api != api.API.Name {
				continue
			}
			if ref.api == "" && slices.Contains(api.Rules, ref.name) {
				l.fail(ref.at, ref.path, "rule %q also runs on the listener's %s API; name it once", rule.Name, api.API.Name)
			}
			l.checkRouteOn(rule, api, ref)
		}
	}
}

// checkRouteOn refuses a route rule run on an API its route cannot
// serve: the route's upstream, or an upstream serving its model, must be
// one of the API's.
func (l *loader) checkRouteOn(rule *Rule, api *ListenerAPI, ref ruleRef) {
	if rule.Action != ActionRoute || rule.Route == nil {
		return
	}
	if l.cfg.RouteUpstream(rule.Route, api.API.Name) == nil {
		l.fail(ref.at, ref.path, "rule %q routes where no %s upstream serves; run it on the API of its upstream", rule.Name, api.API.Name)
	}
}

// RouteUpstream is the upstream of api's API a route sends to: its
// upstream when that is one of the API's, else the API's first upstream
// serving its model; nil when there is none.
func (c *Config) RouteUpstream(route *Route, api string) *Upstream {
	if route.Upstream != "" {
		if u := c.upstream(route.Upstream); u != nil && u.API == api {
			return u
		}
		return nil
	}
	for i := range c.Upstreams {
		if u := &c.Upstreams[i]; u.API == api && slices.Contains(u.Models, route.Model) {
			return u
		}
	}
	return nil
}
