package target_test

import "github.com/vllm-sr/systemone/runtime/ir"

func batchOf(r *ir.Request) *ir.Batch {
	return &ir.Batch{Items: []ir.BatchItem{{Name: "only", Request: *r}}}
}
