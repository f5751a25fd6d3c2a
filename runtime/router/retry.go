package router

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/vllm-sr/systemone/runtime/engine"
	"github.com/vllm-sr/systemone/runtime/routerconfig"
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
// member of a pool (failover.go); it also counts toward the deployment's
// circuit (circuit.go). Anything else is the deployment's answer, even a
// refusal: a reply cut after it began, a 429 (its Retry-After goes to the
// client), a 500, a 4xx.

// deploymentCaller is the engine.Caller of one deployment's plans: the
// Router's httpCaller with the deployment's fleet settings and call
// health. One is made per deployment with each configuration
// (Router.withConfig) and shared by its requests.
type deploymentCaller struct {
	c      *httpCaller
	d      *routerconfig.Deployment
	health *callHealth
}

var _ engine.Caller = (*deploymentCaller)(nil)

func (dc *deploymentCaller) Call(ctx context.Context, x *engine.Exchange) []tc.ItemResult {
	return dc.c.call(ctx, x, dc, nil)
}

// attempt is the engine.Caller of one request's plan on one deployment
// when the request keeps a record of what it tried (a pool's, or one to a
// deployment with retries): the calls made, and how the plan's calls
// ended.
type attempt struct {
	dc *deploymentCaller
	// calls counts the calls sent, retries included.
	calls atomic.Int32
	// answered and failed count the plan's calls by how their last try
	// ended: an answer (of any kind), or a failure before any answer.
	answered, failed atomic.Int32
	mu               sync.Mutex
	// reason is the first failed call's error reason.
	reason string
}

var _ engine.Caller = (*attempt)(nil)

func (a *attempt) Call(ctx context.Context, x *engine.Exchange) []tc.ItemResult {
	return a.dc.c.call(ctx, x, a.dc, a)
}

// note records how one of the plan's calls ended, with its items' results.
func (a *attempt) note(o outcome, results []tc.ItemResult) {
	if o != outcomeFailed {
		a.answered.Add(1)
		return
	}
	a.failed.Add(1)
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, r := range results {
		if r.Error != nil && a.reason == "" {
			a.reason = r.Error.Reason
		}
	}
}

// failedOver says whether the whole plan of calls failed before any
// answer: every one of its calls did, none answered. A plan some of whose
// calls answered is the deployment's answer, its failed calls' items
// carrying their errors: the calls that answered are not sent twice.
func (a *attempt) failedOver(calls int) bool {
	return a.answered.Load() == 0 && int(a.failed.Load()) == calls && calls > 0
}

// failure is the first failed call's error reason.
func (a *attempt) failure() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.reason
}

// judge is what a call's reply says of its deployment, ctx being the
// call's caller's (its deadline the caller's): a call ended by ctx says
// nothing.
func judge(ctx context.Context, reply *tc.WireReply) outcome {
	switch err := reply.Err; {
	case ctx.Err() != nil:
		return outcomeNeutral
	case err == nil:
		return judgeStatus(reply.Status)
	case errors.Is(err, tc.ErrReplyCut), errors.Is(err, tc.ErrReplyTooLarge), errors.Is(err, tc.ErrReplyMalformed):
		return outcomeNeutral // a reply began: the upstream is up, and broken
	case errors.Is(err, upstream.ErrRequestHeader):
		return outcomeNeutral // the call could not be written: the Router's, not the upstream's
	}
	return outcomeFailed // refused, reset before a reply, or past the call's own bound
}

func judgeStatus(status int) outcome {
	switch {
	case status == http.StatusBadGateway, status == http.StatusServiceUnavailable,
		status == http.StatusGatewayTimeout, status == tc.StatusOverloaded:
		return outcomeFailed
	case status == http.StatusTooManyRequests, status >= 500:
		return outcomeNeutral
	}
	return outcomeAnswered
}

// The bounds of a retry's wait: the first waits about retryBase, each
// next one twice the last, at most maxRetryWait; each is drawn in the
// upper half of its bound (jitter), so calls that failed together are
// not sent again together.
const (
	retryBase    = 25 * time.Millisecond
	maxRetryWait = time.Second
)

// retry sends call again after the reply failed, as often as the
// deployment's retries allow, while the wait leaves time before ctx's
// deadline and the deployment's circuit stays closed; it returns the last
// reply.
func (c *httpCaller) retry(ctx context.Context, rt *engine.Route, call *tc.WireCall, dc *deploymentCaller, rec *attempt,
	reply tc.WireReply) (tc.WireReply, outcome) {
	o := outcomeFailed
	for n := 0; o == outcomeFailed && n < dc.d.Fleet.Retries; n++ {
		wait, ok := retryWait(ctx, n, &reply, dc.health)
		if !ok || !sleep(ctx, wait) {
			break
		}
		c.metrics.fleet.retried(dc.d.Name)
		reply, o = c.try(ctx, rt, call, dc, rec)
	}
	return reply, o
}

// retryWait is how long the n-th retry (from 0) waits after reply: its
// jittered backoff, or the delay the reply's Retry-After asks for when
// longer. Not ok when the deployment's circuit is no longer closed, or the
// wait would end at or past ctx's deadline (with no deadline, past
// maxRetryWait).
func retryWait(ctx context.Context, n int, reply *tc.WireReply, h *callHealth) (time.Duration, bool) {
	now := time.Now()
	if h.state(now) != circuitClosed {
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
