package routerconfig

import (
	"fmt"
	"net"
	"os"
	"regexp"
	"slices"
	"strings"

	yaml "go.yaml.in/yaml/v4"

	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/registry"
	"github.com/vllm-sr/systemone/runtime/table"
)

// Registries are what configuration names resolve through.
type Registries struct {
	APIs    *registry.APIs
	Schemas *registry.Schemas
}

// BuiltinRegistries are the registries the Router runs with.
func BuiltinRegistries() Registries {
	return Registries{APIs: registry.BuiltinAPIs(), Schemas: registry.BuiltinSchemas()}
}

// namePattern is a listener's, upstream's or rule's name.
var namePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// modelPattern is a deployment's or pool's key: what a client's model
// names, so a slash is allowed (vllm-sr/auto).
var modelPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._/-]*$`)

// keyRule is what the keys of a section must match, and the problem a key
// that does not is.
type keyRule struct {
	pattern *regexp.Regexp
	problem string
}

var (
	nameKey  = keyRule{namePattern, "a name is letters, digits, '.', '_' or '-'"}
	modelKey = keyRule{modelPattern, "a key is letters, digits, '.', '_', '-' or '/'"}
)

// keyedSections reads section, a mapping (null: empty) from keys to
// mappings with fixed keys, in order: each key is checked against key,
// each value is read with fields and checked for its required keys, and
// read gets every entry whose value is a mapping, with complete false
// when a required key is missing.
func (l *loader) keyedSections(n *yaml.Node, section string, key keyRule, known, required []string,
	read func(name, path string, f map[string]entry, complete bool)) {
	entries, ok := l.mapping(n, section, true)
	if !ok {
		return
	}
	for _, e := range entries {
		path := join(section, e.Key)
		if !key.pattern.MatchString(e.Key) {
			l.fail(e.KeyAt, path, "%s", key.problem)
		}
		f := l.fields(e.Value, path, known, nil)
		if f == nil {
			continue
		}
		read(e.Key, path, f, l.require(e.Value, path, f, required...))
	}
}

// LoadFile reads and loads the configuration at path.
func LoadFile(path string, regs Registries) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Load(path, data, regs)
}

// Load parses and checks a configuration. file names it in problems. A
// configuration with any problem returns a *LoadError holding all of them.
func Load(file string, data []byte, regs Registries) (*Config, error) {
	r := &reader{file: file}
	root := parse(r, data)
	c := &Config{}
	if root != nil {
		l := &loader{reader: r, regs: regs, cfg: c}
		l.load(root)
	}
	if len(r.problems) > 0 {
		slices.SortStableFunc(r.problems, func(a, b Problem) int {
			if a.Line != b.Line {
				return a.Line - b.Line
			}
			return a.Column - b.Column
		})
		return nil, &LoadError{Problems: r.problems}
	}
	return c, nil
}

// parse returns the document's top node, or nil after recording why there
// is none.
func parse(r *reader, data []byte) *yaml.Node {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		r.fail(nil, "", "%s", strings.TrimPrefix(err.Error(), "yaml: "))
		return nil
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		r.fail(nil, "", "the configuration is empty")
		return nil
	}
	return doc.Content[0]
}

// loader holds one load's state.
type loader struct {
	*reader
	regs Registries
	cfg  *Config
}

var topKeys = []string{"listeners", "upstreams", "deployments", "pools", "rules"}

func (l *loader) load(root *yaml.Node) {
	top := l.fields(root, "", topKeys, nil)
	if top == nil {
		return
	}
	if e, ok := top["upstreams"]; ok {
		l.upstreams(e.Value)
	}
	if e, ok := top["deployments"]; ok {
		l.deployments(e.Value)
	}
	if e, ok := top["pools"]; ok {
		l.pools(e.Value)
	}
	if e, ok := top["listeners"]; ok {
		l.listeners(e.Value)
	}
	if e, ok := top["rules"]; ok {
		l.rules(e.Value)
	}
}

var listenerKeys = []string{"name", "address", "apis"} //vocab:not-spec Router config key

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
	addresses := map[string]bool{}
	for i, item := range n.Content {
		path := fmt.Sprintf("listeners[%d]", i)
		item = resolve(item)
		f := l.fields(item, path, listenerKeys, removedListenerKeys)
		if f == nil {
			continue
		}
		l.require(item, path, f, "name", "address") //vocab:not-spec Router config key
		lst := Listener{}
		if e, has := f["name"]; has { //vocab:not-spec Router config key
			lst.Name = l.listenerName(e.Value, join(path, "name"), names) //vocab:not-spec Router config key
		}
		if e, has := f["address"]; has {
			lst.Address = l.listenerAddress(e.Value, join(path, "address"), addresses)
		}
		if e, ok := f["apis"]; ok {
			lst.Listed = true
			lst.APIs = l.listenerAPIs(e.Value, join(path, "apis"))
		} else {
			lst.APIs = l.defaultAPIs()
		}
		l.cfg.Listeners = append(l.cfg.Listeners, lst)
	}
}

// listenerName reads a listener's name, unique among listeners.
func (l *loader) listenerName(n *yaml.Node, path string, seen map[string]bool) string {
	name, ok := l.str(n, path)
	switch {
	case !ok:
	case !namePattern.MatchString(name):
		l.fail(n, path, "must be letters, digits, '.', '_' or '-'")
	case seen[name]:
		l.fail(n, path, "another listener has this name")
	}
	seen[name] = true
	return name
}

// listenerAddress reads a listener's host:port, unique among listeners.
func (l *loader) listenerAddress(n *yaml.Node, path string, seen map[string]bool) string {
	addr, ok := l.str(n, path)
	if !ok {
		return ""
	}
	if _, _, err := net.SplitHostPort(addr); err != nil {
		l.fail(n, path, "must be host:port")
	} else if seen[addr] {
		l.fail(n, path, "another listener has this address")
	}
	seen[addr] = true
	return addr
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

func (l *loader) listenerAPIs(n *yaml.Node, path string) []ListenerAPI {
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
		if entry, ok := l.listenerAPI(api, e.Value, join(path, e.Key)); ok {
			out = append(out, entry)
		}
	}
	slices.SortFunc(out, func(a, b ListenerAPI) int { return strings.Compare(a.API.Name, b.API.Name) })
	return out
}

// listenerAPI reads one apis entry: schema (versioned APIs only), models
// and the API's own settings.
func (l *loader) listenerAPI(api registry.API, n *yaml.Node, path string) (ListenerAPI, bool) {
	known := []string{"models"} //vocab:not-spec Router config key
	if api.Versioned() {
		known = append(known, "schema")
	}
	for _, s := range api.Settings {
		known = append(known, s.Name)
	}
	out := ListenerAPI{API: api, Schema: api.ListenerDefault}
	if isNull(n) {
		out.Codec = l.listenerCodec(api, out.Schema, n, path)
		return out, true
	}
	f := l.fields(n, path, known, nil)
	if f == nil {
		return out, false
	}
	at := n
	if e, ok := f["schema"]; ok {
		at = e.Value
		if id, ok := l.str(e.Value, join(path, "schema")); ok {
			if api.HasSchema(table.SchemaID(id)) {
				out.Schema = table.SchemaID(id)
			} else {
				l.fail(e.Value, join(path, "schema"), "unknown schema %q for %s; supported: %s", id, api.Name, registry.JoinIDs(api.Schemas))
			}
		}
	}
	out.Codec = l.listenerCodec(api, out.Schema, at, join(path, "schema"))
	if e, ok := f["models"]; ok { //vocab:not-spec Router config key
		out.Models = l.listenerModels(api, e.Value, join(path, "models")) //vocab:not-spec Router config key
	}
	for _, setting := range api.Settings {
		if e, ok := f[setting.Name]; ok {
			if v, ok := l.integer(e.Value, join(path, setting.Name), setting.Min, setting.Max); ok {
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
	models, at, ok := l.strList(n, path)
	if !ok {
		return nil
	}
	if len(models) == 0 {
		l.fail(n, path, "lists no model; leave models out to serve every model of the API")
	}
	for i, m := range models {
		p := fmt.Sprintf("%s[%d]", path, i)
		if api.Kind == registry.KindDecision {
			if _, d := l.cfg.Deployment(m); !d {
				if _, pool := l.cfg.Pool(m); !pool {
					l.fail(at[i], p, "names no deployment or pool")
				}
			}
			continue
		}
		if !l.upstreamServes(m) {
			l.fail(at[i], p, "no upstream serves this model")
		}
	}
	return models
}

func (l *loader) upstreamServes(model string) bool {
	for _, u := range l.cfg.Upstreams {
		if contains(u.Models, model) {
			return true
		}
	}
	return false
}
