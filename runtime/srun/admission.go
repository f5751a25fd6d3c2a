package srun

// admission bounds the requests the server works on at once. Acquiring
// never waits: a request past the bound is answered 529 at once, so a
// burst cannot pile up goroutines, memory and deadlines behind a busy
// model (the standard's overload answer, with Retry-After). A request
// holds a slot from when its body has been read until its answer is made,
// not while it is written (routes.go): a client slow to send or slow to
// read never holds one, and the body-read and write deadlines free its
// connection.
type admission struct {
	slots chan struct{}
}

func newAdmission(limit int) *admission {
	return &admission{slots: make(chan struct{}, limit)}
}

// tryAcquire takes a slot if one is free and reports whether it did.
func (a *admission) tryAcquire() bool {
	select {
	case a.slots <- struct{}{}:
		return true
	default:
		return false
	}
}

// release gives back a slot taken by tryAcquire.
func (a *admission) release() { <-a.slots }

// inFlight is how many slots are taken.
func (a *admission) inFlight() int { return len(a.slots) }
