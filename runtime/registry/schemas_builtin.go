package registry

import (
	"github.com/vllm-sr/systemone/generated/fieldtable"
	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/table"
	"github.com/vllm-sr/systemone/runtime/target"
)

// BuiltinSchemas returns the schema registry the Router runs with: every
// schema codec and deviation of this module, checked against the
// generated specification hashes. It panics only if they disagree, a
// programmer error (a stale generate) that its test catches.
func BuiltinSchemas() *Schemas {
	r, err := NewSchemas(builtinSchemaEntries(), target.BuiltinDeviations(), fieldtable.SpecHashes)
	if err != nil {
		panic("registry: the built-in schema registry is invalid: " + err.Error())
	}
	return r
}

func builtinSchemaEntries() []Schema {
	ref := func(path, sha string) SpecRef { return SpecRef{Path: path, SHA256: sha} }
	return []Schema{
		{
			ID:     table.SchemaStandard02,
			Spec:   ref(fieldtable.SpecStandard02Path, fieldtable.SpecStandard02SHA256),
			Target: target.Standard02,
		},
		{
			ID:       table.SchemaVllmSR50,
			Spec:     ref(fieldtable.SpecVllmSR50Path, fieldtable.SpecVllmSR50SHA256),
			Listener: listener.V50,
			Target:   target.V50,
		},
		{
			ID:       table.SchemaVllmSR40,
			Spec:     ref(fieldtable.SpecVllmSR40Path, fieldtable.SpecVllmSR40SHA256),
			Listener: listener.V40,
		},
		{
			// The internal form is the 4.0 request forms plus roles: the
			// 4.0 contract is its specification.
			ID:     table.SchemaInternal,
			Spec:   ref(fieldtable.SpecVllmSR40Path, fieldtable.SpecVllmSR40SHA256),
			Target: target.Internal,
		},
	}
}
