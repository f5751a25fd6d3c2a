package srun_test

import (
	"net/http"
	"testing"

	"github.com/vllm-sr/systemone/generated/catalog"
	"github.com/vllm-sr/systemone/runtime/srun"
	"github.com/vllm-sr/systemone/runtime/table"
)

// Standard clients work unchanged, on both listener schemas: the wire
// forms the published standard allows and its clients send (reference
// §4, §12.2, §13), including what the seed's open follow-up still refused
// (a choice with one option, a bare noul).
func TestStandardClientTolerance(t *testing.T) {
	cases := []struct {
		name, question, answerType string
	}{
		{"instructions absent", `{"type":"noul"}`, "noul"},
		{"instructions null", `{"type":"noul","instructions":null}`, "noul"},
		{"noul criteria null", `{"type":"noul","instructions":"Is it?","criteria":null}`, "noul"},
		{"noul criteria empty", `{"type":"noul","instructions":"Is it?","criteria":{}}`, "noul"},
		{"noul criteria with null members", `{"type":"noul","instructions":"Is it?","criteria":{"true":null,"false":null}}`, "noul"},
		{"noul criteria as content", `{"type":"noul","instructions":["Is it", {"really":true}],"criteria":{"true":{"means":"yes"},"false":["no"]}}`, "noul"},
		{"choice descriptions of every kind", `{"type":"choice","instructions":"Which?","criteria":{"x":null,"y":"why","z":{"k":1},"w":["a","b"]}}`, "choice"},
		{"choice with one option", `{"type":"choice","instructions":"Which?","criteria":{"only":null}}`, "choice"},
		{"score levels as content", `{"type":"score","instructions":"How?","criteria":["lo",{"mid":true},["hi"]]}`, "score"},
	}
	for _, schema := range []table.SchemaID{table.SchemaVllmSR50, table.SchemaVllmSR40} {
		s := start(t, srun.Config{Schema: schema})
		for _, c := range cases {
			t.Run(string(schema)+"/"+c.name, func(t *testing.T) {
				body := `{"model":"` + fast + `","state":{"msg":"hi"},"questions":{"q":` + c.question + `}}`
				r := s.post("/v1/systemone", body).want(t, http.StatusOK)
				if got := r.str("answers", "q", "type"); got != c.answerType {
					t.Fatalf("answer type %q, want %q: %s", got, c.answerType, r.body)
				}
			})
		}
		t.Run(string(schema)+"/one option is certain", func(t *testing.T) {
			r := s.post("/v1/systemone", `{"state":"hi","questions":{"q":{"type":"choice","criteria":{"only":null}}}}`).want(t, http.StatusOK)
			if r.str("answers", "q", "choice") != "only" || r.at("answers", "q", "probabilities", "only") != 1.0 || r.at("answers", "q", "confidence") != 1.0 {
				t.Fatalf("a one-option choice answers that option with probability and confidence 1: %s", r.body)
			}
		})
	}
}

// Every served model takes a choice with a single option, as the standard
// allows: vllm-sr closes the seeds' follow-up that still required two.
func TestEveryModelTakesASingleOptionChoice(t *testing.T) {
	for _, m := range catalog.Models() {
		if got := m.Card.Limits.Choices.Min; got != 1 {
			t.Errorf("%s: its card's choices start at %d, want 1", m.Name, got)
		}
	}
}
