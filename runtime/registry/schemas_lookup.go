package registry

import (
	"fmt"
	"slices"
	"strings"

	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/table"
	"github.com/vllm-sr/systemone/runtime/target"
)

// IDs returns every registered schema ID, sorted.
func (r *Schemas) IDs() []table.SchemaID {
	return r.ids(func(Schema) bool { return true })
}

// TargetIDs returns the IDs a deployment can be called with, sorted.
func (r *Schemas) TargetIDs() []table.SchemaID {
	return r.ids(func(s Schema) bool { return s.Target != nil })
}

// ListenerIDs returns the IDs a listener can speak, sorted.
func (r *Schemas) ListenerIDs() []table.SchemaID {
	return r.ids(func(s Schema) bool { return s.Listener != nil })
}

func (r *Schemas) ids(keep func(Schema) bool) []table.SchemaID {
	var out []table.SchemaID
	for _, s := range r.schemas {
		if keep(s) {
			out = append(out, s.ID)
		}
	}
	return out
}

// Schema returns the schema id, or an error listing the registered ones.
func (r *Schemas) Schema(id table.SchemaID) (Schema, error) {
	if i := slices.IndexFunc(r.schemas, func(s Schema) bool { return s.ID == id }); i >= 0 {
		return r.schemas[i], nil
	}
	return Schema{}, fmt.Errorf("unknown schema %q; supported: %s", id, JoinIDs(r.IDs()))
}

// Target returns the target codec of id, or an error listing the IDs a
// deployment can be called with.
func (r *Schemas) Target(id table.SchemaID) (target.Codec, error) {
	s, _ := r.Schema(id)
	if s.Target == nil {
		return nil, fmt.Errorf("unknown target schema %q; supported: %s", id, JoinIDs(r.TargetIDs()))
	}
	return s.Target, nil
}

// Listener returns the listener codec of id, or an error listing the IDs
// a listener can speak.
func (r *Schemas) Listener(id table.SchemaID) (listener.Codec, error) {
	s, _ := r.Schema(id)
	if s.Listener == nil {
		return nil, fmt.Errorf("unknown listener schema %q; supported: %s", id, JoinIDs(r.ListenerIDs()))
	}
	return s.Listener, nil
}

// DeviationIDs returns every registered deviation ID, sorted.
func (r *Schemas) DeviationIDs() []string {
	out := make([]string, len(r.deviations))
	for i, d := range r.deviations {
		out[i] = d.ID()
	}
	return out
}

// Deviation returns the deviation id, or an error listing the registered
// ones.
func (r *Schemas) Deviation(id string) (target.Deviation, error) {
	if i := slices.IndexFunc(r.deviations, func(d target.Deviation) bool { return d.ID() == id }); i >= 0 {
		return r.deviations[i], nil
	}
	return nil, fmt.Errorf("unknown deviation %q; supported: %s", id, orNone(r.DeviationIDs()))
}

// Deviations resolves a deployment's deviation list for the schema it is
// called with, in the order given: each must be registered, apply to
// schema and be listed once. Every problem is returned.
func (r *Schemas) Deviations(schema table.SchemaID, ids []string) ([]target.Deviation, []error) {
	var errs []error
	out := make([]target.Deviation, 0, len(ids))
	for i, id := range ids {
		d, err := r.Deviation(id)
		switch {
		case err != nil:
			errs = append(errs, err)
		case slices.Contains(ids[:i], id):
			errs = append(errs, fmt.Errorf("deviation %q is listed twice", id))
		case !d.AppliesTo(schema):
			errs = append(errs, fmt.Errorf("deviation %q does not apply to %s", id, schema))
		default:
			out = append(out, d)
		}
	}
	return out, errs
}

// JoinIDs lists schema IDs for a message: "a, b", or "none".
func JoinIDs(ids []table.SchemaID) string {
	names := make([]string, len(ids))
	for i, id := range ids {
		names[i] = string(id)
	}
	return orNone(names)
}

func orNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}
