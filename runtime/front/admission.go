package front

// Admission bounds the requests a server works on at once: vllm-srun's
// model work (--max-in-flight) and each Router listener's requests
// (listeners[].max_in_flight). Acquiring never waits: a request past the
// bound is answered 529 at once, so a burst cannot pile up goroutines,
// memory and deadlines behind a busy model or upstream (the standard's
// overload answer, with Retry-After). Where a server takes and gives back
// a slot is its own choice (vllm-srun: after the body is read; the
// Router: before it is read). It is safe for concurrent use.
type Admission struct {
	slots chan struct{}
}

// NewAdmission returns an Admission of limit slots (at least 1).
func NewAdmission(limit int) *Admission {
	return &Admission{slots: make(chan struct{}, max(1, limit))}
}

// TryAcquire takes a slot if one is free and reports whether it did.
func (a *Admission) TryAcquire() bool {
	select {
	case a.slots <- struct{}{}:
		return true
	default:
		return false
	}
}

// Release gives back a slot taken by TryAcquire.
func (a *Admission) Release() { <-a.slots }

// InFlight is how many slots are taken.
func (a *Admission) InFlight() int { return len(a.slots) }

// Limit is how many slots there are.
func (a *Admission) Limit() int { return cap(a.slots) }
