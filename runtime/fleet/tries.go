package fleet

import (
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/vllm-sr/systemone/runtime/ir"
	tc "github.com/vllm-sr/systemone/runtime/target"
)

// TryAnswered is the outcome of the member whose answer is the request's.
const TryAnswered = "answered"

// Try is one deployment a request went to or passed over: its outcome
// (TryAnswered, or the error reason it was failed over or passed over
// for) and the calls made to it.
type Try struct {
	Deployment string
	Outcome    string
	Calls      int
}

// TriesLog is the access line's tries: each member's deployment,
// outcome and calls, in order ("a upstream_unreachable 1, b answered 1").
type TriesLog []Try

// LogValue is the tries as one string.
func (ts TriesLog) LogValue() slog.Value {
	var b strings.Builder
	for i, t := range ts {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(t.Deployment + " " + t.Outcome + " " + strconv.Itoa(t.Calls))
	}
	return slog.StringValue(b.String())
}

// DirectTries is what a request to one deployment with retries tried,
// for its access line: nil when it made no more calls than its plan has
// (calls), or kept no record (rec nil). results are what the calls
// answered.
func DirectTries(d string, rec *Attempt, calls int, results []tc.ItemResult) []Try {
	if rec == nil || rec.Calls() <= calls {
		return nil
	}
	t := Try{Deployment: d, Outcome: TryAnswered, Calls: rec.Calls()}
	if rec.FailedOver(calls) {
		t.Outcome = Failure(results)
	}
	return []Try{t}
}

// Admitted is the refusal of a request to deployment d whose circuit, h,
// does not admit it, with the cool-down left: nil when it is admitted,
// with the probe it then holds (0 for none), which the caller ends
// (Health.EndProbe).
func Admitted(d string, h *Health) (*ir.ErrorBody, time.Duration, uint64) {
	ok, probe, wait := h.Admit(time.Now())
	if !ok {
		return CircuitRefusal(d), wait, 0
	}
	return nil, 0, probe
}

// PassOver is why a pool request passes over deployment d, whose health
// is h, without a call (nil: it does not): its Retry-After has not ended
// (the busy answer, with the delay left) or its circuit is open; else
// the probe it holds when the circuit is half-open (0 for none), which
// the caller ends.
func PassOver(d string, h *Health) (why *ir.ErrorBody, wait time.Duration, probe uint64) {
	now := time.Now()
	if busy, left := h.Busy(now); busy != nil {
		busy.Message = "deployment " + quote(d) + ": " + busy.Message
		return busy, left, 0
	}
	ok, probe, wait := h.Admit(now)
	if !ok {
		return CircuitRefusal(d), wait, 0
	}
	return nil, 0, probe
}
