package target_test

import (
	"path/filepath"
	"testing"

	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/target"
	"github.com/vllm-sr/systemone/runtime/testkit"
)

// BenchmarkDecodeReply measures the Router's read of one upstream reply,
// on its hot path: a systemone/0.2 response of three questions (with the
// members a gateway adds), and the vllm-sr/5.0 and internal batch replies
// of the golden cases. It reports cpu-ns/op beside ns/op: the machine is
// shared, and CPU time is the steadier measure.
//
//	go test -run '^$' -bench DecodeReply -benchmem ./runtime/target/
func BenchmarkDecodeReply(b *testing.B) {
	standard := readBatch(b, []byte(`{"requests":{"r":{"state":"s","questions":{
		"n":{"type":"noul","instructions":"i"},"c":{"type":"choice","criteria":{"a":"A","b":"B"}},"s":{"type":"score","criteria":["lo","mid","hi"]}}}}}`), nil)
	standardReply := []byte(`{"id":"gen-1","provider":"gw","model":"d3-2026","answers":{` +
		`"n":{"type":"noul","noul":0.82,"stats":{}},` +
		`"c":{"type":"choice","choice":"b","confidence":0.6,"probabilities":{"a":0.2,"b":0.8}},` +
		`"s":{"type":"score","score":1.3,"confidence":0.4,"probabilities":{"0":0.2,"1":0.3,"2":0.5},"legend":{"0":"lo","1":"mid","2":"hi"}}},` +
		`"usage":{"input_tokens":412,"output_tokens":0,"cost":0.0001},"assets_used":null}`)
	cases := []struct {
		name  string
		codec target.Codec
		plan  func(b *testing.B) target.Plan
		reply []byte
	}{
		{"standard02", target.Standard02, func(b *testing.B) target.Plan { return mustPlan(b, target.Standard02, standard, gateway) }, standardReply},
		{"v50", target.V50, func(b *testing.B) target.Plan {
			return mustPlan(b, target.V50, readCaseBatch(b, "testdata/v50/batch-call", nil), serve)
		}, goldenReply(b, "testdata/v50/batch-call")},
		{"internal", target.Internal, func(b *testing.B) target.Plan {
			return mustPlan(b, target.Internal, readCaseBatch(b, "testdata/internal/bundle", nil), runtimeTarget)
		}, goldenReply(b, "testdata/internal/bundle")},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			plan := c.plan(b)
			reply := target.WireReply{Status: 200, Body: c.reply}
			if results, err := c.codec.DecodeReply(plan, plan.Calls[0], reply); err != nil || len(results) == 0 || results[0].Response == nil {
				b.Fatalf("the reply does not decode: %+v, %v", results, err)
			}
			b.ReportAllocs()
			report := testkit.CPUPerOp(b)
			for b.Loop() {
				_, _ = c.codec.DecodeReply(plan, plan.Calls[0], reply)
			}
			report()
		})
	}
}

func mustPlan(b *testing.B, codec target.Codec, batch *ir.Batch, t target.Target) target.Plan {
	b.Helper()
	plan, _, err := codec.Plan(batch, t, target.Policy{})
	if err != nil || len(plan.Calls) != 1 {
		b.Fatalf("plan: %d calls, %v", len(plan.Calls), err)
	}
	return plan
}

// goldenReply is the body of the first reply of a golden case.
func goldenReply(b *testing.B, dir string) []byte {
	b.Helper()
	var replies []codecReplyFile
	readJSON(b, filepath.Join(dir, "replies.json"), &replies)
	if len(replies) == 0 {
		b.Fatalf("%s: no replies", dir)
	}
	return replies[0].Body
}
