package registry

import (
	"github.com/vllm-sr/systemone/generated/vocab"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/runtime/table"
)

func TestBuiltinSchemas(t *testing.T) {
	r := BuiltinSchemas()
	if got, want := JoinIDs(r.IDs()), "internal, systemone/0.2, vllm-sr/4.0, vllm-sr/5.0"; got != want {
		t.Errorf("IDs %s, want %s", got, want)
	}
	if got, want := JoinIDs(r.TargetIDs()), "internal, systemone/0.2, vllm-sr/5.0"; got != want {
		t.Errorf("target IDs %s, want %s", got, want)
	}
	if got, want := JoinIDs(r.ListenerIDs()), "vllm-sr/4.0, vllm-sr/5.0"; got != want {
		t.Errorf("listener IDs %s, want %s", got, want)
	}
	if got := strings.Join(r.DeviationIDs(), ","); got != "state_text" {
		t.Errorf("deviations %s", got)
	}
	if _, errs := r.Deviations(table.SchemaStandard02, []string{"state_text"}); errs != nil {
		t.Errorf("state_text on systemone/0.2: %v", errs)
	}
	_, err := r.Schema("vllm-sr/6.0")
	if want := `unknown schema "vllm-sr/6.0"; supported: internal, systemone/0.2, vllm-sr/4.0, vllm-sr/5.0`; err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

// TestBuiltinSpecFiles hashes the repository's specification files: the
// codecs and the generated tables were built from exactly these bytes.
func TestBuiltinSpecFiles(t *testing.T) {
	if err := BuiltinSchemas().VerifySpecFiles(filepath.Join("..", "..")); err != nil {
		t.Fatal(err)
	}
}

// TestBuiltinSchemasBindEverySpecSchema: every schema ID the specs define
// (each one the generated member lists speak of) has an entry in the
// built-in registry with at least one codec: a new schema ID in the specs
// fails here until it is bound.
func TestBuiltinSchemasBindEverySpecSchema(t *testing.T) {
	reg := BuiltinSchemas()
	seen := map[table.SchemaID]bool{}
	for _, lm := range vocab.Members {
		if seen[lm.Schema] {
			continue
		}
		seen[lm.Schema] = true
		if _, err := reg.Schema(lm.Schema); err != nil {
			t.Errorf("the specs define schema %s, which the built-in registry does not bind: %v", lm.Schema, err)
		}
	}
	if len(seen) < 4 {
		t.Fatalf("the generated member lists speak of %d schemas, want at least 4", len(seen))
	}
}
