package router_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// testBatchNaming: a batch through the Router names the model the client
// asked for (the deployment key) at its top and in every item, as each
// item alone would be answered; never the upstream's own model name. On
// a vllm-sr/5.0 deployment (local-vela, model vllm-sr/vela3-fast) and a
// split systemone/0.2 one (gateway-d3, model d3).
func testBatchNaming(t *testing.T, e *env) {
	for _, key := range []string{"local-vela", "gateway-d3"} {
		q := `"questions":{"urgent":{"type":"noul","instructions":"Is it urgent?"}}`
		body := `{"model":"` + key + `","requests":{"a":{"state":"my screen is black",` + q + `},` +
			`"b":{"model":"` + key + `","state":"the build is red",` + q + `}}}`
		status, out := post(t, e.url("public5", "/v1/systemone/batch"), body)
		if status != 200 {
			t.Fatalf("%s: %d %s", key, status, out)
		}
		var got struct {
			Model     string
			Responses map[string]struct{ Model string }
		}
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatal(err)
		}
		if got.Model != key || len(got.Responses) != 2 {
			t.Errorf("%s: the batch names %q with %d responses: %s", key, got.Model, len(got.Responses), out)
		}
		for name, r := range got.Responses {
			if r.Model != key {
				t.Errorf("%s: item %s names %q, want the batch's %q", key, name, r.Model, key)
			}
		}
		status, out = post(t, e.url("public5", "/v1/systemone"), `{"model":"`+key+`","state":"my screen is black",`+q+`}`)
		if single := decodeJSON(t, out); status != 200 || single["model"] != key {
			t.Errorf("%s alone: %d %s", key, status, out)
		}
	}
}

// testModelOptional: model is optional while the listener answers with
// one model. one5 serves only vllm-sr/decision1: the API guide's Try-it
// body, which names no model, is answered by it on /v1/systemone, and on
// /v1/decisions too, where what goes upstream names the deployment's
// model (the client's bytes, which name none, do not go on). public5
// serves several: the same body is 400 missing_model, naming how many.
func testModelOptional(t *testing.T, e *env) {
	tryIt := `{"state": "Our export button fails with a 500 since this morning. Open a ticket.",
 "questions": {"urgent": {"type": "noul", "instructions": "Does the user report a problem that blocks their work?"}}}`
	status, out := post(t, e.url("one5", "/v1/systemone"), tryIt)
	got := decodeJSON(t, out)
	answers, _ := got["answers"].(map[string]any)
	urgent, _ := answers["urgent"].(map[string]any)
	if status != 200 || got["model"] != "vllm-sr/decision1" || urgent["noul"] == nil {
		t.Fatalf("one model, no model named: %d %s", status, out)
	}
	before := len(e.tap.Got("/v1/decisions"))
	status, out = post(t, e.url("one5", "/v1/decisions"), tryIt)
	if got := decodeJSON(t, out); status != 200 || got["model"] != "vllm-sr/decision1" {
		t.Fatalf("/v1/decisions: %d %s", status, out)
	}
	sent := e.tap.Got("/v1/decisions")[before:]
	if len(sent) != 1 || decodeJSON(t, sent[0])["model"] != "vllm-sr/decision1" {
		t.Errorf("the runtime got %q, want one call naming its model", sent)
	}
	status, out = post(t, e.url("public5", "/v1/systemone"), tryIt)
	got = decodeJSON(t, out)
	if status != 400 || got["code"] != "invalid_request" || got["reason"] != "missing_model" ||
		!strings.Contains(got["detail"].(string), `listener "public5" serves 5 models`) {
		t.Errorf("several models, none named: %d %s", status, out)
	}

	// A batch that leaves its model out on one5 is answered by its one
	// model, and its items may repeat that model (as they may repeat a
	// batch's), but name no other.
	item := `{"state": "The export fails.", "questions": {"urgent": {"type": "noul", "instructions": "Is it urgent?"}}}`
	repeat := strings.Replace(item, `{"state"`, `{"model": "vllm-sr/decision1", "state"`, 1)
	status, out = post(t, e.url("one5", "/v1/systemone/batch"), `{"requests": {"a": `+repeat+`, "b": `+item+`}}`)
	if got := decodeJSON(t, out); status != 200 || got["model"] != "vllm-sr/decision1" {
		t.Errorf("a batch naming no model, an item repeating one5's: %d %s", status, out)
	}
	other := strings.Replace(item, `{"state"`, `{"model": "gateway-d3", "state"`, 1)
	status, out = post(t, e.url("one5", "/v1/systemone/batch"), `{"requests": {"a": `+other+`}}`)
	if got := decodeJSON(t, out); status != 404 || got["code"] != "model_not_found" {
		t.Errorf("an item naming a model one5 does not serve: %d %s", status, out)
	}
	status, out = post(t, e.url("public5", "/v1/systemone/batch"), `{"requests": {"a": `+repeat+`}}`)
	if got := decodeJSON(t, out); status != 400 || got["reason"] != "missing_model" {
		t.Errorf("a batch naming no model on a listener of several: %d %s", status, out)
	}
}
