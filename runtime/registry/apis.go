package registry

import (
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
)

// APIs is the immutable registry of APIs and aliases. Build it with
// NewAPIs or BuiltinAPIs; the zero value holds no API.
type APIs struct {
	apis    []API             // sorted by name
	aliases map[string]string // alias -> API name
}

var (
	namePattern      = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
	apiSchemaPattern = regexp.MustCompile(`^[a-z][a-z0-9-]*/[0-9a-z][0-9a-z.-]*$`)
	pathPattern      = regexp.MustCompile(`^(/[a-z0-9_.-]+)+(/\*)?$`)
)

// NewAPIs validates apis and aliases and returns the registry. Every
// problem found is reported, one per line, each naming the API or alias.
func NewAPIs(apis []API, aliases []Alias) (*APIs, error) {
	var errs []error
	r := &APIs{aliases: map[string]string{}}
	names := map[string]bool{}
	paths := map[string]string{}
	for _, a := range apis {
		if names[a.Name] {
			errs = append(errs, fmt.Errorf("api %q: registered twice", a.Name))
			continue
		}
		names[a.Name] = true
		errs = append(errs, checkAPI(&a)...)
		for _, p := range a.Paths {
			if owner, ok := paths[p]; ok {
				errs = append(errs, fmt.Errorf("api %q: path %s is already served by %q", a.Name, p, owner))
			}
			paths[p] = a.Name
		}
		a = a.clone()
		slices.Sort(a.Schemas)
		slices.Sort(a.UpstreamSchemas)
		r.apis = append(r.apis, a)
	}
	for _, al := range aliases {
		switch {
		case !namePattern.MatchString(al.Name):
			errs = append(errs, fmt.Errorf("alias %q: a name is lower-case letters, digits and underscores", al.Name))
		case names[al.Name]:
			errs = append(errs, fmt.Errorf("alias %q: is also an API's name", al.Name))
		case r.aliases[al.Name] != "":
			errs = append(errs, fmt.Errorf("alias %q: registered twice", al.Name))
		case !names[al.API]:
			errs = append(errs, fmt.Errorf("alias %q: names no registered API (%q)", al.Name, al.API))
		default:
			r.aliases[al.Name] = al.API
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	slices.SortFunc(r.apis, func(x, y API) int { return strings.Compare(x.Name, y.Name) })
	return r, nil
}

func checkAPI(a *API) []error {
	var errs []error
	bad := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("api %q: "+format, append([]any{a.Name}, args...)...))
	}
	if !namePattern.MatchString(a.Name) {
		bad("a name is lower-case letters, digits and underscores")
	}
	if a.Kind != KindLLM && a.Kind != KindDecision {
		bad("kind must be %s or %s", KindLLM, KindDecision)
	}
	if len(a.Paths) == 0 {
		bad("has no path")
	}
	for _, p := range a.Paths {
		if !pathPattern.MatchString(p) {
			bad("path %q is not an absolute path of lower-case segments (optionally ending in /*)", p)
		}
	}
	if len(a.Schemas) == 0 {
		bad("has no schema")
	}
	for i, s := range a.Schemas {
		if !apiSchemaPattern.MatchString(string(s)) {
			bad("schema %q: the ID does not match name/version", s)
		}
		if slices.Contains(a.Schemas[:i], s) {
			bad("schema %q: listed twice", s)
		}
	}
	if !a.HasSchema(a.ListenerDefault) {
		bad("listener default %q is not one of its schemas", a.ListenerDefault)
	}
	if !slices.Contains(a.UpstreamSchemas, a.UpstreamDefault) {
		bad("upstream default %q is not one of its upstream schemas", a.UpstreamDefault)
	}
	for _, id := range a.UpstreamSchemas {
		if !apiSchemaPattern.MatchString(string(id)) {
			bad("upstream schema ID %q does not match name/version", id)
		}
	}
	settings := map[string]bool{}
	for _, s := range a.Settings {
		switch {
		case !namePattern.MatchString(s.Name) || s.Name == "schema" || s.Name == "models": //vocab:not-spec keys of the Router's API configuration
			bad("setting %q: not a usable setting name", s.Name)
		case settings[s.Name]:
			bad("setting %q: declared twice", s.Name)
		case s.Min > s.Max:
			bad("setting %q: minimum above maximum", s.Name)
		}
		settings[s.Name] = true
	}
	return errs
}

// All returns every API, sorted by name, as copies.
func (r *APIs) All() []API {
	out := make([]API, len(r.apis))
	for i, a := range r.apis {
		out[i] = a.clone()
	}
	return out
}

// Names returns every API name, sorted.
func (r *APIs) Names() []string {
	out := make([]string, len(r.apis))
	for i, a := range r.apis {
		out[i] = a.Name
	}
	return out
}

// Canonical returns the API name name stands for: itself, or the API an
// alias names.
func (r *APIs) Canonical(name string) (string, bool) {
	if api, ok := r.aliases[name]; ok {
		return api, true
	}
	if slices.ContainsFunc(r.apis, func(a API) bool { return a.Name == name }) {
		return name, true
	}
	return "", false
}

// Lookup returns the API named name or aliased by it.
func (r *APIs) Lookup(name string) (API, bool) {
	canonical, ok := r.Canonical(name)
	if !ok {
		return API{}, false
	}
	i, _ := slices.BinarySearchFunc(r.apis, canonical, func(a API, n string) int { return strings.Compare(a.Name, n) })
	return r.apis[i].clone(), true
}

// Resolve is Lookup with an error that lists the names the registry knows.
func (r *APIs) Resolve(name string) (API, error) {
	if a, ok := r.Lookup(name); ok {
		return a, nil
	}
	return API{}, fmt.Errorf("unknown API %q; supported: %s", name, strings.Join(r.known(), ", "))
}

// known lists API names and aliases, sorted.
func (r *APIs) known() []string {
	out := append(r.Names(), slices.Collect(maps.Keys(r.aliases))...)
	slices.Sort(out)
	return out
}

// Defaults returns the APIs a listener without an apis map serves, sorted.
func (r *APIs) Defaults() []string {
	var out []string
	for _, a := range r.apis {
		if a.DefaultOn {
			out = append(out, a.Name)
		}
	}
	return out
}

// ByPath returns the name and kind of the API serving path: what a
// request is routed by, read on every request, so no copy of the entry is
// made (Lookup returns the whole entry).
func (r *APIs) ByPath(path string) (name string, kind Kind, ok bool) {
	for i := range r.apis {
		if a := &r.apis[i]; a.ServesPath(path) {
			return a.Name, a.Kind, true
		}
	}
	return "", "", false
}
