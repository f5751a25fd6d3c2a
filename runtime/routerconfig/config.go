package routerconfig

import (
	"time"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/registry"
	"github.com/vllm-sr/systemone/runtime/table"
	"github.com/vllm-sr/systemone/runtime/target"
)

// Config is a loaded, checked configuration. Listeners keep file order;
// upstreams, deployments, pools and rules are sorted by name.
type Config struct {
	// AdminAddress, when set, serves /health, /ready and /metrics, which
	// the listeners then do not; "" keeps them on every listener.
	AdminAddress string
	Listeners    []Listener
	Upstreams    []Upstream
	Deployments  []Deployment
	Pools        []Pool
	Rules        []Rule
	// Tracing is where spans are exported; zero: nowhere (tracing.go).
	Tracing Tracing
	// SHA256 is the hex SHA-256 of the configuration's bytes as loaded
	// (the file's, for LoadFile): which configuration is in force. Key
	// files are not in it.
	SHA256 string
	// Warnings are what the configuration should change but may keep
	// (a key file any user can read), in file order; they do not refuse
	// the load.
	Warnings []Problem
}

// Listener is one address the Router serves clients on.
type Listener struct {
	Name    string
	Address string
	// APIs are the APIs served, sorted by name: the listed ones, or the
	// registry's defaults when the listener has no apis map.
	APIs []ListenerAPI
	// Listed: the configuration gave an apis map, so exactly those APIs are
	// served and any other API path answers 404.
	Listed bool
	// Rules name the rules run on every LLM request the listener serves,
	// in order, before its API's own (ListenerAPI.Rules).
	Rules []string
	// APIKeysEnv names the environment variable, or APIKeysFile the key
	// file, APIKeys were read from at load (one of the two). With keys,
	// every request but /health, /ready and /metrics must present one as
	// Authorization: Bearer; nil: no key is needed.
	APIKeysEnv, APIKeysFile string
	APIKeys                 []Secret
	// MaxInFlight is max_in_flight, else DefaultMaxInFlight: the requests
	// the listener serves at once (every path but /health, /ready and
	// /metrics); one more is answered 529 before its body is read.
	MaxInFlight int
}

// RulesFor is the rules run on a request of api, in order: the
// listener's, then the API's own.
func (l *Listener) RulesFor(api *ListenerAPI) []string {
	if len(api.Rules) == 0 {
		return l.Rules
	}
	return append(append([]string(nil), l.Rules...), api.Rules...)
}

// Serves returns the entry of the API named name (or aliased by it).
func (l *Listener) Serves(name string, apis *registry.APIs) (*ListenerAPI, bool) {
	canonical, ok := apis.Canonical(name)
	if !ok {
		return nil, false
	}
	for i := range l.APIs {
		if l.APIs[i].API.Name == canonical {
			return &l.APIs[i], true
		}
	}
	return nil, false
}

// ListenerAPI is one API a listener serves.
type ListenerAPI struct {
	API registry.API
	// Schema is the schema the listener speaks on it: the configured one,
	// else the API's listener default.
	Schema table.SchemaID
	// Codec reads clients in Schema; nil for an LLM API (forwarded
	// unchanged).
	Codec listener.Codec
	// Models are the models served; nil: every model of the API's kind.
	Models []string
	// Settings are the API's settings the configuration gave, sorted by name.
	Settings []SettingValue
	// Rules name the rules run on each request of this (LLM) API, after
	// the listener's own, in order.
	Rules []string
}

// Setting returns the value of the setting named name, if given.
func (a *ListenerAPI) Setting(name string) (int64, bool) {
	for _, s := range a.Settings {
		if s.Name == name {
			return s.Value, true
		}
	}
	return 0, false
}

// SettingValue is one configured API setting.
type SettingValue struct {
	Name  string
	Value int64
}

// Upstream is an LLM API upstream; its bodies are forwarded unchanged.
type Upstream struct {
	Name string
	// API is the API format it speaks (api_format, aliases resolved).
	API      string
	Endpoint string
	// Schema is the API's schema it is called with.
	Schema table.SchemaID
	// Models are the client model names it serves.
	Models []string
	// APIKeyEnv names the environment variable, or APIKeyFile the key
	// file, APIKey was read from at load (one of the two); the key goes
	// upstream as Authorization: Bearer. Empty: none.
	APIKeyEnv, APIKeyFile string
	APIKey                Secret
}

// Deployment is one System One model endpoint the Router calls.
type Deployment struct {
	// Name is the configuration key: what a client's model names.
	Name     string
	Endpoint string
	// Model is what goes upstream as the request's model.
	Model  string
	Schema table.SchemaID
	Codec  target.Codec
	// DeviationIDs and Deviations are applied after the codec, in order.
	DeviationIDs []string
	Deviations   []target.Deviation
	// MaxConcurrency is max_concurrency, else target.DefaultMaxConcurrency.
	MaxConcurrency int
	// Fleet is its readiness, retries, timeout and circuit (fleet.go).
	Fleet Fleet
	// Card is the catalogue's card of Model; nil for a model the catalogue
	// does not know.
	Card *table.Card
	// Declared are the capabilities the configuration declares, for a
	// target with no card.
	Declared target.CapabilitySet
	// Capabilities are what the target answers and reads, by question type
	// and medium: the card's, else the declared ones, else everything the
	// schema carries.
	Capabilities target.CapabilitySet
	// APIKeyEnv names the environment variable, or APIKeyFile the key
	// file, APIKey was read from at load (one of the two); the key goes
	// upstream as Authorization: Bearer on every call and listing fetch.
	// Empty: none.
	APIKeyEnv, APIKeyFile string
	APIKey                Secret
}

