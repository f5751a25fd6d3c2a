package srun_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/srun"
	"github.com/vllm-sr/systemone/runtime/table"
)

// The seed's batch: named complete requests, each answered as it would be
// alone, with summed usage.
const seedBatch = `{
"model": "vllm-sr/vela3-fast",
"requests": {
"doc_1": {
"state": {"request": "How long is the refund window?", "candidate": "Refunds are accepted within 30 days of purchase."},
"roles": {"request": "user", "candidate": "context"},
"questions": {"relevance": {"type": "noul", "instructions": "Does the candidate passage help answer the request?"}}
},
"doc_2": {
"state": {"request": "How long is the refund window?", "candidate": "Our offices close on public holidays."},
"roles": {"request": "user", "candidate": "context"},
"questions": {"relevance": {"type": "noul", "instructions": "Does the candidate passage help answer the request?"}}
}
},
"options": {"deadline_ms": 3000}
}`

const doc1Alone = `{"model": "vllm-sr/vela3-fast",
"state": {"request": "How long is the refund window?", "candidate": "Refunds are accepted within 30 days of purchase."},
"roles": {"request": "user", "candidate": "context"},
"questions": {"relevance": {"type": "noul", "instructions": "Does the candidate passage help answer the request?"}},
"options": {"deadline_ms": 3000}}`

func TestBatch(t *testing.T) {
	s := start(t, srun.Config{Engine: failing{inner: srun.ReferenceEngine(), name: "broken",
		code: ir.QuestionErrorInvalidModelOutput, reason: "no_valid_output"}})
	r := s.post("/v1/systemone/batch", seedBatch).want(t, http.StatusOK)
	if r.str("model") != fast || strings.Join(jsonKeys(t, r.body, "responses"), ",") != "doc_1,doc_2" {
		t.Fatalf("got %s", r.body)
	}
	alone := s.post("/v1/systemone", doc1Alone).want(t, http.StatusOK)
	if r.num("responses", "doc_1", "answers", "relevance", "noul") != alone.num("answers", "relevance", "noul") {
		t.Errorf("doc_1 in the batch %v, alone %v", r.at("responses", "doc_1"), alone.at("answers"))
	}
	sum := r.num("responses", "doc_1", "usage", "input_tokens") + r.num("responses", "doc_2", "usage", "input_tokens")
	if sum == 0 || r.num("usage", "input_tokens") != sum {
		t.Errorf("usage %v, want the sum %v", r.at("usage"), sum)
	}

	// Items may repeat the batch's model, and only repeat it; a batch
	// naming a model the server does not answer with is 404.
	repeat := strings.Replace(seedBatch, `"doc_2": {`, `"doc_2": {"model": "vllm-sr/vela3-fast",`, 1)
	s.post("/v1/systemone/batch", repeat).want(t, http.StatusOK)
	other := strings.Replace(seedBatch, `"doc_2": {`, `"doc_2": {"model": "vllm-sr/decision1",`, 1)
	s.post("/v1/systemone/batch", other).wantError(t, http.StatusBadRequest, "invalid_request")
	s.post("/v1/systemone/batch", strings.Replace(seedBatch, fast, "vllm-sr/decision1", 1)).wantError(t, http.StatusNotFound, "model_not_found")
	// Options belong to the batch.
	itemOptions := strings.Replace(seedBatch, `"doc_2": {`, `"doc_2": {"options": {"deadline_ms": 5},`, 1)
	s.post("/v1/systemone/batch", itemOptions).wantError(t, http.StatusBadRequest, "invalid_request")

	// A failed question fails the batch, naming its request as state.
	failed := strings.Replace(seedBatch, `"doc_2": {
"state": {"request": "How long is the refund window?", "candidate": "Our offices close on public holidays."},
"roles": {"request": "user", "candidate": "context"},
"questions": {"relevance"`, `"doc_2": {
"state": {"request": "How long is the refund window?", "candidate": "Our offices close on public holidays."},
"roles": {"request": "user", "candidate": "context"},
"questions": {"broken"`, 1)
	f := s.post("/v1/systemone/batch", failed).wantError(t, http.StatusInternalServerError, "question_failed")
	if f.str("state") != "doc_2" || f.str("question") != "broken" {
		t.Errorf("got %s", f.body)
	}
	invalid := strings.Replace(seedBatch, `"questions": {"relevance": {"type": "noul",`, `"questions": {"relevance": {"type": "noul", "over": "request",`, 1)
	iv := s.post("/v1/systemone/batch", invalid).wantError(t, http.StatusUnprocessableEntity, "question_failed")
	if iv.str("state") != "doc_1" {
		t.Errorf("got %s", iv.body)
	}
	// The batch is a 5.0 endpoint; /v1/systemone takes exactly one request.
	s.post("/v1/systemone", seedBatch).wantError(t, http.StatusBadRequest, "invalid_request")
}

// The stage bundle: named requests in the internal form, each answered as
// it would be alone on /v1/decisions, failures in their answers.
func TestBundle(t *testing.T) {
	for _, schema := range []table.SchemaID{table.SchemaVllmSR50, table.SchemaVllmSR40} {
		t.Run(string(schema), func(t *testing.T) {
			s := start(t, srun.Config{Schema: schema})
			bundle := `{"model": "vllm-sr/vela3-fast", "requests": {
"a": {"state": {"request": "How long is the refund window?", "candidate": "Within 30 days."}, "questions": {"relevance": {"type": "noul", "instructions": "Does the candidate help?"}}},
"b": {"state": "Delete my account.", "roles": null, "questions": {"team": {"type": "choice", "instructions": "Which team?", "choices": {"billing": "Money", "support": "Accounts"}}, "bad": {"type": "noul", "instructions": "Is it?", "preset": "toxicity"}}}}}`
			r := s.post("/v1/bundle", bundle).want(t, http.StatusOK)
			if r.num("responses", "a", "answers", "relevance", "noul") == 0 && r.at("responses", "a", "answers", "relevance", "noul") == nil {
				t.Errorf("a: %s", r.body)
			}
			if r.str("responses", "b", "answers", "team", "type") != "choice" || r.str("responses", "b", "answers", "bad", "error") != "invalid_question" {
				t.Errorf("b: %s", r.body)
			}
			aloneBody := `{"model": "vllm-sr/vela3-fast", "state": {"request": "How long is the refund window?", "candidate": "Within 30 days."}, "questions": {"relevance": {"type": "noul", "instructions": "Does the candidate help?"}}}`
			alone := s.post("/v1/decisions", aloneBody).want(t, http.StatusOK)
			if alone.num("answers", "relevance", "noul") != r.num("responses", "a", "answers", "relevance", "noul") {
				t.Errorf("a in the bundle %v, alone %v", r.at("responses", "a"), alone.at("answers"))
			}
			if schema == table.SchemaVllmSR40 {
				check40(t, http.MethodPost, "/v1/bundle", []byte(bundle), false, r)
			}
		})
	}
}
