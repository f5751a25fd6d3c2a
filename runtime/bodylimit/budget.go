package bodylimit

import (
	"context"
	"fmt"
	"time"

	"golang.org/x/sync/semaphore"
)

// The shared inflating budget's defaults: four bodies inflated to the
// 32 MiB limit at once, and how long a request waits for room before it is
// refused.
const (
	DefaultInflateBudget = 128 << 20
	DefaultInflateWait   = 500 * time.Millisecond
)

// Shared is the inflating budget of the process: ReadDecoded inflates
// under it, so every server in the process (vllm-srun, the Router's
// listeners) shares one bound on the memory gzip bodies take.
var Shared = NewBudget(DefaultInflateBudget, DefaultInflateWait)

// Budget bounds the memory that gzip bodies take while they are inflated
// and while the requests they belong to run: a weighted semaphore of
// bytes. Each chunk an inflated body is read into is reserved before it
// is allocated; a request that cannot reserve within the budget's wait
// (or before its context ends) is refused with *OverBudgetError, which
// servers answer 503 unavailable with Retry-After. Queueing longer would
// hold the connection and its goroutine for memory that may not come;
// refusing tells the client when to come back.
//
// What a body that was read holds stays reserved until its request's
// context ends (the server cancels it when the handler returns), since
// the bytes live that long; a body refused on its way in gives back its
// reservation at once. A Budget is safe for concurrent use.
type Budget struct {
	sem  *semaphore.Weighted
	size int64
	wait time.Duration
}

// NewBudget returns a budget of size bytes whose requests wait at most
// wait for room.
func NewBudget(size int64, wait time.Duration) *Budget {
	return &Budget{sem: semaphore.NewWeighted(size), size: size, wait: wait}
}

// Size is the budget in bytes.
func (b *Budget) Size() int64 { return b.size }

// OverBudgetError is the error of a gzip body that could not be inflated
// because other bodies hold the budget: a temporary condition, not the
// request's fault. It carries the budget, never any of the body.
type OverBudgetError struct {
	Budget int64
	// RetryAfter is how long the client should wait before retrying.
	RetryAfter time.Duration
}

func (e *OverBudgetError) Error() string {
	return fmt.Sprintf("bodylimit: the %d-byte inflating budget is in use; retry after %s", e.Budget, e.RetryAfter)
}

// reservation reserves b's bytes for one request, waiting at most b.wait
// and never past the request's context.
type reservation struct {
	b   *Budget
	ctx context.Context
}

func (v reservation) reserve(n int64) error {
	if n > v.b.size {
		return v.over()
	}
	if v.b.sem.TryAcquire(n) {
		return nil
	}
	ctx, cancel := context.WithTimeout(v.ctx, v.b.wait)
	defer cancel()
	if err := v.b.sem.Acquire(ctx, n); err != nil {
		return v.over()
	}
	return nil
}

func (v reservation) release(n int64) { v.b.sem.Release(n) }

func (v reservation) over() error {
	return &OverBudgetError{Budget: v.b.size, RetryAfter: max(time.Second, v.b.wait)}
}

// holdUntilDone keeps n bytes of v's reservation until ctx ends, the
// lifetime of the request whose body holds them; a context that never
// ends (a request built outside a server) gives them back at once.
func (v reservation) holdUntilDone(n int64) {
	if n == 0 {
		return
	}
	if v.ctx.Done() == nil {
		v.release(n)
		return
	}
	context.AfterFunc(v.ctx, func() { v.release(n) })
}