// Target returns the deployment as a codec's plan target, made for every
// request. Its slices are the deployment's own, as Traits.Capabilities
// are the codec's: codecs read a target, never modify it.
func (d *Deployment) Target() target.Target {
	return target.Target{
		Deployment:     d.Name,
		Endpoint:       d.Endpoint,
		Model:          d.Model,
		MaxConcurrency: d.MaxConcurrency,
		Capabilities:   d.Capabilities,
		Deviations:     d.DeviationIDs,
	}
}

// Pool is a named set of deployments a client's model may name, such as
// vllm-sr/auto, routed by capability.
type Pool struct {
	Name    string
	Members []string
}

// OnUnknown is what a rule does when a question's answer is unknown: the
// call failed, missed the rule's timeout or the caller's deadline, or the
// question came back with an error.
type OnUnknown string

const (
	// OnUnknownSkip: the rule does not fire; the decision goes on as if it
	// had not matched. The default, for advisory signals.
	OnUnknownSkip OnUnknown = "skip"
	// OnUnknownMatch: the rule fires as if it had matched (fail closed),
	// for guards such as a jailbreak check that must not let a request
	// through unchecked.
	OnUnknownMatch OnUnknown = "match"
	// OnUnknownFail: the client's request fails with 503 naming the rule,
	// for decisions no route may be taken without.
	OnUnknownFail OnUnknown = "fail"
)

var onUnknownValues = []string{string(OnUnknownFail), string(OnUnknownMatch), string(OnUnknownSkip)}

// InputParts are the part names a rule's input may list: the names the
// models were trained and calibrated on, kept for Router-built states.
var InputParts = []string{vocab.PartRequest, vocab.PartHistory, vocab.PartPreviousTurns, vocab.PartPreviousAnswer,
	vocab.PartToolResults, vocab.PartCandidate, vocab.PartAnswer, vocab.PartContext}

// InputMedia are the media a rule's input may list besides its parts: the
// turn's images and videos, which the Router places in front of the
// state's parts, images first (the API guide's media layout).
var InputMedia = []ir.AssetType{ir.AssetImage, ir.AssetVideo}

// Rule is one named decision the Router asks a deployment.
type Rule struct {
	Name       string
	Deployment string
	// Input are the state parts the Router builds, in order.
	Input []string
	// Media are the turn's media the rule reads, in InputMedia order,
	// whatever order its input lists them in: placed in front of the
	// parts, each an asset.
	Media     []ir.AssetType
	Timeout   time.Duration
	OnUnknown OnUnknown
	// Questions are the rule's questions in the IR, in file order: every
	// one a complete 5.0 question, presets expanded into their canonical
	// instructions and criteria where the configuration left them out.
	Questions []ir.Question
	// Roles give each input part its role, as 4.0's implicit roles did.
	Roles ir.Roles
	// Match are the conditions that all hold when the rule matches: the
	// configured match, else P(yes) >= 0.5 on each question answering a
	// noul (noul, set, span). Empty: the rule cannot match, so no
	// listener may run it (vllm-sr decide still shows its answers).
	Match []Condition
	// Action is what a rule run on traffic does when it fires; Route is
	// set for ActionRoute.
	Action Action
	Route  *Route
}

// Condition is one question's part of a rule's match.
type Condition struct {
	Question string
	Type     table.QuestionType
	// AtLeast: the answer's noul (noul, set, span) or score (score) is at
	// least this. Choices: a choice answer's choice is one of these.
	AtLeast *float64
	Choices []string
}

// DefaultNoulMatch is the P(yes) a noul answer matches at when the rule
// gives no match.
const DefaultNoulMatch = 0.5

// Action is what a rule does to the request it fires on.
type Action string

const (
	// ActionNone: the rule only reports its outcome (the upstream header,
	// the log and the metrics).
	ActionNone Action = ""
	// ActionBlock: the request is refused in its API's error shape, naming
	// the rule; the upstream is never called.
	ActionBlock Action = "block"
	// ActionRoute: the request goes to the rule's upstream or model; the
	// first fired route rule in order wins.
	ActionRoute Action = "route"
)

// Route is where a route rule sends the request: an LLM upstream, a
// model, or both. With only a model, the upstream of the request's API
// serving it; with only an upstream, the request's own model.
type Route struct {
	Upstream string
	Model    string
}

// Deployment returns the deployment named name.
func (c *Config) Deployment(name string) (*Deployment, bool) {
	return named(c.Deployments, name, func(d *Deployment) string { return d.Name })
}

// Pool returns the pool named name.
func (c *Config) Pool(name string) (*Pool, bool) {
	return named(c.Pools, name, func(p *Pool) string { return p.Name })
}

// Rule returns the rule named name.
func (c *Config) Rule(name string) (*Rule, bool) {
	return named(c.Rules, name, func(r *Rule) string { return r.Name })
}

func (c *Config) upstream(name string) *Upstream {
	u, _ := named(c.Upstreams, name, func(u *Upstream) string { return u.Name })
	return u
}

func named[T any](list []T, name string, nameOf func(*T) string) (*T, bool) {
	for i := range list {
		if nameOf(&list[i]) == name {
			return &list[i], true
		}
	}
	return nil, false
}

// Route returns the deployments a client's model reaches: the deployment
// it names, or the members of the pool it names, in pool order.
func (c *Config) Route(model string) ([]*Deployment, bool) {
	if d, ok := c.Deployment(model); ok {
		return []*Deployment{d}, true
	}
	p, ok := c.Pool(model)
	if !ok {
		return nil, false
	}
	out := make([]*Deployment, 0, len(p.Members))
	for _, m := range p.Members {
		d, _ := c.Deployment(m)
		out = append(out, d)
	}
	return out, true
}
