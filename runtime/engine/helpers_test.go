package engine

import (
	"net/http"
	"sort"

	"github.com/vllm-sr/systemone/runtime/registry"
	"github.com/vllm-sr/systemone/runtime/table"
)

// builtinSchemas and builtin are the registry and the engine the
// commands run with.
var (
	builtinSchemas = registry.BuiltinSchemas()
	builtin        = New(builtinSchemas)
)

// convert is builtin's Translate, the body only.
func convert(from, to table.SchemaID, deviationIDs []string, body []byte) ([]byte, error) {
	res, err := builtin.Translate(from, to, deviationIDs, body)
	return res.Body, err
}

func sortedKeys(h http.Header) []string {
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
