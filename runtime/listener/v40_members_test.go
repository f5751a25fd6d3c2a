package listener_test

import (
	"testing"

	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/table"
	"github.com/vllm-sr/systemone/runtime/testkit"
)

// Every family's self-test, answered by the reference scorer and written
// by this codec, carries only members the vllm-sr/4.0 field tables define
// (testkit.ScorerAnswersUseOnlyKnownMembers says why).
func TestV40ScorerAnswersUseOnlyKnownMembers(t *testing.T) {
	testkit.ScorerAnswersUseOnlyKnownMembers(t, listener.V40, table.SchemaVllmSR40)
}
