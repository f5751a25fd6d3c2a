package srun_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/vllm-sr/systemone/generated/catalog"
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/srun"
)

// TestLongContextHeaderOnEveryEndpoint: the standard's long-context
// header raises the validated length on every endpoint of the runtime,
// /v1/decisions and the internal /v1/bundle as /v1/systemone and the
// batch: a state of 40,000 tokens, past decision3's 32,768 and within its
// long-context length, is answered with the header and refused without
// it, each endpoint in its own way, the limit named. On /v1/decisions the
// refusal lists each question's kind, reason and limit in its detail
// (what the Router reads back to answer alike).
func TestLongContextHeaderOnEveryEndpoint(t *testing.T) {
	const model = "vllm-sr/decision3"
	m, _ := catalog.Model(model)
	if m.Card.Limits.MaxInputTokens != 32768 || m.Card.Limits.LongContextMaxInputTokens < 40000 {
		t.Fatalf("decision3's limits changed: %+v; pick a state length between them", m.Card.Limits)
	}
	s := start(t, srun.Config{Model: model})
	state := fmt.Sprintf("%q", words(40000))
	questions := `"questions": {"a": {"type": "noul", "instructions": "Is it?"}, "b": {"type": "noul", "instructions": "Is it not?"}}`
	request := `{"model": "` + model + `", "state": ` + state + `, ` + questions + `}`
	bodies := map[string]string{
		vocab.PathSystemone:      request,
		vocab.PathDecisions:      request,
		vocab.PathSystemoneBatch: `{"model": "` + model + `", "requests": {"one": {"state": ` + state + `, ` + questions + `}}}`,
		vocab.PathBundle:         `{"model": "` + model + `", "requests": {"one": {"state": ` + state + `, ` + questions + `}}}`,
	}
	for path, body := range bodies {
		t.Run(path, func(t *testing.T) {
			r := s.post(path, body, vocab.HeaderLongContext, "true").want(t, http.StatusOK)
			answers := []any{"answers"}
			if path == vocab.PathSystemoneBatch || path == vocab.PathBundle {
				answers = []any{"responses", "one", "answers"}
			}
			for _, q := range []string{"a", "b"} {
				if r.at(append(answers, q, "noul")...) == nil {
					t.Errorf("with the header, question %s is not answered: %s", q, r.body)
				}
			}
			without := s.post(path, body)
			switch path {
			case vocab.PathSystemone, vocab.PathSystemoneBatch:
				without.wantError(t, http.StatusBadRequest, "question_failed")
				if without.str("reason") != vocab.ReasonInputTooLong || without.num("limit") != 32768 {
					t.Errorf("without the header: %s", without.body)
				}
			case vocab.PathDecisions:
				without.wantError(t, http.StatusBadRequest, "invalid_request")
				for i, q := range []string{"a", "b"} {
					item := []any{"detail", i}
					if fmt.Sprint(without.at(append(item, "loc")...)) != "[body questions "+q+"]" ||
						without.str(append(item, "type")...) != "max_length_exceeded" ||
						without.str(append(item, "ctx", "reason")...) != vocab.ReasonInputTooLong ||
						without.num(append(item, "ctx", "limit")...) != 32768 {
						t.Errorf("without the header, question %s's item: %s", q, without.body)
					}
				}
			case vocab.PathBundle:
				without.want(t, http.StatusOK)
				for _, q := range []string{"a", "b"} {
					if without.str(append(answers, q, "error")...) != "max_length_exceeded" ||
						without.str(append(answers, q, "reason")...) != vocab.ReasonInputTooLong {
						t.Errorf("without the header, question %s: %s", q, without.body)
					}
				}
			}
		})
	}
}
