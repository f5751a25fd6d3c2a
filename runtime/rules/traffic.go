package rules

import (
	"cmp"
	"context"
	"log/slog"
	"net/http"
	"slices"
	"strings"

	"github.com/vllm-sr/systemone/runtime/front"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/llmproxy"
	"github.com/vllm-sr/systemone/runtime/routerconfig"
)

// ruleHeaderPrefix begins the header each rule's outcome goes upstream
// in: x-vsr-rule-<name>: matched, not_matched or unknown. A client's own
// headers with this prefix are dropped, so an upstream trusts only the
// Router's.
const ruleHeaderPrefix = "x-vsr-rule-" //vocab:not-spec the Router's own header, not the standard's

// Verdict is what the rules of one LLM request decided.
type Verdict struct {
	Results []Result
	// Failed is the first rule, in order, whose answer is unknown with
	// on_unknown fail: the request fails with 503 naming it.
	Failed string
	// Blocked is the first fired block rule: the request is refused
	// naming it.
	Blocked string
	// Route is the first fired route rule's route, and RoutedBy its rule.
	Route    *routerconfig.Route
	RoutedBy string
}

// Run evaluates the named rules on an LLM request of api, all at
// once through the Decide path (the rules bound to one deployment with
// one timeout_ms as one batch, the batches concurrently, each under its
// timeout_ms), and decides in rule order. A body the Router
// cannot read leaves every rule's answer unknown without an upstream
// call; each rule's on_unknown then decides.
func (ev *Evaluator) Run(ctx context.Context, names []string, api string, body []byte) (Verdict, error) {
	var v Verdict
	picked, err := ev.rules(names, nil)
	if err != nil {
		return v, err
	}
	in, readable := llmproxy.Read(api, body, slices.ContainsFunc(picked, func(rule *routerconfig.Rule) bool { return len(rule.Media) > 0 }))
	if readable {
		v.Results = ev.decide(ctx, picked, in)
	} else {
		for _, name := range names { // each names a rule: checked at load
			rule, _ := ev.Config.Rule(name)
			res := unreadableResult(rule)
			ev.Metrics.RuleOutcome(rule.Name, outcomeLabel(&res))
			v.Results = append(v.Results, res)
		}
	}
	for i := range v.Results {
		res := &v.Results[i]
		rule, _ := ev.Config.Rule(res.Rule)
		switch {
		case res.Outcome == OutcomeFail:
			if v.Failed == "" {
				v.Failed = res.Rule
			}
		case !res.Fired:
		case rule.Action == routerconfig.ActionBlock && v.Blocked == "":
			v.Blocked = res.Rule
		case rule.Action == routerconfig.ActionRoute && v.Route == nil:
			v.Route, v.RoutedBy = rule.Route, res.Rule
		}
	}
	return v, nil
}

// unreadableResult is a rule's result on a request whose parts could not
// be read: every answer unknown, its on_unknown deciding.
func unreadableResult(rule *routerconfig.Rule) Result {
	e := &ir.ErrorBody{Reason: "unreadable_request", Message: "the Router could not read the request's parts"} //vocab:not-spec log-only word, never sent
	res := Result{Rule: rule.Name, Deployment: rule.Deployment,
		Response: &ir.Response{Answers: failedRule(rule, e)}, Outcome: string(rule.OnUnknown)}
	for _, q := range rule.Questions {
		res.Unknown = append(res.Unknown, q.Name)
	}
	res.Match, res.Fired = evaluateMatch(rule, &res)
	return res
}

// evaluateMatch checks a rule's answers against its match: unknown when
// an answer is unknown (fired when its on_unknown is match), matched when
// every condition holds, else not matched. A rule without a match has
// no Verdict.
func evaluateMatch(rule *routerconfig.Rule, res *Result) (string, bool) {
	switch {
	case len(rule.Match) == 0:
		return "", false
	case len(res.Unknown) > 0:
		return MatchUnknown, rule.OnUnknown == routerconfig.OnUnknownMatch
	}
	for _, c := range rule.Match {
		i := slices.IndexFunc(res.Response.Answers, func(a ir.Answer) bool { return a.Name == c.Question })
		if i < 0 || !holds(c, &res.Response.Answers[i]) {
			return MatchNotMatched, false
		}
	}
	return MatchMatched, true
}

// holds reports whether an answer meets a condition: its noul (noul, set,
// span) or score at least AtLeast, or its choice one of Choices.
func holds(c routerconfig.Condition, a *ir.Answer) bool {
	switch {
	case c.Choices != nil:
		return a.Choice != nil && slices.Contains(c.Choices, *a.Choice)
	case c.AtLeast == nil:
		return false
	case a.Score != nil && a.Noul == nil:
		return *a.Score >= *c.AtLeast
	case a.Noul != nil:
		return *a.Noul >= *c.AtLeast
	}
	return false
}

// SetHeaders drops the client's x-vsr-rule-* headers and sets one per
// rule evaluated, its match (or unknown).
func SetHeaders(h http.Header, results []Result) {
	for name := range h {
		if strings.HasPrefix(strings.ToLower(name), ruleHeaderPrefix) {
			delete(h, name)
		}
	}
	for _, res := range results {
		h.Set(ruleHeaderPrefix+res.Rule, headerValue(res))
	}
}

// LogVerdict logs each rule's outcome on a served request (Decide counted
// it): WARN for an unknown answer, INFO otherwise; no request values.
func (ev *Evaluator) LogVerdict(ctx context.Context, listenerName, api string, v *Verdict) {
	outcomes := make([]any, 0, len(v.Results))
	for _, res := range v.Results {
		outcomes = append(outcomes, slog.String(res.Rule, headerValue(res)))
	}
	if s := front.ServedFrom(ctx); s != nil {
		s.AddAttrs(slog.Group("rules", outcomes...)) // the access log line names each rule's outcome
	}
	for _, res := range v.Results {
		effect := "none"
		switch res.Rule {
		case v.Failed:
			effect = "failed"
		case v.Blocked:
			effect = "blocked"
		case v.RoutedBy:
			effect = "routed"
		}
		level := slog.LevelInfo
		attrs := []slog.Attr{slog.String("listener", listenerName), slog.String("api", api),
			slog.String("rule", res.Rule), slog.String("deployment", res.Deployment), slog.String("outcome", headerValue(res)), //vocab:not-spec log attribute keys
			slog.Bool("fired", res.Fired), slog.String("effect", effect)}
		if len(res.Unknown) > 0 {
			level = slog.LevelWarn
			attrs = append(attrs, slog.Int("unknown_answers", len(res.Unknown)), slog.String("reason", unknownReason(&res))) //vocab:not-spec log attribute key
		}
		ev.Log.LogAttrs(ctx, level, "rule outcome", attrs...)
	}
}

// unknownReason is the first unknown answer's reason, a fixed word.
func unknownReason(res *Result) string {
	for _, a := range res.Response.Answers {
		if a.Error != "" {
			return a.Reason
		}
	}
	return ""
}

// headerValue is a result's x-vsr-rule-<name> value.
func headerValue(res Result) string {
	if len(res.Unknown) > 0 {
		return MatchUnknown
	}
	return res.Match
}

// outcomeLabel is a result's outcome as vsr_rule_outcomes_total
// counts it: its match (matched, not_matched, unknown), or for a rule
// without a match unknown or answered.
func outcomeLabel(res *Result) string { return cmp.Or(headerValue(*res), OutcomeAnswered) }
