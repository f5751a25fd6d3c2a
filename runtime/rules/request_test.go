package rules

import (
	"testing"

	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/llmproxy"
	"github.com/vllm-sr/systemone/runtime/routerconfig"
	tc "github.com/vllm-sr/systemone/runtime/target"
)

func TestRuleStateKeepsPartRoles(t *testing.T) {
	rule := &routerconfig.Rule{Name: "r", Input: []string{"request", "history", "answer"}}
	input := map[string]string{"request": "help", "answer": "done"}
	r := Request(rule, tc.V50.Traits(), llmproxy.Input{Parts: input})
	if got := string(jsonvalue.Compact(r.State)); got != `{"request":"help","history":"","answer":"done"}` {
		t.Fatalf("state %s", got)
	}
	want := []ir.RolePart{{Key: "request", Role: "user"}, {Key: "history", Role: "context"}, {Key: "answer", Role: "answer"}}
	if r.Roles.Mode != ir.RoleModeExplicit || len(r.Roles.Parts) != 3 {
		t.Fatalf("roles %+v", r.Roles)
	}
	for i, p := range want {
		if r.Roles.Parts[i] != p {
			t.Fatalf("role %d: %+v, want %+v", i, r.Roles.Parts[i], p)
		}
	}
	if in := Request(rule, tc.Internal.Traits(), llmproxy.Input{Parts: input}); in.Roles.Mode != ir.RoleModeImplicit || in.Roles.Parts != nil {
		t.Fatalf("the internal form leaves roles absent: %+v", in.Roles)
	}
}
