package rules

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/vllm-sr/systemone/generated/fieldtable"
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/llmproxy"
	"github.com/vllm-sr/systemone/runtime/observe"
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

// Result is one rule's evaluation.
type Result struct {
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

// Evaluator evaluates the Router's rules of one configuration on its
// deployments. It is safe for concurrent use.
type Evaluator struct {
	Config      *routerconfig.Config
	Deployments Deployments
	// Metrics count each rule's outcome; Log gets each served request's.
	Metrics *observe.Metrics
	Log     *slog.Logger
}

// Deployments is how rules reach the deployments they are bound to: the
// Router's, through the engine, under each deployment's health and
// circuit.
type Deployments interface {
	// Admit is why deployment d takes no call now (its health refuses it,
	// its circuit is open), nil when it takes one; done ends what
	// admitting took (a half-open circuit's probe) once the rules are
	// answered.
	Admit(d *routerconfig.Deployment) (refusal *ir.ErrorBody, done func())
	// Run runs batch on d through the engine, by deadline (ctx has it),
	// and returns its outcome, answered per item, or the error that
	// answers every item.
	Run(ctx context.Context, d *routerconfig.Deployment, batch *ir.Batch, deadline time.Time) (listener.Outcome, *ir.ErrorBody)
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
//
// A rule whose input names image or video reads none here: Decide gives
// text parts only (the served traffic's turn media are read by Run).
func (ev *Evaluator) Decide(ctx context.Context, rules []string, input map[string]string) ([]Result, error) {
	picked, err := ev.rules(rules, input)
	if err != nil {
		return nil, err
	}
	return ev.decide(ctx, picked, llmproxy.Input{Parts: input}), nil
}

// decide evaluates the picked rules as one stage over in (Decide).
func (ev *Evaluator) decide(ctx context.Context, picked []*routerconfig.Rule, in llmproxy.Input) []Result {
	type batchKey struct {
		deployment string
		timeout    time.Duration
	}
	groups := map[batchKey][]*routerconfig.Rule{} // each in the order the rules were named
	for _, rule := range picked {
		k := batchKey{rule.Deployment, rule.Timeout}
		groups[k] = append(groups[k], rule)
	}
	byRule := map[string]Result{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, g := range groups {
		wg.Go(func() {
			results := ev.decideOn(ctx, g, in)
			mu.Lock()
			for _, res := range results {
				byRule[res.Rule] = res
			}
			mu.Unlock()
		})
	}
	wg.Wait()
	out := make([]Result, len(picked))
	for i, rule := range picked {
		out[i] = byRule[rule.Name]
	}
	return out
}

// rules resolves the rule names and checks the input's part names.
func (ev *Evaluator) rules(names []string, input map[string]string) ([]*routerconfig.Rule, error) {
	for part := range input {
		if !slices.Contains(routerconfig.InputParts, part) {
			return nil, fmt.Errorf("unknown input part %q; allowed: %s", part, strings.Join(routerconfig.InputParts, ", "))
		}
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("no rule named; the configuration has: %s", strings.Join(ev.ruleNames(), ", "))
	}
	var out []*routerconfig.Rule
	for _, name := range names {
		i := slices.IndexFunc(ev.Config.Rules, func(x routerconfig.Rule) bool { return x.Name == name })
		switch {
		case i < 0:
			return nil, fmt.Errorf("unknown rule %q; the configuration has: %s", name, strings.Join(ev.ruleNames(), ", "))
		case slices.ContainsFunc(out, func(x *routerconfig.Rule) bool { return x.Name == name }):
			return nil, fmt.Errorf("rule %q is named twice", name)
		}
		out = append(out, &ev.Config.Rules[i])
	}
	return out, nil
}

func (ev *Evaluator) ruleNames() []string {
	out := make([]string, len(ev.Config.Rules))
	for i, x := range ev.Config.Rules {
		out[i] = x.Name
	}
	return out
}

// decideOn sends rules bound to one deployment with one timeout_ms as
// one batch through the engine (Deployments.Run): planned by the
// deployment's codec, called over HTTP, and reassembled per rule. A rule that cannot go is answered
// unknown without a call (held): every rule, while the deployment's health
// refuses it or its circuit is open; a rule reading turn media the Router
// cannot send, or more of it than the batch's share of the body limit
// (maxRuleMediaBytes).
func (ev *Evaluator) decideOn(ctx context.Context, rules []*routerconfig.Rule, in llmproxy.Input) []Result {
	d, _ := ev.Config.Deployment(rules[0].Deployment)
	var timeout time.Duration
	batch := &ir.Batch{}
	held := map[string]*ir.ErrorBody{}
	refused, done := ev.Deployments.Admit(d) // not by its health, nor while its circuit is open
	defer done()
	var mediaBytes int64
	for _, rule := range rules {
		timeout = max(timeout, rule.Timeout)
		if e := cmp.Or(refused, mediaRefusal(rule, &in.Media, &mediaBytes)); e != nil {
			held[rule.Name] = e
			continue
		}
		batch.Items = append(batch.Items, ir.BatchItem{Name: rule.Name, Request: Request(rule, d.Codec.Traits(), in)})
	}
	ms := timeout.Milliseconds()
	batch.Options = &ir.Options{DeadlineMs: &ms}
	deadline := time.Now().Add(timeout)
	// The deadline bounds the whole evaluation, a first fetch of the
	// deployment's listing for its capabilities included.
	ctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	answered := map[string]*ir.Response{}
	if len(batch.Items) > 0 {
		out, e := ev.Deployments.Run(ctx, d, batch, deadline)
		for i, it := range batch.Items {
			if e != nil {
				held[it.Name] = e
				continue
			}
			answered[it.Name] = &out.Batch.Responses[i].Response
		}
	}
	results := make([]Result, len(rules))
	for i, rule := range rules {
		res := Result{Rule: rule.Name, Deployment: d.Name, Response: answered[rule.Name]}
		if res.Response == nil {
			res.Response = &ir.Response{Answers: failedRule(rule, held[rule.Name]), Usage: &ir.Usage{}}
		}
		res.Outcome = OutcomeAnswered
		for _, a := range res.Response.Answers {
			if a.Error != "" {
				res.Unknown = append(res.Unknown, a.Name)
				res.Outcome = string(rule.OnUnknown)
			}
		}
		res.Match, res.Fired = evaluateMatch(rule, &res)
		ev.Metrics.RuleOutcome(rule.Name, outcomeLabel(&res))
		results[i] = res
	}
	return results
}

// maxRuleMediaBytes bounds the turn media one rule batch carries, in
// base64 bytes summed over its rules: half the body_bytes limit, which
// every call is under, leaving the rest to the state's text. A rule's
// media that would pass it are not sent.
const maxRuleMediaBytes = vocab.LimitBodyBytes / 2

// mediaRefusal is why rule cannot read the turn's media (nil when it can,
// or reads none), adding what it would send to *total: a medium of a type
// it reads that the Router cannot send, or more than maxRuleMediaBytes in
// the batch so far.
func mediaRefusal(rule *routerconfig.Rule, media *llmproxy.Media, total *int64) *ir.ErrorBody {
	if len(rule.Media) == 0 {
		return nil
	}
	if t := media.UnreadFor(rule.Media); t != "" {
		return &ir.ErrorBody{Status: http.StatusBadRequest, Code: ir.ErrorInvalidRequest, Reason: vocab.ReasonMediaNotRead,
			Message: "the turn has a " + string(t) + " the Router cannot send as an asset: not a base64 data: URL or source of a format " + string(t) + " assets take (the Router fetches nothing)"}
	}
	n := media.Bytes(rule.Media)
	if *total+n > maxRuleMediaBytes {
		return &ir.ErrorBody{Status: http.StatusRequestEntityTooLarge, Code: ir.ErrorRequestTooLarge, Reason: vocab.ReasonMediaTooLarge, Limit: new(int64(maxRuleMediaBytes)),
			Message: "the turn's media the rule reads would pass the batch's share of the body limit"}
	}
	*total += n
	return nil
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

// Request is the request a rule sends: its questions over a state of
// its input parts, part name to text in the rule's order, with the turn's
// media the rule reads in front of it as assets (["⟦img-1⟧", "⟦vid-1⟧",
// {parts}]). The parts keep the roles they have always had: explicit roles
// (the generated implicit role of each part name), except where the
// target's schema reads a state's keys as implicit roles (the internal
// form), which leaves roles absent: the same roles. Media in front keep
// explicit roles there too: implicit roles are 4.0's reading, where such
// an array labels its assets instead.
func Request(rule *routerconfig.Rule, traits tc.Traits, in llmproxy.Input) ir.Request {
	state := make([]jsonvalue.Member, len(rule.Input))
	roles := ir.Roles{Mode: ir.RoleModeExplicit}
	for i, part := range rule.Input {
		state[i] = jsonvalue.Member{Name: part, Value: jsonvalue.String(in.Parts[part])}
		roles.Parts = append(roles.Parts, ir.RolePart{Key: part, Role: ir.Role(fieldtable.ImplicitRole(part))})
	}
	obj, _ := jsonvalue.Object(state...)
	assets, placeholders := in.Media.ForRule(rule.Media)
	if len(assets) == 0 {
		if traits.ImplicitRoles {
			roles = ir.Roles{Mode: ir.RoleModeImplicit}
		}
		return ir.Request{State: obj, Roles: roles, Questions: slices.Clone(rule.Questions)}
	}
	return ir.Request{State: jsonvalue.Array(append(placeholders, obj)...), Roles: roles, Assets: assets,
		Questions: slices.Clone(rule.Questions)}
}
