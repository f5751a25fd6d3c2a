package target02

import (
	"testing"

	"github.com/vllm-sr/systemone/runtime/targetcodec/codectest"
)

// TestGolden runs every case under testdata/golden: the plan's wire calls,
// the item results of the replies and the reassembled client answer.
func TestGolden(t *testing.T) {
	codectest.RunDir(t, "testdata/golden", Codec{})
}
