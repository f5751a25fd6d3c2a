package routerconfig

import (
	"fmt"
	neturl "net/url"
	"slices"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/modelcheck"
	"github.com/vllm-sr/systemone/runtime/registry"
	"github.com/vllm-sr/systemone/runtime/table"
	tc "github.com/vllm-sr/systemone/runtime/target"
)

// declarable are the capabilities a deployment may declare: the
// listing's feature words, in the vocabulary's order.
var declarable = func() []tc.Capability {
	out := make([]tc.Capability, len(vocab.Features))
	for i, f := range vocab.Features {
		out[i] = tc.Capability(f)
	}
	return out
}()

// keySchema is the setting of a listener API's, an upstream's or a
// deployment's schema ID.
const keySchema = "schema" //vocab:not-spec Router config key

var upstreamKeys = keysOf(upstreamForm{})

func (l *loader) upstreams(n *yaml.Node) {
	l.keyedSections(n, "upstreams", nameKey, upstreamKeys, requiredOf(upstreamForm{}), func(name string, s section, complete bool) {
		if !complete {
			return
		}
		u := Upstream{Name: name}
		if format, ok := s.str("api_format"); ok {
			api, err := l.regs.APIs.Resolve(format)
			switch {
			case err != nil:
				s.fail("api_format", "%v", err)
			case api.Kind != registry.KindLLM:
				s.fail("api_format", "%s is called through deployments with provider: systemone", api.Name)
			default:
				u.API = api.Name
				u.Schema, _ = upstreamSchema(api, s, api.Name+" upstreams")
			}
		}
		var urlPath string
		if u.Endpoint, urlPath = endpoint(s); u.Endpoint != "" {
			l.llmEndpointPath(s, urlPath)
		}
		u.Models, _, _ = l.strList(s.m["models"].Value, s.at("models")) //vocab:not-spec Router config key
		u.APIKeyEnv, u.APIKeyFile, u.APIKey = l.apiKey(s)
		l.cfg.Upstreams = append(l.cfg.Upstreams, u)
	})
	slices.SortFunc(l.cfg.Upstreams, func(a, b Upstream) int { return strings.Compare(a.Name, b.Name) })
}

// upstreamSchema reads an upstream's or a deployment's (what) optional
// schema: one of api's upstream schemas, its default when absent.
func upstreamSchema(api registry.API, s section, what string) (table.SchemaID, bool) {
	if _, has := s.value(keySchema); !has {
		return api.UpstreamDefault, true
	}
	id, ok := s.str(keySchema)
	if ok && !slices.Contains(api.UpstreamSchemas, table.SchemaID(id)) {
		s.fail(keySchema, "unknown schema %q for %s; supported: %s", id, what, registry.JoinIDs(api.UpstreamSchemas))
		return "", false
	}
	return table.SchemaID(id), ok
}

// endpoint reads endpoint, when present, as an absolute http or https
// URL, and returns it with its path, less a trailing "/".
func endpoint(s section) (string, string) {
	url, ok := s.str("endpoint")
	if !ok {
		return "", ""
	}
	u, err := neturl.Parse(url)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		s.fail("endpoint", "must be an absolute http or https URL")
		return "", ""
	}
	return url, strings.TrimSuffix(u.Path, "/")
}

// deploymentKeys are a deployment's keys, those fleet reads (fleet.go)
// among them.
var deploymentKeys = keysOf(deploymentForm{})

func (l *loader) deployments(n *yaml.Node) {
	l.keyedSections(n, "deployments", modelKey, deploymentKeys, requiredOf(deploymentForm{}), func(name string, s section, _ bool) {
		// A deployment with problems is kept, so references to it are not
		// reported again; the load fails on its own problems.
		l.cfg.Deployments = append(l.cfg.Deployments, l.deployment(name, s))
	})
	slices.SortFunc(l.cfg.Deployments, func(a, b Deployment) int { return strings.Compare(a.Name, b.Name) })
}

func (l *loader) deployment(name string, s section) Deployment {
	d := Deployment{Name: name, MaxConcurrency: tc.DefaultMaxConcurrency}
	if p, ok := s.str("provider"); ok && p != registry.SystemOne {
		s.fail("provider", "must be systemone; LLM upstreams go under upstreams")
	}
	var urlPath string
	d.Endpoint, urlPath = endpoint(s)
	d.Model, _ = s.str("model") //vocab:not-spec Router config key
	d.Card = catalogueCard(s, d.Model)
	api, _ := l.regs.APIs.Lookup(registry.SystemOne)
	schemaOK := l.deploymentSchema(&d, api, s)
	// The endpoint is the System One API's first path, the single-request
	// endpoint every upstream schema of it is called at (batch and native
	// calls go beside it).
	if schemaOK && d.Endpoint != "" && !strings.HasSuffix(urlPath, api.Paths[0]) {
		s.fail("endpoint", "must end in %[1]s, the %[2]s endpoint (for example http://host:port%[1]s)", api.Paths[0], d.Schema)
	}
	d.APIKeyEnv, d.APIKeyFile, d.APIKey = l.apiKey(s)
	if n, has := s.value("deviations"); has {
		// The distinct IDs are checked though the list has a problem of
		// its own (an ID listed twice), so that check reports every one.
		ids, at, good := l.strList(n, s.at("deviations"))
		if schemaOK && (good || len(ids) > 0) {
			devs, errs := l.regs.Schemas.Deviations(d.Schema, ids)
			for _, err := range errs {
				l.fail(deviationNode(at, ids, err), s.at("deviations"), "%v", err)
			}
			d.DeviationIDs, d.Deviations = ids, devs
		}
	}
	if n, has := s.value("max_concurrency"); has {
		if v, good := l.integer(n, s.at("max_concurrency"), 1, 1024); good {
			d.MaxConcurrency = int(v)
		}
	}
	if n, has := s.value("capabilities"); has {
		d.Declared = l.capabilities(n, s.at("capabilities"), d.Card != nil)
	}
	d.Capabilities = capabilitiesOf(&d)
	d.Fleet = l.fleet(s)
	d.Fleet.Connections = l.connections(s, d.Endpoint) // connections.go
	return d
}

