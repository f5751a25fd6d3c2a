package listener5

import (
	"testing"

	"github.com/vllm-sr/systemone/runtime/listener/listenertest"
	"github.com/vllm-sr/systemone/runtime/table"
)

// Every family's self-test, answered by the reference scorer and written
// by this codec, carries only members the vllm-sr/5.0 field tables define
// (listenertest.ScorerAnswersUseOnlyKnownMembers says why).
func TestScorerAnswersUseOnlyKnownMembers(t *testing.T) {
	listenertest.ScorerAnswersUseOnlyKnownMembers(t, Codec{}, table.SchemaVllmSR50)
}
