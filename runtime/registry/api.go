package registry

import (
	"slices"
	"strings"

	"github.com/vllm-sr/systemone/runtime/table"
)

// Kind is the kind of model an API serves.
type Kind string

const (
	// KindLLM: chat and generation models, served by LLM upstreams.
	KindLLM Kind = "llm"
	// KindDecision: decision models, served by System One deployments and
	// pools.
	KindDecision Kind = "decision" //vocab:not-spec an API kind, not the routing member
)

// Setting is one integer setting an API's entry in a listener's apis map
// takes, such as systemone's max_deadline_ms. Bounds are inclusive.
type Setting struct {
	Name string
	Min  int64
	Max  int64
	// Doc is one line for the configuration guide and errors.
	Doc string
}

// API is one registry entry.
type API struct {
	// Name is the registry name a listener's apis map is keyed by.
	Name string
	// Paths are the HTTP paths the API serves; a trailing "/*" serves every
	// path under its prefix.
	Paths []string
	Kind  Kind
	// Schemas are the schemas a listener may speak, sorted. For an API the
	// Router reads itself (systemone) each has its listener codec in the
	// schema registry (Schemas), where a listener's is looked up; an LLM
	// API's bodies are forwarded unchanged to an upstream of the same
	// format, whose protocol codecs live outside this module.
	Schemas []table.SchemaID
	// ListenerDefault is the schema a listener speaks when its entry names
	// none; UpstreamDefault is the one an upstream is called with when its
	// configuration names none.
	ListenerDefault table.SchemaID
	UpstreamDefault table.SchemaID
	// UpstreamSchemas are the schemas an upstream may be configured with,
	// sorted.
	UpstreamSchemas []table.SchemaID
	Settings        []Setting
	// DefaultOn: a listener without an apis map serves this API.
	DefaultOn bool
}

// Versioned reports whether a listener may choose among several schemas
// of the API: only then does the API's entry take a schema.
func (a *API) Versioned() bool { return len(a.Schemas) > 1 }

// HasSchema reports whether a listener may speak id on the API.
func (a *API) HasSchema(id table.SchemaID) bool { return slices.Contains(a.Schemas, id) }

// ServesPath reports whether path is one of the API's paths, a "/*" path
// matching every path below its prefix (NewAPIs allows "*" only there).
func (a *API) ServesPath(path string) bool {
	for _, p := range a.Paths {
		prefix, wild := strings.CutSuffix(p, "*")
		if p == path || wild && len(path) > len(prefix) && strings.HasPrefix(path, prefix) {
			return true
		}
	}
	return false
}

// clone returns a deep copy, so a caller cannot change the registry.
func (a API) clone() API {
	a.Paths = slices.Clone(a.Paths)
	a.Schemas = slices.Clone(a.Schemas)
	a.UpstreamSchemas = slices.Clone(a.UpstreamSchemas)
	a.Settings = slices.Clone(a.Settings)
	return a
}

// Alias is an older name of an API, resolved wherever an API is named.
type Alias struct {
	Name string
	API  string
}
