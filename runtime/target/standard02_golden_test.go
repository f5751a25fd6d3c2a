package target_test

import (
	"testing"

	"github.com/vllm-sr/systemone/runtime/target"
)

// TestGoldenStandard02 runs every case under testdata/standard02: the
// plan's wire calls, the item results of the replies and the reassembled
// client answer.
func TestGoldenStandard02(t *testing.T) {
	codecGolden(t, "testdata/standard02", target.Standard02)
}
