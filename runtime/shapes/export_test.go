package shapes

import "testing"

// goldenCheck compares a round-trip test's IR dump with its golden file,
// or rewrites it. It is testkit.GoldenCheck, installed by golden_test.go:
// runtime/testkit imports this package (through runtime/listener), so only
// an external test file may import testkit.
var goldenCheck func(t testing.TB, path string, got []byte)

// SetGoldenCheck installs goldenCheck.
func SetGoldenCheck(check func(t testing.TB, path string, got []byte)) { goldenCheck = check }
