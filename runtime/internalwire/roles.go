package internalwire

import (
	"github.com/vllm-sr/systemone/generated/fieldtable"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
)

// ExplicitRoles returns the roles a request's state parts have, spelled
// out: explicit roles and no roles as they are, and 4.0's implicit roles as
// the explicit roles they stand for, each key of an object state with the
// role the generated table gives its part name (fieldtable.ImplicitRole).
// In the states form the keys of every object state count, in order of
// first appearance. A request whose states are not objects has no parts,
// so its implicit roles are no roles.
//
// A codec writing a schema without implicit roles (vllm-sr/5.0) uses it to
// keep a 4.0 request's model input unchanged.
func ExplicitRoles(r *ir.Request) ir.Roles {
	if r.Roles.Mode != ir.RoleModeImplicit {
		return r.Roles
	}
	var parts []ir.RolePart
	seen := map[string]bool{}
	add := func(state jsonvalue.Value) {
		for _, m := range state.Members() {
			if !seen[m.Name] {
				seen[m.Name] = true
				parts = append(parts, ir.RolePart{Key: m.Name, Role: ir.Role(fieldtable.ImplicitRole(m.Name))})
			}
		}
	}
	add(r.State)
	for _, s := range r.States {
		add(s.Value)
	}
	if parts == nil {
		return ir.Roles{Mode: ir.RoleModeNone}
	}
	return ir.Roles{Mode: ir.RoleModeExplicit, Parts: parts}
}
