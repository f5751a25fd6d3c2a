package routerconfig

import (
	"fmt"

	yaml "go.yaml.in/yaml/v3"

	"github.com/vllm-sr/systemone/runtime/registry"
)

// Migrate rewrites a configuration whose listeners still use the removed
// listener-level fields into the apis form, and whose deployments declare
// retired capability words, and returns the new text and whether anything
// changed (unchanged input comes back as it was).
//
// The removed fields were:
//
//	models: [...]       # the models the listener served, on every API
//	systemone: true     # or {enabled: bool, schema: ..., max_deadline_ms: ...}
//
// A listener with either gets an apis map in their place: the default LLM
// APIs, each with the listed models that are not deployments or pools
// (all models when models was absent), and, when systemone was on, a
// systemone entry with its settings and the listed deployments and pools.
// A deployment's retired capability words become the feature words they
// stand for (retiredCapabilities).
// Comments and key order are kept where the YAML library allows.
func Migrate(file string, data []byte, apis *registry.APIs) ([]byte, bool, error) {
	r := &reader{file: file}
	root := parse(r, data)
	if root == nil {
		return nil, false, &LoadError{Problems: r.problems}
	}
	// A duplicate key is refused as the loader refuses it: migrating would
	// otherwise keep one of the two silently.
	r.duplicates(root, "", map[*yaml.Node]bool{})
	if len(r.problems) > 0 {
		return nil, false, &LoadError{Problems: r.problems}
	}
	m := migrator{reader: r, apis: apis, decision: decisionModels(root)}
	changed := false
	if listeners := lookup(root, "listeners"); listeners != nil && listeners.Kind == yaml.SequenceNode {
		for i, l := range listeners.Content {
			if m.listener(resolve(l), fmt.Sprintf("listeners[%d]", i)) {
				changed = true
			}
		}
	}
	if deployments := lookup(root, "deployments"); deployments != nil && deployments.Kind == yaml.MappingNode {
		for i := 1; i < len(deployments.Content); i += 2 {
			if renameCapabilities(lookup(resolve(deployments.Content[i]), "capabilities")) {
				changed = true
			}
		}
	}
	if len(r.problems) > 0 {
		return nil, false, &LoadError{Problems: r.problems}
	}
	if !changed {
		return data, false, nil
	}
	out, err := dump(root, false)
	return out, err == nil, err
}

// duplicates reports every duplicate key of every mapping under n, each
// node visited once (an alias may point back at its own anchor).
func (r *reader) duplicates(n *yaml.Node, path string, seen map[*yaml.Node]bool) {
	n = resolve(n)
	if n == nil || seen[n] {
		return
	}
	seen[n] = true
	switch n.Kind {
	case yaml.MappingNode:
		keys := map[string]*yaml.Node{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := resolve(n.Content[i])
			if first, dup := keys[k.Value]; dup && k.Kind == yaml.ScalarNode {
				r.fail(k, join(path, k.Value), "duplicate key (first at line %d)", first.Line)
			} else if k.Kind == yaml.ScalarNode {
				keys[k.Value] = k
			}
			r.duplicates(n.Content[i+1], join(path, k.Value), seen)
		}
	case yaml.SequenceNode:
		for i, item := range n.Content {
			r.duplicates(item, fmt.Sprintf("%s[%d]", path, i), seen)
		}
	}
}

type migrator struct {
	*reader
	apis *registry.APIs
	// decision are the deployment and pool keys: a listed model that is
	// one of them is a decision model, any other an LLM model.
	decision map[string]bool
}

// decisionModels collects the deployments' and pools' keys.
func decisionModels(root *yaml.Node) map[string]bool {
	out := map[string]bool{}
	for _, section := range []string{"deployments", "pools"} {
		if n := lookup(root, section); n != nil && n.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(n.Content); i += 2 {
				out[n.Content[i].Value] = true
			}
		}
	}
	return out
}

// lookup returns the value of key in mapping n, or nil.
func lookup(n *yaml.Node, key string) *yaml.Node {
	n = resolve(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return resolve(n.Content[i+1])
		}
	}
	return nil
}

