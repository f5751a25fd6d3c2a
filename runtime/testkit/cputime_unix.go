//go:build unix

package testkit

import (
	"syscall"
	"testing"
)

// CPUPerOp reports, when the returned func is called after the timed
// loop, the process CPU time (user + system, every thread, so the garbage
// collector's background work counts) per iteration as cpu-ns/op. On a
// machine shared with other builds it is steadier than ns/op, which also
// counts the time the benchmark waits for a core.
func CPUPerOp(b *testing.B) func() {
	start := processCPU(b)
	return func() {
		b.ReportMetric(float64(processCPU(b)-start)/float64(b.N), "cpu-ns/op")
	}
}

func processCPU(b *testing.B) int64 {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		b.Fatal(err)
	}
	return u.Utime.Nano() + u.Stime.Nano()
}
