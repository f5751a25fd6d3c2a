package routerconfig

import (
	"os"
	"testing"
)

// BenchmarkLoadExample loads the configuration guide's complete example.
func BenchmarkLoadExample(b *testing.B) {
	data, err := os.ReadFile("../../docs/examples/router.yaml")
	if err != nil {
		b.Fatal(err)
	}
	regs := builtin()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Load("router.yaml", data, regs); err != nil {
			b.Fatal(err)
		}
	}
}
