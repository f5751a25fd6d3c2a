package routerconfig

import (
	"slices"
	"strings"
	"time"

	yaml "go.yaml.in/yaml/v3"

	"github.com/vllm-sr/systemone/generated/fieldtable"
	"github.com/vllm-sr/systemone/generated/validate"
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/table"
)

var ruleKeys = keysOf(ruleForm{})

// maxTimeoutMs bounds a rule's timeout: ten minutes.
const maxTimeoutMs = 600_000

func (l *loader) rules(n *yaml.Node) {
	l.keyedSections(n, "rules", nameKey, ruleKeys, requiredOf(ruleForm{}), func(name string, s section, _ bool) {
		l.declaredRules = append(l.declaredRules, name)
		// A rule missing keys is still read, so one load reports the
		// problems of the keys present too.
		if rule, ok := l.rule(name, s); ok {
			l.cfg.Rules = append(l.cfg.Rules, rule)
		}
	})
	slices.SortFunc(l.cfg.Rules, func(a, b Rule) int { return strings.Compare(a.Name, b.Name) })
}

// rule reads one rule and checks it against its deployment.
func (l *loader) rule(name string, s section) (Rule, bool) {
	rule := Rule{Name: name, OnUnknown: OnUnknownSkip}
	_, hasDeployment := s.value("deployment") //vocab:not-spec Router config key
	var d *Deployment
	if dep, ok := s.str("deployment"); ok { //vocab:not-spec Router config key
		rule.Deployment = dep
		if d, ok = l.cfg.Deployment(dep); !ok {
			msg := "names no deployment"
			if _, pool := l.cfg.Pool(dep); pool {
				msg = "names a pool; a rule asks one deployment"
			}
			s.fail("deployment", "%s", msg) //vocab:not-spec Router config key
		}
	}
	before := len(l.problems)
	media := l.readRest(&rule, s)
	questions, has := s.value("questions") //vocab:not-spec Router config key
	if !hasDeployment || !has {
		return rule, false
	}
	req, at := l.questions(&rule, d, questions, s.at("questions")) //vocab:not-spec Router config key
	if req == nil {
		return rule, false
	}
	rule.Questions, rule.Roles = req.Questions, req.Roles
	// A rule is checked against its deployment only once it has no
	// problem of its own; its match is read either way.
	if d != nil && d.Codec != nil && len(l.problems) == before {
		l.checkCarry(&rule, req, d, at, questions)
		l.checkMedia(&rule, d, media)
	}
	l.readMatch(&rule, s)
	return rule, len(l.problems) == before
}

// readRest reads a rule's input, timeout_ms, on_unknown, action and
// route, those present, and returns where the input lists each medium.
func (l *loader) readRest(rule *Rule, s section) map[ir.AssetType]listed {
	l.readAction(rule, s)
	media := l.readInput(rule, s)
	if n, has := s.value("timeout_ms"); has {
		if ms, ok := l.integer(n, s.at("timeout_ms"), 1, maxTimeoutMs); ok {
			rule.Timeout = time.Duration(ms) * time.Millisecond
		}
	}
	if v, ok := s.oneOf("on_unknown", onUnknownValues); ok {
		rule.OnUnknown = OnUnknown(v)
	}
	return media
}

// listed is where a list names an item: its node and its location.
type listed struct {
	at   *yaml.Node
	path string
}

// readInput reads a rule's input: known part names, at least one, and
// the turn's media (image, video), in InputMedia order.
func (l *loader) readInput(rule *Rule, s section) map[ir.AssetType]listed {
	n, has := s.value("input") //vocab:not-spec Router config key
	if !has {
		return nil
	}
	allowed := slices.Clone(InputParts)
	for _, m := range InputMedia {
		allowed = append(allowed, string(m))
	}
	media := map[ir.AssetType]listed{}
	items, ok := l.items(n, s.at("input"), "lists no part", func(p string, at *yaml.Node, path string) { //vocab:not-spec Router config key
		switch m := ir.AssetType(p); {
		case slices.Contains(InputParts, p):
			rule.Input = append(rule.Input, p)
		case !slices.Contains(InputMedia, m):
			l.fail(at, path, "unknown part; allowed: %s", strings.Join(allowed, ", "))
		default: // listed once: strList refuses an item listed twice
			media[m] = listed{at: at, path: path}
		}
	})
	for _, m := range InputMedia {
		if media[m].at != nil {
			rule.Media = append(rule.Media, m)
		}
	}
	if ok && len(items) > 0 && len(rule.Input) == 0 && len(rule.Media) > 0 {
		l.fail(n, s.at("input"), "lists no part: a turn's media go in front of the state's parts, so a rule reads at least one (request, ...)") //vocab:not-spec Router config key
	}
	return media
}

