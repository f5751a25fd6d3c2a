//go:build !unix

package target_test

import "testing"

// cpuPerOp reports nothing where getrusage is missing.
func cpuPerOp(*testing.B) func() { return func() {} }
