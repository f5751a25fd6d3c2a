package routerconfig

import (
	"fmt"
	"slices"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/registry"
	"github.com/vllm-sr/systemone/runtime/table"
)

var listenerKeys = keysOf(listenerForm{})

// keyMaxInFlight bounds a listener's requests in flight.
const keyMaxInFlight = "max_in_flight" //vocab:not-spec Router config key

// DefaultMaxInFlight is a listener's max_in_flight when it sets none, and
// MaxMaxInFlight the most it may set. A request in flight holds at most
// its body (32 MiB) and its upstream calls' replies, so the bound is also
// the listener's memory bound (docs/router-config.md, "Listeners").
const (
	DefaultMaxInFlight = 256
	MaxMaxInFlight     = 65536
)

// removedListenerKeys are the listener-level fields apis replaced.
var removedListenerKeys = map[string]string{
	"models":    "removed: list the models under each API in apis (vllm-sr config migrate moves them)", //vocab:not-spec Router config key
	"systemone": "removed: serve System One with apis.systemone (vllm-sr config migrate moves it)",
}

func (l *loader) listeners(n *yaml.Node) {
	if isNull(n) {
		return
	}
	if n.Kind != yaml.SequenceNode {
		l.fail(n, "listeners", "must be a list, not %s", kindName(n))
		return
	}
	names := map[string]bool{}
	for i, item := range n.Content {
		path := fmt.Sprintf("listeners[%d]", i)
		item = resolve(item)
		s, ok := l.fields(item, path, listenerKeys, removedListenerKeys)
		if !ok {
			continue
		}
		s.require(requiredOf(listenerForm{})...)
		// at is the index lst will have in cfg.Listeners, which leaves out
		// items that are not mappings: rule references name it.
		at := len(l.cfg.Listeners)
		lst := Listener{APIs: l.defaultAPIs(), MaxInFlight: DefaultMaxInFlight}
		if name, ok := s.str("name"); ok { //vocab:not-spec Router config key
			switch {
			case !namePattern.MatchString(name):
				s.fail("name", "must be letters, digits, '.', '_' or '-'") //vocab:not-spec Router config key
			case names[name]:
				s.fail("name", "another listener has this name") //vocab:not-spec Router config key
			}
			names[name], lst.Name = true, name
		}
		if n, has := s.value("address"); has {
			lst.Address = l.readAddress(n, s.at("address"))
		}
		if n, has := s.value("apis"); has {
			lst.Listed = true
			lst.APIs = l.listenerAPIs(n, s.at("apis"), at)
		}
		if n, has := s.value(keyMaxInFlight); has {
			if v, good := l.integer(n, s.at(keyMaxInFlight), 1, MaxMaxInFlight); good {
				lst.MaxInFlight = int(v)
			}
		}
		lst.APIKeysEnv, lst.APIKeysFile, lst.APIKeys = l.apiKeys(s)
		if n, has := s.value("rules"); has { //vocab:not-spec Router config key
			lst.Rules = l.ruleNames(n, s.at("rules"), ruleRef{listener: at}) //vocab:not-spec Router config key
		}
		l.cfg.Listeners = append(l.cfg.Listeners, lst)
	}
}

// defaultAPIs are what a listener without apis serves: the registry's
// default APIs, each for every model, in its listener default schema.
func (l *loader) defaultAPIs() []ListenerAPI {
	var out []ListenerAPI
	for _, name := range l.regs.APIs.Defaults() {
		api, _ := l.regs.APIs.Lookup(name)
		out = append(out, ListenerAPI{API: api, Schema: api.ListenerDefault, Codec: l.listenerCodec(api, api.ListenerDefault, nil, "")})
	}
	return out
}

func (l *loader) listenerAPIs(n *yaml.Node, path string, listenerIndex int) []ListenerAPI {
	entries, ok := l.mapping(n, path, false)
	if !ok {
		return nil
	}
	if len(entries) == 0 {
		l.fail(n, path, "lists no API; leave apis out to serve the default APIs")
	}
	seen := map[string]string{}
	var out []ListenerAPI
	for _, e := range entries {
		api, err := l.regs.APIs.Resolve(e.Key)
		if err != nil {
			l.fail(e.KeyAt, join(path, e.Key), "%v", err)
			continue
		}
		if prev, dup := seen[api.Name]; dup {
			l.fail(e.KeyAt, join(path, e.Key), "names API %q again (already listed as %q)", api.Name, prev)
			continue
		}
		seen[api.Name] = e.Key
		if entry, ok := l.listenerAPI(api, e.Value, join(path, e.Key), listenerIndex); ok {
			out = append(out, entry)
		}
	}
	slices.SortFunc(out, func(a, b ListenerAPI) int { return strings.Compare(a.API.Name, b.API.Name) })
	return out
}