// questions reads a rule's questions as a 5.0 request over the rule's
// input parts, checked by the generated vllm-sr/5.0 validator, and returns
// it in the IR with the node of each JSON Pointer; nil after reporting
// problems.
func (l *loader) questions(rule *Rule, d *Deployment, n *yaml.Node, path string) (*ir.Request, map[string]*yaml.Node) {
	entries, ok := l.mapping(n, path, false)
	if !ok {
		return nil, nil
	}
	if len(entries) == 0 {
		l.fail(n, path, "asks no question")
		return nil, nil
	}
	at := map[string]*yaml.Node{}
	members := make([]jsonvalue.Member, 0, len(entries))
	for _, e := range entries {
		qpath := join(path, e.Key)
		q, good := l.jsonOf(e.Value, qpath, "/"+vocab.RequestQuestions+"/"+escapePointer(e.Key), at)
		if !good {
			return nil, nil
		}
		members = append(members, jsonvalue.Member{Name: e.Key, Value: l.withPreset(q, e.Value, qpath)})
	}
	body := ruleRequest(rule, d, members)
	if problems := validate.RequestVllmSR50(body); len(problems) > 0 {
		for _, p := range problems {
			l.fail(nodeAt(at, p.Path, n), questionsPath(path, p.Path), "%s", strings.TrimPrefix(p.Message(), p.Path+": "))
		}
		return nil, nil
	}
	// The rule's request is a vllm-sr/5.0 request, read by that schema's
	// listener codec as a client's would be.
	codec, err := l.regs.Schemas.Listener(table.SchemaVllmSR50)
	if err != nil {
		l.fail(n, path, "%v", err)
		return nil, nil
	}
	cr, err := codec.Read(listener.EndpointSystemOne, jsonvalue.Compact(body), nil)
	if err != nil {
		l.fail(n, path, "%s", refusalText(err))
		return nil, nil
	}
	l.checkOver(cr.Request, rule, at, path)
	return cr.Request, at
}

// ruleRequest builds the request the rule sends: its questions over a
// state of its input parts, each part given the role 4.0 gave it.
func ruleRequest(rule *Rule, d *Deployment, questions []jsonvalue.Member) jsonvalue.Value {
	model := rule.Deployment
	if d != nil && d.Model != "" {
		model = d.Model
	}
	var state, roles []jsonvalue.Member
	for _, part := range rule.Input {
		state = append(state, jsonvalue.Member{Name: part, Value: jsonvalue.String("")})
		roles = append(roles, jsonvalue.Member{Name: part, Value: jsonvalue.String(fieldtable.ImplicitRole(part))})
	}
	obj := func(m []jsonvalue.Member) jsonvalue.Value { v, _ := jsonvalue.Object(m...); return v }
	body := []jsonvalue.Member{
		{Name: vocab.RequestModel, Value: jsonvalue.String(model)},
		{Name: vocab.RequestState, Value: obj(state)},
		{Name: vocab.RequestRoles, Value: obj(roles)},
		{Name: vocab.RequestQuestions, Value: obj(questions)},
	}
	return obj(body)
}

// checkOver refuses an over that names a part the rule does not build.
func (l *loader) checkOver(r *ir.Request, rule *Rule, at map[string]*yaml.Node, path string) {
	for _, q := range r.Questions {
		for _, key := range q.Over {
			if !slices.Contains(rule.Input, key) {
				pointer := "/" + vocab.RequestQuestions + "/" + escapePointer(q.Name) + "/" + vocab.QuestionOver
				l.fail(nodeAt(at, pointer, nil), join(join(path, q.Name), vocab.QuestionOver), "names a part the rule's input does not list")
			}
		}
	}
}

// nodeAt returns the node of pointer, or of its nearest ancestor that has
// one (a missing member is reported on the object that lacks it).
func nodeAt(at map[string]*yaml.Node, pointer string, fallback *yaml.Node) *yaml.Node {
	for p := pointer; ; {
		if n, ok := at[p]; ok {
			return n
		}
		i := strings.LastIndexByte(p, '/')
		if i < 0 {
			return fallback
		}
		p = p[:i]
	}
}

// refusalText is a listener refusal's message.
func refusalText(err error) string {
	if r, ok := err.(*listener.Refusal); ok {
		return r.Body.Message
	}
	return err.Error()
}

// questionsPath is the location, under a rule's path, of a problem the
// validator found at pointer in the rule's request: its segments below
// /questions, each joined as a key.
func questionsPath(path, pointer string) string {
	rest := strings.TrimPrefix(pointer, "/"+vocab.RequestQuestions)
	if rest == "" {
		return path
	}
	for _, seg := range strings.Split(rest[1:], "/") {
		path = join(path, seg)
	}
	return path
}
