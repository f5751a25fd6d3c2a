package targetinternal

import sp "github.com/vllm-sr/systemone/runtime/systemoneprotocol"

func batchOf(r *sp.Request) *sp.Batch {
	return &sp.Batch{Items: []sp.BatchItem{{Name: "only", Request: *r}}}
}