// deviationNode points a deviation error at the item it is about, by the
// ID the error quotes; the list itself when none matches.
func deviationNode(at []*yaml.Node, ids []string, err error) *yaml.Node {
	for i, id := range ids {
		if strings.Contains(err.Error(), `"`+id+`"`) {
			return at[i]
		}
	}
	if len(at) > 0 {
		return at[0]
	}
	return nil
}

// deploymentSchema reads schema (default: api's, systemone's, upstream
// default) and resolves its target codec through the schema registry.
func (l *loader) deploymentSchema(d *Deployment, api registry.API, s section) bool {
	var ok bool
	if d.Schema, ok = upstreamSchema(api, s, "deployments"); !ok {
		return false
	}
	codec, err := l.regs.Schemas.Target(d.Schema)
	if err != nil {
		s.fail(keySchema, "%v", err)
		return false
	}
	d.Codec = codec
	return true
}

// retiredCapabilities are the capability words of configurations from
// before the listing's feature vocabulary, and the feature words each
// stands for: presets is preset, and extensions (every vllm-sr/5.0
// question member) is the question members' features.
var retiredCapabilities = map[string][]string{
	"presets":    {vocab.FeaturePreset},
	"extensions": {vocab.FeaturePreset, vocab.FeatureOver, vocab.FeatureHead, vocab.FeatureDecisionAdapter, vocab.FeatureOverflow, vocab.FeatureRequireFullInput},
}

// capabilities reads a declared capability list; a model with a card
// takes its capabilities from the card, so declaring them is an error.
func (l *loader) capabilities(n *yaml.Node, path string, hasCard bool) tc.CapabilitySet {
	names, at, ok := l.strList(n, path)
	if !ok {
		return nil
	}
	if hasCard {
		l.fail(n, path, "the model has a card in the catalogue, which gives its capabilities")
		return nil
	}
	var out tc.CapabilitySet
	for i, name := range names {
		if words, retired := retiredCapabilities[name]; retired {
			l.fail(at[i], fmt.Sprintf("%s[%d]", path, i), "%q is no longer a capability word: it stands for %s, the listing's feature words (vllm-sr config migrate rewrites it)",
				name, strings.Join(words, ", "))
			continue
		}
		if !slices.Contains(declarable, tc.Capability(name)) {
			l.fail(at[i], fmt.Sprintf("%s[%d]", path, i), "unknown capability; allowed: %s", strings.Join(capNames(declarable), ", "))
			continue
		}
		out = append(out, tc.Capability(name))
	}
	slices.Sort(out)
	return out
}

// capabilitiesOf is what a deployment answers and reads: its card's
// features (modelcheck.Features, as vllm-srun lists them); else the
// declared ones; else everything its schema's codec carries.
func capabilitiesOf(d *Deployment) tc.CapabilitySet {
	var out tc.CapabilitySet
	switch {
	case d.Card != nil:
		for _, f := range modelcheck.Features(d.Card) {
			out = append(out, tc.Capability(f))
		}
	case d.Declared != nil:
		out = append(out, d.Declared...)
	case d.Codec != nil:
		out = append(out, d.Codec.Traits().Capabilities...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func capNames(caps []tc.Capability) []string {
	out := make([]string, len(caps))
	for i, c := range caps {
		out[i] = string(c)
	}
	return out
}

func (l *loader) pools(n *yaml.Node) {
	l.keyed(n, "pools", modelKey, func(e entry, path string) {
		if modelKey.pattern.MatchString(e.Key) && l.hasDeployment(e.Key) {
			l.fail(e.KeyAt, path, "a deployment has this name; a client's model must name one or the other")
		}
		members, ok := l.items(e.Value, path, "lists no deployment", func(m string, at *yaml.Node, path string) {
			if !l.hasDeployment(m) {
				l.fail(at, path, "names no deployment")
			}
		})
		if !ok {
			return
		}
		l.cfg.Pools = append(l.cfg.Pools, Pool{Name: e.Key, Members: members})
	})
	slices.SortFunc(l.cfg.Pools, func(a, b Pool) int { return strings.Compare(a.Name, b.Name) })
}

func (l *loader) hasDeployment(name string) bool {
	_, ok := l.cfg.Deployment(name)
	return ok
}