// listener migrates one listener in place and reports whether it changed.
func (m *migrator) listener(n *yaml.Node, path string) bool {
	if n.Kind != yaml.MappingNode {
		return false
	}
	models, systemone := lookup(n, "models"), lookup(n, "systemone") //vocab:not-spec Router config key
	if models == nil && systemone == nil {
		return false
	}
	if lookup(n, "apis") != nil {
		m.fail(n, path, "has apis and the removed models or systemone; merge them by hand")
		return false
	}
	var llm, decision []*yaml.Node
	if models != nil {
		if models.Kind != yaml.SequenceNode {
			m.fail(models, join(path, "models"), "must be a list, not %s", kindName(models)) //vocab:not-spec Router config key
			return false
		}
		for _, item := range models.Content {
			if m.decision[resolve(item).Value] {
				decision = append(decision, item)
			} else {
				llm = append(llm, item)
			}
		}
	}
	on, settings := m.systemone(systemone, join(path, "systemone"))
	apis := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	if models == nil || len(llm) > 0 {
		for _, name := range m.apis.Defaults() {
			apis.Content = append(apis.Content, scalar(name), m.entry(nil, models, llm))
		}
	}
	if on {
		if models != nil && len(decision) == 0 {
			m.fail(models, join(path, "models"), "systemone is on but models lists no deployment or pool; choose its models by hand") //vocab:not-spec Router config key
			return false
		}
		apis.Content = append(apis.Content, scalar(registry.SystemOne), m.entry(settings, models, decision))
	}
	if len(apis.Content) == 0 {
		m.fail(n, path, "would serve no API: models lists only decision models and systemone is off")
		return false
	}
	replaceRemoved(n, apis)
	return true
}

// systemone reads the removed field: a boolean, or a mapping whose
// enabled (default true) turns it on and whose other keys are settings.
func (m *migrator) systemone(n *yaml.Node, path string) (bool, []*yaml.Node) {
	if n == nil {
		return false, nil
	}
	switch {
	case n.Kind == yaml.ScalarNode && n.Tag == "!!bool":
		var on bool
		_ = n.Decode(&on)
		return on, nil
	case n.Kind == yaml.MappingNode:
		on := true
		var settings []*yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == "enabled" {
				if err := n.Content[i+1].Decode(&on); err != nil {
					m.fail(n.Content[i+1], join(path, "enabled"), "must be a boolean")
				}
				continue
			}
			settings = append(settings, n.Content[i], n.Content[i+1])
		}
		return on, settings
	}
	m.fail(n, path, "must be a boolean or a mapping, not %s", kindName(n))
	return false, nil
}

// entry builds one apis entry: the settings, then models when the
// listener listed them.
func (m *migrator) entry(settings []*yaml.Node, models *yaml.Node, list []*yaml.Node) *yaml.Node {
	e := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Style: yaml.FlowStyle}
	e.Content = append(e.Content, settings...)
	if models != nil {
		seq := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle, Content: list}
		e.Content = append(e.Content, scalar("models"), seq) //vocab:not-spec Router config key
	}
	return e
}

// renameCapabilities rewrites a deployment's retired capability words
// (retiredCapabilities) as the feature words they stand for, each word
// once, in place; it reports whether the list changed.
func renameCapabilities(list *yaml.Node) bool {
	if list == nil || list.Kind != yaml.SequenceNode {
		return false
	}
	var out []*yaml.Node
	seen, changed := map[string]bool{}, false
	for _, item := range list.Content {
		words := []string{resolve(item).Value}
		if retired, ok := retiredCapabilities[words[0]]; ok {
			words, changed = retired, true
		}
		for _, w := range words {
			if !seen[w] {
				seen[w] = true
				if w == resolve(item).Value {
					out = append(out, item)
				} else {
					out = append(out, scalar(w))
				}
			}
		}
	}
	if changed {
		list.Content = out
	}
	return changed
}

func scalar(s string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
}

// replaceRemoved puts apis where the first removed key was and drops the
// removed keys, moving their comments onto apis.
func replaceRemoved(n *yaml.Node, apis *yaml.Node) {
	key := scalar("apis")
	var content []*yaml.Node
	placed := false
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Value != "models" && k.Value != "systemone" { //vocab:not-spec Router config key
			content = append(content, k, v)
			continue
		}
		key.HeadComment = joinComments(key.HeadComment, k.HeadComment)
		key.LineComment = joinComments(key.LineComment, joinComments(k.LineComment, v.LineComment))
		if !placed {
			content = append(content, key, apis)
			placed = true
		}
	}
	n.Content = content
}

func joinComments(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + "\n" + b
}
