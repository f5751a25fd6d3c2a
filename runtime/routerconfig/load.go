package routerconfig

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"regexp"
	"slices"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/vllm-sr/systemone/runtime/registry"
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

// keyed reads name, a mapping (null: empty) whose keys must match key, and
// calls read with each entry and its key path.
func (l *loader) keyed(n *yaml.Node, name string, key keyRule, read func(e entry, path string)) {
	entries, ok := l.mapping(n, name, true)
	if !ok {
		return
	}
	for _, e := range entries {
		if !key.pattern.MatchString(e.Key) {
			l.fail(e.KeyAt, join(name, e.Key), "%s", key.problem)
		}
		read(e, join(name, e.Key))
	}
}

// keyedSections reads name with keyed, each value a mapping with fixed
// keys read with fields and checked for its required keys: read gets
// every entry whose value is a mapping, with complete false when a
// required key is missing.
func (l *loader) keyedSections(n *yaml.Node, name string, key keyRule, known, required []string,
	read func(key string, s section, complete bool)) {
	l.keyed(n, name, key, func(e entry, path string) {
		if s, ok := l.fields(e.Value, path, known, nil); ok {
			read(e.Key, s, s.require(required...))
		}
	})
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
		slices.SortStableFunc(r.problems, func(a, b Problem) int { return cmp.Or(a.Line-b.Line, a.Column-b.Column) })
		return nil, &LoadError{Problems: r.problems}
	}
	slices.SortStableFunc(r.warnings, func(a, b Problem) int { return cmp.Or(a.Line-b.Line, a.Column-b.Column) })
	c.Warnings = r.warnings
	sum := sha256.Sum256(data)
	c.SHA256 = hex.EncodeToString(sum[:])
	return c, nil
}

// parse returns the document's top node, or nil after recording why there
// is none.
func parse(r *reader, data []byte) *yaml.Node {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		msg := strings.TrimPrefix(err.Error(), "yaml: ")
		if strings.Contains(msg, "did not find expected ',' or") {
			// go.yaml.in/yaml/v3 ends a plain value inside {...} or [...]
			// at a '?', where YAML 1.2 reads on: say what to write.
			msg += " (a value inside {...} or [...] that holds '?' must be quoted)"
		}
		r.fail(nil, "", "%s", msg)
		return nil
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		r.fail(nil, "", "the configuration is empty")
		return nil
	}
	return doc.Content[0]
}

type loader struct {
	*reader
	regs Registries
	cfg  *Config
	// addresses are the listeners' and the admin address, checked
	// against each other once all are read.
	addresses []*address
	// ruleRefs are the rules listeners name, checked once the rules are
	// read; declaredRules are the rules' keys, loaded or not.
	ruleRefs      []ruleRef
	declaredRules []string
}

var topKeys = keysOf(fileForm{})

func (l *loader) load(root *yaml.Node) {
	top, ok := l.fields(root, "", topKeys, nil)
	if !ok {
		return
	}
	// In this order: a section refers to those read before it.
	for _, read := range []struct {
		key  string
		read func(*yaml.Node)
	}{{"upstreams", l.upstreams}, {"deployments", l.deployments}, {"pools", l.pools}, {"listeners", l.listeners}} {
		if n, ok := top.value(read.key); ok {
			read.read(n)
		}
	}
	if n, ok := top.value("admin_address"); ok {
		l.cfg.AdminAddress = l.readAddress(n, "admin_address")
	}
	l.checkAddresses(l.addresses)
	if n, ok := top.value("rules"); ok {
		l.rules(n)
	}
	l.checkRuleRefs()
	if n, ok := top.value("tracing"); ok {
		l.tracing(n)
	}
}
