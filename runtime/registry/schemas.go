package registry

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/table"
	"github.com/vllm-sr/systemone/runtime/target"
)

// SpecRef names the specification that defines a schema and the sha256
// the generated tables were built from.
type SpecRef struct {
	Path   string
	SHA256 string
}

// Schema is one registered schema: its specification and its codecs. It
// is the one place a schema ID is bound to codecs; every other package
// looks them up here by ID.
type Schema struct {
	ID table.SchemaID
	// Spec is the specification that defines the schema.
	Spec SpecRef
	// Listener reads clients' requests in the schema; nil when no listener
	// speaks it (systemone/0.2 is served as part of vllm-sr/5.0).
	Listener listener.Codec
	// Target calls deployments in the schema; nil when the Router calls no
	// deployment with it (vllm-sr/4.0).
	Target target.Codec
}

// Schemas is the immutable registry of schemas and deviations. Build it
// with NewSchemas or BuiltinSchemas.
type Schemas struct {
	schemas    []Schema // sorted by ID
	deviations []target.Deviation
}

var (
	// idPattern: name/major.minor, or "internal" for the hops inside a
	// deployment.
	idPattern        = regexp.MustCompile(`^(internal|[a-z][a-z0-9-]*/[0-9]+\.[0-9]+)$`)
	deviationPattern = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
	sha256Pattern    = regexp.MustCompile(`^[0-9a-f]{64}$`)
)

// NewSchemas validates schemas and deviations against specs, the
// specification hashes the generated tables were built from, and returns
// the registry. Every problem found is reported, one per line.
func NewSchemas(schemas []Schema, deviations []target.Deviation, specs []table.SpecHash) (*Schemas, error) {
	var errs []error
	r := &Schemas{}
	seen := map[table.SchemaID]bool{}
	for i, s := range schemas {
		if s.Listener == nil && s.Target == nil {
			errs = append(errs, fmt.Errorf("schema %d (%q): has no codec", i, s.ID))
			continue
		}
		if seen[s.ID] {
			errs = append(errs, fmt.Errorf("schema %q: registered twice", s.ID))
			continue
		}
		seen[s.ID] = true
		errs = append(errs, checkSchema(s, specs)...)
		r.schemas = append(r.schemas, s)
	}
	slices.SortFunc(r.schemas, func(x, y Schema) int { return strings.Compare(string(x.ID), string(y.ID)) })
	ids := map[string]bool{}
	for i, d := range deviations {
		if err := r.checkDeviation(i, d, ids); err != nil {
			errs = append(errs, err)
			continue
		}
		r.deviations = append(r.deviations, d)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	slices.SortFunc(r.deviations, func(x, y target.Deviation) int { return strings.Compare(x.ID(), y.ID()) })
	return r, nil
}

// checkSchema checks one schema: its ID, its codecs and its specification.
func checkSchema(s Schema, specs []table.SpecHash) []error {
	var errs []error
	bad := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("schema %q: "+format, append([]any{s.ID}, args...)...))
	}
	if !idPattern.MatchString(string(s.ID)) {
		bad("the ID matches neither name/major.minor nor internal")
	}
	if s.Listener != nil && s.Listener.Schema() != s.ID {
		bad("its listener codec speaks %q", s.Listener.Schema())
	}
	if s.Target != nil {
		traits := s.Target.Traits()
		if traits.Schema != s.ID {
			bad("its target codec speaks %q", traits.Schema)
		}
		if !traits.Stateless {
			bad("its target codec is not stateless")
		}
	}
	if err := checkSpec(s.Spec, specs); err != nil {
		bad("%v", err)
	}
	return errs
}

// checkSpec checks that ref names a generated specification with its sha256.
func checkSpec(ref SpecRef, specs []table.SpecHash) error {
	if ref.Path == "" {
		return errors.New("names no specification")
	}
	if !sha256Pattern.MatchString(ref.SHA256) {
		return fmt.Errorf("specification %s: the sha256 is not 64 lower-case hex digits", ref.Path)
	}
	for _, h := range specs {
		if h.Path != ref.Path {
			continue
		}
		if h.SHA256 != ref.SHA256 {
			return fmt.Errorf("specification %s: sha256 %s, but the generated tables were built from %s; run make generate", ref.Path, ref.SHA256, h.SHA256)
		}
		return nil
	}
	return fmt.Errorf("specification %s is not one the generated tables were built from", ref.Path)
}

// checkDeviation checks one deviation against the schemas already in r.
func (r *Schemas) checkDeviation(i int, d target.Deviation, ids map[string]bool) error {
	if d == nil {
		return fmt.Errorf("deviation %d: is nil", i)
	}
	id := d.ID()
	switch {
	case !deviationPattern.MatchString(id):
		return fmt.Errorf("deviation %q: an ID is lower-case letters, digits and underscores", id)
	case ids[id]:
		return fmt.Errorf("deviation %q: registered twice", id)
	}
	ids[id] = true
	for _, s := range r.schemas {
		if s.Target != nil && d.AppliesTo(s.ID) {
			return nil
		}
	}
	return fmt.Errorf("deviation %q: applies to no registered target schema", id)
}
