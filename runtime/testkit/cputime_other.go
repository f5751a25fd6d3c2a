//go:build !unix

package testkit

import "testing"

// CPUPerOp reports nothing where getrusage is missing.
func CPUPerOp(*testing.B) func() { return func() {} }
