package shapes_test

import (
	"github.com/vllm-sr/systemone/runtime/shapes"
	"github.com/vllm-sr/systemone/runtime/testkit"
)

// The round-trip tests compare with goldens through runtime/testkit (its
// -update flag and SRGEN_UPDATE_GOLDEN=1 included), which imports this
// package: only this external test file can hand it to them.
func init() { shapes.SetGoldenCheck(testkit.GoldenCheck) }
