package router

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/vllm-sr/systemone/generated/fieldtable"
	"github.com/vllm-sr/systemone/runtime/engine"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/routerconfig"
	tc "github.com/vllm-sr/systemone/runtime/target"
)

// The outcomes of a rule: answered, or with an unknown answer, its
// on_unknown policy.
const (
	OutcomeAnswered = "answered"
	OutcomeSkip     = string(routerconfig.OnUnknownSkip)
	OutcomeMatch    = string(routerconfig.OnUnknownMatch)
	OutcomeFail     = string(routerconfig.OnUnknownFail)
)

// What a rule's answers say against its match: the value of its
// x-vsr-rule-<name> header upstream.
const (
	MatchMatched    = "matched"
	MatchNotMatched = "not_matched"
	MatchUnknown    = "unknown"
)

// RuleResult is one rule's evaluation.
type RuleResult struct {
	Rule       string
	Deployment string
	// Response holds the rule's answers in question order; an unknown
	// answer carries its error.
	Response *ir.Response
	// Unknown names the questions whose answer is unknown, in order.
	Unknown []string
	// Outcome is OutcomeAnswered, or the rule's on_unknown policy when an
	// answer is unknown.
	Outcome string
	// Match is MatchMatched or MatchNotMatched for answers checked against
	// the rule's match, MatchUnknown when an answer is unknown; "" for a
	// rule that has no match (it cannot run on traffic).
	Match string
	// Fired: the rule matched, or an answer is unknown and its on_unknown
	// is match. A fired rule's action applies on traffic.
	Fired bool
}

