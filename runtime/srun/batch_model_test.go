package srun_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/runtime/srun"
)

// TestBatchItemsRepeatAnOmittedModel: a batch may leave its model out on
// this one-model server; its items may then still repeat the model (as
// they may repeat a batch's), so long as they all name the same one. An
// item naming another model is 404 model_not_found, as a batch naming it
// would be; two items naming two models conflict.
func TestBatchItemsRepeatAnOmittedModel(t *testing.T) {
	s := start(t, srun.Config{})
	noModel := strings.Replace(seedBatch, `"model": "vllm-sr/vela3-fast",`, "", 1)
	if noModel == seedBatch {
		t.Fatal("the seed batch names no model to leave out")
	}
	s.post("/v1/systemone/batch", noModel).want(t, http.StatusOK)
	one := strings.Replace(noModel, `"doc_2": {`, `"doc_2": {"model": "vllm-sr/vela3-fast",`, 1)
	if r := s.post("/v1/systemone/batch", one).want(t, http.StatusOK); r.str("model") != fast {
		t.Errorf("the batch answers with model %q, want %q", r.str("model"), fast)
	}
	both := strings.Replace(one, `"doc_1": {`, `"doc_1": {"model": "vllm-sr/vela3-fast",`, 1)
	s.post("/v1/systemone/batch", both).want(t, http.StatusOK)
	other := strings.Replace(noModel, `"doc_2": {`, `"doc_2": {"model": "vllm-sr/decision1",`, 1)
	s.post("/v1/systemone/batch", other).wantError(t, http.StatusNotFound, "model_not_found")
	two := strings.Replace(one, `"doc_1": {`, `"doc_1": {"model": "vllm-sr/decision1",`, 1)
	r := s.post("/v1/systemone/batch", two).wantError(t, http.StatusBadRequest, "invalid_request")
	if r.str("reason") != "conflicting_members" || !strings.Contains(r.str("detail"), "requests.doc_2.model") {
		t.Errorf("two items naming two models: %s", r.body)
	}
}
