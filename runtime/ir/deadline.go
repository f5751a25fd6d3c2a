package ir

import (
	"math"
	"time"
)

// maxDeadlineMs is the largest deadline_ms a time.Duration holds in
// nanoseconds (about 292 years).
const maxDeadlineMs = math.MaxInt64 / int64(time.Millisecond)

// DeadlineDuration is a deadline in milliseconds (options.deadline_ms, a
// listener's max_deadline_ms) as a time.Duration. The schemas give
// deadline_ms no maximum, and time.Duration(ms)*time.Millisecond
// overflows from 9223372036855 ms on into a negative duration, a deadline
// already passed; DeadlineDuration clamps to the largest duration instead,
// which is no deadline in practice. ms <= 0 is 0 (the validators refuse
// it before any server reads it).
func DeadlineDuration(ms int64) time.Duration {
	switch {
	case ms <= 0:
		return 0
	case ms >= maxDeadlineMs:
		return time.Duration(math.MaxInt64)
	}
	return time.Duration(ms) * time.Millisecond
}
