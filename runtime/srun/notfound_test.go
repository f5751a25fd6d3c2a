package srun_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/runtime/srun"
	"github.com/vllm-sr/systemone/runtime/table"
)

// An unknown path is 404 not_found on both listeners, and on vllm-sr/4.0
// its error object says not_found too: 404 is also model_not_found's
// status, and the code is the error's own, never the first code of its
// status. A model the server does not answer with stays model_not_found.
func TestUnknownPathIsNotFound(t *testing.T) {
	for _, schema := range []table.SchemaID{table.SchemaVllmSR50, table.SchemaVllmSR40} {
		t.Run(string(schema), func(t *testing.T) {
			s := start(t, srun.Config{Schema: schema})
			for _, path := range []string{"/v1/nothing-here", "/v1/systemone/extra", "/"} {
				r := s.get(path).wantError(t, http.StatusNotFound, "not_found")
				if r.str("reason") != "unknown_path" {
					t.Errorf("%s: reason %q, want unknown_path: %s", path, r.str("reason"), r.body)
				}
				if schema != table.SchemaVllmSR40 {
					continue
				}
				if r.str("error", "code") != "not_found" || r.str("error", "message") == "" {
					t.Errorf("%s: the 4.0 error object: %s", path, r.body)
				}
			}
			unknownModel := strings.Replace(urgent, fast, "no-such-model", 1)
			r := s.post("/v1/systemone", unknownModel).wantError(t, http.StatusNotFound, "model_not_found")
			if schema == table.SchemaVllmSR40 && r.str("error", "code") != "model_not_found" {
				t.Errorf("an unknown model's 4.0 error object: %s", r.body)
			}
		})
	}
}
