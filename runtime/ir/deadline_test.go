package ir

import (
	"math"
	"testing"
	"time"
)

// TestDeadlineDurationNeverOverflows: from 9223372036855 ms on,
// time.Duration(ms)*time.Millisecond wraps negative (a deadline already
// passed, answered 504 at once); DeadlineDuration clamps instead.
func TestDeadlineDurationNeverOverflows(t *testing.T) {
	for _, ms := range []int64{9223372036854, 9223372036855, 1 << 62, math.MaxInt64} {
		d := DeadlineDuration(ms)
		if d < 290*365*24*time.Hour {
			t.Errorf("DeadlineDuration(%d) = %v, want at least 290 years", ms, d)
		}
		if at := time.Now().Add(d); !at.After(time.Now().Add(100 * 365 * 24 * time.Hour)) {
			t.Errorf("DeadlineDuration(%d) from now is %v, not in the far future", ms, at)
		}
	}
	for ms, want := range map[int64]time.Duration{1500: 1500 * time.Millisecond, 1: time.Millisecond, 0: 0, -5: 0} {
		if got := DeadlineDuration(ms); got != want {
			t.Errorf("DeadlineDuration(%d) = %v, want %v", ms, got, want)
		}
	}
}
