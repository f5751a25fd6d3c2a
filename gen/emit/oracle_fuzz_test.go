package emit_test

import (
	"testing"

	"github.com/vllm-sr/systemone/runtime/jsonvalue"
)

// FuzzValidatorsMatchOracle checks any JSON body under every schema, as a
// request and as a batch: the generated validators report exactly what
// the oracle (oracle_test.go) reports. Seeds are the oracle's bodies.
func FuzzValidatorsMatchOracle(f *testing.F) {
	for _, body := range oracleBodies(f) {
		f.Add(body)
	}
	schemas := loadOracle(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := jsonvalue.Decode(data, jsonvalue.Options{})
		if err != nil {
			return
		}
		compareWithOracle(t, schemas, v)
	})
}
