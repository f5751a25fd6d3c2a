package target_test

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/generated/validate"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/target"
)

// TestBatchOfTwentySplits: a batch of 20 goes as 20 single calls in batch
// order under the deployment's max_concurrency, and reassembles in order
// with the usage summed.
func TestBatchOfTwentySplits(t *testing.T) {
	var items []string
	for i := range 20 {
		items = append(items, fmt.Sprintf(`"doc_%02d":{"state":"passage %d","questions":{"relevance":{"type":"noul","instructions":"Does it help?"}}}`, i, i))
	}
	b := readBatch(t, []byte(`{"model":"m","requests":{`+strings.Join(items, ",")+`}}`), nil)
	gw := gateway
	gw.MaxConcurrency = 4
	plan, _, err := target.Standard02.Plan(b, gw, target.Policy{})
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Calls) != 20 || plan.MaxConcurrency != 4 || len(plan.Order) != 20 {
		t.Fatalf("calls %d, max_concurrency %d, order %d", len(plan.Calls), plan.MaxConcurrency, len(plan.Order))
	}
	var results []target.ItemResult
	for i := len(plan.Calls) - 1; i >= 0; i-- { // replies arrive in any order
		c := plan.Calls[i]
		want := fmt.Sprintf("doc_%02d", i)
		if len(c.Items) != 1 || c.Items[0] != want || !strings.Contains(string(c.Body), fmt.Sprintf(`"passage %d"`, i)) {
			t.Fatalf("call %d carries %v: %s", i, c.Items, c.Body)
		}
		reply := target.WireReply{Status: 200, Body: []byte(fmt.Sprintf(
			`{"model":"d3","answers":{"relevance":{"type":"noul","noul":0.%02d}},"usage":{"input_tokens":%d,"output_tokens":1}}`, i, i+1))}
		got, err := target.Standard02.DecodeReply(plan, c, reply)
		if err != nil {
			t.Fatal(err)
		}
		results = append(results, got...)
	}
	out := target.Reassemble(&plan, results)
	if len(out.Responses) != 20 || out.Usage.InputTokens != 210 || out.Usage.OutputTokens != 20 {
		t.Fatalf("reassembled %d responses, usage %+v", len(out.Responses), *out.Usage)
	}
	for i, r := range out.Responses {
		if r.Name != fmt.Sprintf("doc_%02d", i) || *r.Response.Answers[0].Noul != float64(i)/100 {
			t.Fatalf("response %d is %s %v", i, r.Name, *r.Response.Answers[0].Noul)
		}
	}
}

// TestBodiesAreStandard: every body the codec writes for the golden cases
// passes the generated systemone/0.2 validator, so no extension member
// reaches a standard server.
func TestBodiesAreStandard(t *testing.T) {
	dirs, _ := filepath.Glob("testdata/standard02/*")
	for _, dir := range dirs {
		raw, err := os.ReadFile(filepath.Join(dir, "request.json"))
		if err != nil {
			t.Fatal(err)
		}
		var header http.Header
		if h, err := os.ReadFile(filepath.Join(dir, "header.json")); err == nil && strings.Contains(string(h), "Long-Context") {
			header = http.Header{"Typesafe-Danger-Zone-Long-Context": {"true"}}
		}
		plan, _, err := target.Standard02.Plan(readBatch(t, raw, header), gateway, target.Policy{})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range plan.Calls {
			v, err := jsonvalue.Decode(c.Body, jsonvalue.Options{})
			if err != nil {
				t.Fatalf("%s: %v", dir, err)
			}
			if problems := validate.RequestStandard02(v); problems != nil {
				t.Errorf("%s: %s is not standard: %+v", dir, c.Body, problems)
			}
		}
	}
}

// TestPlanLeavesTheIRAsRead: expansion works on a copy.
func TestPlanLeavesTheIRAsRead(t *testing.T) {
	b := readBatch(t, []byte(`{"requests":{"r":{"state":"s","questions":{"j":{"type":"noul","preset":"jailbreak"}}}}}`), nil)
	if _, _, err := target.Standard02.Plan(b, gateway, target.Policy{}); err != nil {
		t.Fatal(err)
	}
	q := b.Items[0].Request.Questions[0]
	if q.Instructions.IsValid() || q.Criteria.Present() || b.Items[0].Request.Model != nil {
		t.Fatal("Plan changed the batch it was given")
	}
}

func TestNoEndpoint(t *testing.T) {
	b := readBatch(t, []byte(`{"requests":{"r":{"state":"s","questions":{"j":{"type":"noul"}}}}}`), nil)
	if _, _, err := target.Standard02.Plan(b, target.Target{Deployment: "d"}, target.Policy{}); err != target.ErrNoEndpoint {
		t.Fatalf("got %v", err)
	}
}