// Decide evaluates the named rules as one stage over the input parts
// (part name to text; a part a rule reads that is not given is empty).
// The rules bound to one deployment with one timeout_ms travel as one
// batch, which its target codec sends as a bundle or a batch call, or
// splits under max_concurrency where the target has neither; the batch's
// deadline is that timeout_ms, also sent as options.deadline_ms where the
// schema carries it, so each rule is bounded by its own timeout. The
// batches run concurrently. Results come back in the order the rules
// were named.
func (r *Router) Decide(ctx context.Context, rules []string, input map[string]string) ([]RuleResult, error) {
	picked, err := r.rules(rules, input)
	if err != nil {
		return nil, err
	}
	type batchKey struct {
		deployment string
		timeout    time.Duration
	}
	groups := map[batchKey][]*routerconfig.Rule{} // each in the order the rules were named
	for _, rule := range picked {
		k := batchKey{rule.Deployment, rule.Timeout}
		groups[k] = append(groups[k], rule)
	}
	byRule := map[string]RuleResult{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, g := range groups {
		wg.Go(func() {
			results := r.decideOn(ctx, g, input)
			mu.Lock()
			for _, res := range results {
				byRule[res.Rule] = res
			}
			mu.Unlock()
		})
	}
	wg.Wait()
	out := make([]RuleResult, len(picked))
	for i, rule := range picked {
		out[i] = byRule[rule.Name]
	}
	return out, nil
}

// rules resolves the rule names and checks the input's part names.
func (r *Router) rules(names []string, input map[string]string) ([]*routerconfig.Rule, error) {
	for part := range input {
		if !slices.Contains(routerconfig.InputParts, part) {
			return nil, fmt.Errorf("unknown input part %q; allowed: %s", part, strings.Join(routerconfig.InputParts, ", "))
		}
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("no rule named; the configuration has: %s", strings.Join(r.ruleNames(), ", "))
	}
	var out []*routerconfig.Rule
	for _, name := range names {
		i := slices.IndexFunc(r.cfg.Rules, func(x routerconfig.Rule) bool { return x.Name == name })
		switch {
		case i < 0:
			return nil, fmt.Errorf("unknown rule %q; the configuration has: %s", name, strings.Join(r.ruleNames(), ", "))
		case slices.ContainsFunc(out, func(x *routerconfig.Rule) bool { return x.Name == name }):
			return nil, fmt.Errorf("rule %q is named twice", name)
		}
		out = append(out, &r.cfg.Rules[i])
	}
	return out, nil
}

func (r *Router) ruleNames() []string {
	out := make([]string, len(r.cfg.Rules))
	for i, x := range r.cfg.Rules {
		out[i] = x.Name
	}
	return out
}

// decideOn sends rules bound to one deployment with one timeout_ms as
// one batch through the engine: planned by the deployment's codec, called
// over HTTP, and reassembled per rule.
func (r *Router) decideOn(ctx context.Context, rules []*routerconfig.Rule, input map[string]string) []RuleResult {
	d, _ := r.cfg.Deployment(rules[0].Deployment)
	var timeout time.Duration
	batch := &ir.Batch{}
	for _, rule := range rules {
		timeout = max(timeout, rule.Timeout)
		batch.Items = append(batch.Items, ir.BatchItem{Name: rule.Name, Request: ruleRequest(rule, d.Codec.Traits(), input)})
	}
	ms := timeout.Milliseconds()
	batch.Options = &ir.Options{DeadlineMs: &ms}
	deadline := time.Now().Add(timeout)
	// The deadline bounds the whole evaluation, a first fetch of the
	// deployment's listing for its capabilities included.
	ctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	x := &engine.Exchange{Batch: batch}
	e := r.plan(ctx, x, d, r.capabilities(ctx, d), deadline)
	var out listener.Outcome
	if e == nil {
		out, _, e = x.Call(ctx)
	}
	results := make([]RuleResult, len(rules))
	for i, rule := range rules {
		res := RuleResult{Rule: rule.Name, Deployment: d.Name}
		if e == nil {
			resp := out.Batch.Responses[i].Response
			res.Response = &resp
		} else {
			res.Response = &ir.Response{Answers: failedRule(rule, e), Usage: &ir.Usage{}}
		}
		res.Outcome = OutcomeAnswered
		for _, a := range res.Response.Answers {
			if a.Error != "" {
				res.Unknown = append(res.Unknown, a.Name)
				res.Outcome = string(rule.OnUnknown)
			}
		}
		res.Match, res.Fired = evaluateMatch(rule, &res)
		r.metrics.RuleOutcome(rule.Name, ruleOutcomeLabel(&res))
		results[i] = res
	}
	return results
}

// failedRule answers every question of a rule whose batch could not be
// planned with the error's question code.
func failedRule(rule *routerconfig.Rule, e *ir.ErrorBody) []ir.Answer {
	out := make([]ir.Answer, len(rule.Questions))
	for i, q := range rule.Questions {
		out[i] = ir.Answer{Name: q.Name, Type: q.Type, Error: tc.QuestionErrorOf(e), Reason: e.Reason, Message: e.Message}
	}
	return out
}

// ruleRequest is the request a rule sends: its questions over a state of
// its input parts, part name to text in the rule's order. The parts keep
// the roles they have always had: explicit roles (the generated implicit
// role of each part name), except where the target's schema reads a
// state's keys as implicit roles (the internal form), which leaves roles
// absent: the same roles.
func ruleRequest(rule *routerconfig.Rule, traits tc.Traits, input map[string]string) ir.Request {
	state := make([]jsonvalue.Member, len(rule.Input))
	roles := ir.Roles{Mode: ir.RoleModeExplicit}
	for i, part := range rule.Input {
		state[i] = jsonvalue.Member{Name: part, Value: jsonvalue.String(input[part])}
		roles.Parts = append(roles.Parts, ir.RolePart{Key: part, Role: ir.Role(fieldtable.ImplicitRole(part))})
	}
	if traits.ImplicitRoles {
		roles = ir.Roles{Mode: ir.RoleModeImplicit}
	}
	obj, _ := jsonvalue.Object(state...)
	return ir.Request{State: obj, Roles: roles, Questions: slices.Clone(rule.Questions)}
}
