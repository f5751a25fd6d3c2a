package fleet

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"sync/atomic"
	"time"

	tc "github.com/vllm-sr/systemone/runtime/target"
	"github.com/vllm-sr/systemone/runtime/upstream"
)

// A call fails "before any answer" when the Router got nothing it could
// answer with and nothing of an answer began: the call was refused, reset
// or closed before a byte of a reply came, it ran past its own bound
// (timeout_ms, else the Router's 30 s; never the caller's deadline, which
// no other try could meet), or the upstream answered 502, 503, 504 or 529,
// the statuses that say it did not decide. A System One decision has no
// side effects, so such a call may be sent again (retries) or to another
// member of a pool; it also counts toward the deployment's circuit
// (circuit.go). Anything else is the deployment's answer, even a
// refusal: a reply cut after it began, a 429 (its Retry-After goes to the
// client), a 500, a 4xx.

// Attempt is the record of one request's plan on one deployment when
// the request keeps one of what it tried (a pool's, or one to a
// deployment with retries): the calls made, and how the plan's calls
// ended. It is safe for the plan's concurrent calls.
type Attempt struct {
	// calls counts the calls sent, retries included.
	calls atomic.Int32
	// answered and failed count the plan's calls by how their last try
	// ended: an answer (of any kind), or a failure before any answer.
	answered, failed atomic.Int32
}

// Sent counts a call sent, a retry included.
func (a *Attempt) Sent() { a.calls.Add(1) }

// Calls is how many calls were sent, retries included.
func (a *Attempt) Calls() int { return int(a.calls.Load()) }

// Note records how one of the plan's calls ended.
func (a *Attempt) Note(o Outcome) {
	if o != OutcomeFailed {
		a.answered.Add(1)
		return
	}
	a.failed.Add(1)
}

// FailedOver says whether the whole plan of calls failed before any
// answer: every one of its calls did, none answered. A plan some of whose
// calls answered is the deployment's answer, its failed calls' items
// carrying their errors: the calls that answered are not sent twice.
func (a *Attempt) FailedOver(calls int) bool {
	return a.answered.Load() == 0 && int(a.failed.Load()) == calls && calls > 0
}

// Failure is the error reason a plan that failed over (FailedOver) failed
// with: its first item error's, in plan order, of results, what its calls
// answered.
func Failure(results []tc.ItemResult) string {
	for _, r := range results {
		if r.Error != nil {
			return r.Error.Reason
		}
	}
	return ""
}

// Judge is what a call's reply says of its deployment, ctx being the
// call's caller's (its deadline the caller's): a call ended by ctx says
// nothing.
func Judge(ctx context.Context, reply *tc.WireReply) Outcome {
	switch err := reply.Err; {
	case ctx.Err() != nil:
		return OutcomeNeutral
	case err == nil:
		return judgeStatus(reply.Status)
	case errors.Is(err, tc.ErrReplyCut), errors.Is(err, tc.ErrReplyTooLarge), errors.Is(err, tc.ErrReplyMalformed):
		return OutcomeNeutral // a reply began: the upstream is up, and broken
	case errors.Is(err, upstream.ErrRequestHeader):
		return OutcomeNeutral // the call could not be written: the Router's, not the upstream's
	}
	return OutcomeFailed // refused, reset before a reply, or past the call's own bound
}

func judgeStatus(status int) Outcome {
	switch {
	case status == http.StatusBadGateway, status == http.StatusServiceUnavailable,
		status == http.StatusGatewayTimeout, status == tc.StatusOverloaded:
		return OutcomeFailed
	case status == http.StatusTooManyRequests, status >= 500:
		return OutcomeNeutral
	}
	return OutcomeAnswered
}

// The bounds of a retry's wait: the first waits about retryBase, each
// next one twice the last, at most maxRetryWait; each is drawn in the
// upper half of its bound (jitter), so calls that failed together are
// not sent again together.
const (
	retryBase    = 25 * time.Millisecond
	maxRetryWait = time.Second
)

// Retry sends a call again after its reply failed (OutcomeFailed), with
// again, up to retries times, while the wait before each (retryWait)
// leaves time before ctx's deadline and the deployment's circuit, h,
// stays closed; it returns the last reply and its outcome.
func Retry(ctx context.Context, retries int, h *Health, reply tc.WireReply,
	again func() (tc.WireReply, Outcome)) (tc.WireReply, Outcome) {
	o := OutcomeFailed
	for n := 0; o == OutcomeFailed && n < retries; n++ {
		wait, ok := retryWait(ctx, n, &reply, h)
		if !ok || !sleep(ctx, wait) {
			break
		}
		reply, o = again()
	}
	return reply, o
}

// retryWait is how long the n-th retry (from 0) waits after reply: its
// jittered backoff, or the delay the reply's Retry-After asks for when
// longer. Not ok when the deployment's circuit is no longer closed, or the
// wait would end at or past ctx's deadline (with no deadline, past
// maxRetryWait).
func retryWait(ctx context.Context, n int, reply *tc.WireReply, h *Health) (time.Duration, bool) {
	now := time.Now()
	if h.State(now) != CircuitClosed {
		return 0, false
	}
	bound := min(retryBase<<n, maxRetryWait)
	wait := bound/2 + rand.N(bound/2)
	if ra := tc.RetryAfter(reply.Header); tc.AsksRetry(reply.Status) && ra > wait {
		wait = ra
	}
	if deadline, has := ctx.Deadline(); has {
		return wait, now.Add(wait).Before(deadline)
	}
	return wait, wait <= maxRetryWait
}

// sleep waits d, false when ctx ends first.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
