package target_test

import (
	"testing"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/target"
)

// FuzzStandard02DecodeReply feeds arbitrary statuses and bodies to
// DecodeReply for a plan of three questions, seeded from the golden
// replies: every reply gives exactly one result for the item, never a
// panic; a failed call carries a code and a reason the specification
// defines, and an answer that reaches the client keeps to the schema's
// ranges (a noul in 0..1, a choice among the options).
func FuzzStandard02DecodeReply(f *testing.F) {
	seedReplies(f, "testdata/standard02/*/replies.json")
	b := readBatch(f, []byte(`{"requests":{"r":{"state":"s","questions":{
		"n":{"type":"noul","instructions":"i"},"c":{"type":"choice","criteria":{"a":"A","b":"B"}},"s":{"type":"score","criteria":["lo","hi"]}}}}}`), nil)
	plan, _, err := target.Standard02.Plan(b, gateway, target.Policy{})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, status int, body []byte) {
		results, err := target.Standard02.DecodeReply(plan, plan.Calls[0], target.WireReply{Status: status, Body: body})
		if err != nil || len(results) != 1 || (results[0].Response == nil) == (results[0].Error == nil) {
			t.Fatalf("results %+v, %v", results, err)
		}
		if r := results[0].Response; r != nil && len(r.Answers) != 3 {
			t.Fatalf("%d answers", len(r.Answers))
		}
		if e := results[0].Error; e != nil {
			if _, known := vocab.ReasonOf(e.Reason); e.Code == "" || !known {
				t.Fatalf("error %+v", e)
			}
		}
		if r := results[0].Response; r != nil {
			for _, a := range r.Answers {
				if a.Error == "" && (a.Noul != nil && (*a.Noul < 0 || *a.Noul > 1) || a.Choice != nil && *a.Choice != "a" && *a.Choice != "b") {
					t.Fatalf("answer out of range passed: %+v", a)
				}
			}
		}
		_ = target.Reassemble(&plan, results)
	})
}
