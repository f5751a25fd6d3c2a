package target_test

import (
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/target"
)

// TestBatchExtraGoesUpstream: the members a batch carries in Extra (passive
// batch members, which the generated binding reads there) reach a
// vllm-sr/5.0 upstream's batch call and an internal upstream's bundle, as
// every writer writes an object's Extra back.
func TestBatchExtraGoesUpstream(t *testing.T) {
	item := func() ir.Request {
		return ir.Request{State: jsonvalue.String("s"), Roles: ir.Roles{Mode: ir.RoleModeNone},
			Questions: []ir.Question{{Name: "q", Type: "noul"}}}
	}
	batch := &ir.Batch{Items: []ir.BatchItem{{Name: "a", Request: item()}, {Name: "b", Request: item()}},
		Extra: []jsonvalue.Member{{Name: "passive_note", Value: jsonvalue.String("n")}}}
	for _, c := range []struct {
		name  string
		codec target.Codec
	}{{"vllm-sr/5.0", target.V50}, {"internal", target.Internal}} {
		plan, _, err := c.codec.Plan(batch, serve, target.Policy{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(plan.Calls) != 1 || !strings.HasSuffix(string(plan.Calls[0].Body), `,"passive_note":"n"}`) {
			t.Errorf("%s: the batch's extra member is not in its call: %+v", c.name, plan.Calls)
		}
	}
}
