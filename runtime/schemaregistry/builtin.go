package schemaregistry

import (
	"github.com/vllm-sr/systemone/generated/fieldtable"
	"github.com/vllm-sr/systemone/runtime/deviation"
	"github.com/vllm-sr/systemone/runtime/listener4"
	"github.com/vllm-sr/systemone/runtime/listener5"
	"github.com/vllm-sr/systemone/runtime/table"
	"github.com/vllm-sr/systemone/runtime/target02"
	"github.com/vllm-sr/systemone/runtime/target50"
	"github.com/vllm-sr/systemone/runtime/targetcodec"
	"github.com/vllm-sr/systemone/runtime/targetinternal"
)

// Builtin returns the registry the Router runs with: every schema codec
// and deviation of this module, checked against the generated
// specification hashes. It panics only if they disagree, a programmer
// error (a stale generate) that its test catches.
func Builtin() *Registry {
	r, err := New(builtinSchemas(), deviation.Builtin(), fieldtable.SpecHashes)
	if err != nil {
		panic("schemaregistry: the built-in registry is invalid: " + err.Error())
	}
	return r
}

func builtinSchemas() []Schema {
	ref := func(path, sha string) targetcodec.SpecRef { return targetcodec.SpecRef{Path: path, SHA256: sha} }
	return []Schema{
		{
			ID:     table.SchemaStandard02,
			Spec:   ref(fieldtable.SpecStandard02Path, fieldtable.SpecStandard02SHA256),
			Target: target02.Codec{},
		},
		{
			ID:       table.SchemaVllmSR50,
			Spec:     ref(fieldtable.SpecVllmSR50Path, fieldtable.SpecVllmSR50SHA256),
			Listener: listener5.Codec{},
			Target:   target50.Codec{},
		},
		{
			ID:       table.SchemaVllmSR40,
			Spec:     ref(fieldtable.SpecVllmSR40Path, fieldtable.SpecVllmSR40SHA256),
			Listener: listener4.Codec{},
		},
		{
			// The internal form is the 4.0 request forms plus roles: the
			// 4.0 contract is its specification.
			ID:     table.SchemaInternal,
			Spec:   ref(fieldtable.SpecVllmSR40Path, fieldtable.SpecVllmSR40SHA256),
			Target: targetinternal.Codec{},
		},
	}
}
