package srun_test

import (
	"net/http"
	"testing"

	"github.com/vllm-sr/systemone/generated/catalog"
	"github.com/vllm-sr/systemone/generated/corpus"
	"github.com/vllm-sr/systemone/runtime/srun"
	"github.com/vllm-sr/systemone/runtime/table"
)

// Every catalogue model can be served: its server starts, runs its
// family's self-test corpus cases through the reference scorer, and
// becomes ready. A self-test case the scorer cannot answer (for
// instance a video without a readable duration) keeps the server from
// ever becoming ready, so this is checked per model and per listener.
func TestEveryCatalogModelBecomesReady(t *testing.T) {
	models := catalog.Models()
	if len(models) == 0 {
		t.Fatal("the catalogue has no models")
	}
	for _, schema := range []table.SchemaID{table.SchemaVllmSR50, table.SchemaVllmSR40} {
		for _, m := range models {
			t.Run(string(schema)+"/"+m.Name, func(t *testing.T) {
				s, err := tryStart(t, srun.Config{Model: m.Name, Schema: schema})
				if err != nil {
					t.Fatalf("%s is never ready: %v", m.Name, err)
				}
				s.get("/health").want(t, http.StatusOK)
			})
		}
	}
}

// Every family self-test body is in the internal form, so the native
// endpoint reads each as it is, on both listeners, and the model it names
// answers every question: the endpoint's validator is the internal
// schema's (roles null, preset-only questions and typed assets are its
// forms), not vllm-sr/4.0's with exceptions.
func TestDecisionsReadsEverySelfTestBody(t *testing.T) {
	for _, schema := range []table.SchemaID{table.SchemaVllmSR50, table.SchemaVllmSR40} {
		ss := newServers(t, schema)
		for _, c := range corpus.Cases {
			if c.Kind != table.CorpusFamilySelfTest {
				continue
			}
			body, err := corpus.FS.ReadFile(c.Path)
			if err != nil {
				t.Fatal(err)
			}
			t.Run(string(schema)+"/"+c.Name, func(t *testing.T) {
				r := ss.of(t, modelOf(t, string(body))).post("/v1/decisions", string(body)).want(t, http.StatusOK)
				answers, _ := r.at("answers").(map[string]any)
				if len(answers) == 0 {
					t.Fatalf("no answers: %s", r.body)
				}
				for name, a := range answers {
					if e := a.(map[string]any)["error"]; e != nil {
						t.Errorf("question %s answered %v: %s", name, e, r.body)
					}
				}
			})
		}
	}
}