// listenerAPI reads one apis entry: schema (versioned APIs only), models,
// rules (LLM APIs only) and the API's own settings.
func (l *loader) listenerAPI(api registry.API, n *yaml.Node, path string, listenerIndex int) (ListenerAPI, bool) {
	known := []string{"models", "rules"} //vocab:not-spec Router config key
	if api.Versioned() {
		known = append(known, keySchema)
	}
	for _, s := range api.Settings {
		known = append(known, s.Name)
	}
	out := ListenerAPI{API: api, Schema: api.ListenerDefault}
	if isNull(n) {
		out.Codec = l.listenerCodec(api, out.Schema, n, path)
		return out, true
	}
	s, ok := l.fields(n, path, known, nil)
	if !ok {
		return out, false
	}
	at := n
	if id, ok := s.str(keySchema); ok && !api.HasSchema(table.SchemaID(id)) {
		s.fail(keySchema, "unknown schema %q for %s; supported: %s", id, api.Name, registry.JoinIDs(api.Schemas))
	} else if ok {
		out.Schema = table.SchemaID(id)
	}
	if v, has := s.value(keySchema); has {
		at = v
	}
	out.Codec = l.listenerCodec(api, out.Schema, at, s.at(keySchema))
	if n, has := s.value("models"); has { //vocab:not-spec Router config key
		out.Models = l.listenerModels(api, n, s.at("models")) //vocab:not-spec Router config key
	}
	if n, has := s.value("rules"); has && api.Kind != registry.KindLLM { //vocab:not-spec Router config key
		l.fail(s.m["rules"].KeyAt, s.at("rules"), "rules run on the requests of LLM APIs; a System One request is a decision of its own") //vocab:not-spec Router config key
	} else if has {
		out.Rules = l.ruleNames(n, s.at("rules"), ruleRef{listener: listenerIndex, api: api.Name}) //vocab:not-spec Router config key
	}
	for _, setting := range api.Settings {
		if n, has := s.value(setting.Name); has {
			if v, ok := l.integer(n, s.at(setting.Name), setting.Min, setting.Max); ok {
				out.Settings = append(out.Settings, SettingValue{Name: setting.Name, Value: v})
			}
		}
	}
	slices.SortFunc(out.Settings, func(a, b SettingValue) int { return strings.Compare(a.Name, b.Name) })
	return out, true
}

// listenerCodec looks up the listener codec of an API the Router reads
// itself (a decision API) in the schema registry, the one place schema IDs
// are bound to codecs; an LLM API has none, its bodies being forwarded
// unchanged.
func (l *loader) listenerCodec(api registry.API, schema table.SchemaID, n *yaml.Node, path string) listener.Codec {
	if api.Kind != registry.KindDecision {
		return nil
	}
	codec, err := l.regs.Schemas.Listener(schema)
	if err != nil {
		l.fail(n, path, "%v", err)
	}
	return codec
}

// listenerModels reads an API's models: a decision API's are deployments
// and pools, an LLM API's are models an upstream serves (of any LLM API
// format: the Router's LLM protocol codecs translate between them).
func (l *loader) listenerModels(api registry.API, n *yaml.Node, path string) []string {
	models, _ := l.items(n, path, "lists no model; leave models out to serve every model of the API", func(m string, at *yaml.Node, path string) {
		_, routed := l.cfg.Route(m)
		switch {
		case api.Kind == registry.KindDecision && !routed:
			l.fail(at, path, "names no deployment or pool")
		case api.Kind != registry.KindDecision && !l.upstreamServes(m):
			l.fail(at, path, "no upstream serves this model")
		}
	})
	return models
}

func (l *loader) upstreamServes(model string) bool {
	for _, u := range l.cfg.Upstreams {
		if slices.Contains(u.Models, model) {
			return true
		}
	}
	return false
}
