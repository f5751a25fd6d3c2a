package testkit

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"net/http"
	neturl "net/url"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/front"
)

// SlowTarget is one server listener the suite attacks. The server runs in
// the test's process (its goroutines are counted) with Timeouts as its
// configuration, answers SlowGoodRequest and SlowBigRequest on
// vocab.PathSystemone with 200, and GET vocab.PathHealth with 200.
type SlowTarget struct {
	// Name names the target in failures.
	Name string
	// URL is the listener's root, http://host:port.
	URL      string
	Timeouts front.Timeouts
	// Quiesce lets go of what the server keeps open between requests of
	// its own accord (the Router's idle upstream connections) before
	// goroutines are counted; nil for nothing.
	Quiesce func()
	// NoBigAnswers leaves out the slow readers, whose multi-MiB answers
	// cost the server a second or more of CPU each: for a second listener
	// of a server whose answers are written by the same code.
	NoBigAnswers bool
}

// SlowTimeouts are the short timeouts the slow-client suite runs a server
// with, so each attack ends within about a second. The body-read one is
// the longest: the slow readers' gzipped body inflates to 4 MiB within
// it, on a loaded machine, under -race too.
var SlowTimeouts = front.Timeouts{ReadHeaderTimeout: 400 * time.Millisecond, ReadTimeout: time.Second,
	WriteTimeout: 400 * time.Millisecond, IdleTimeout: 500 * time.Millisecond}

const (
	// SlowSlack is how long past its deadline a server may take to let go
	// of an attacking connection: scheduling on a loaded 2-core machine,
	// and net/http's half-second wait before it closes a connection whose
	// body it did not read (rstAvoidanceDelay).
	SlowSlack = 1500 * time.Millisecond
	// SlowGoodLatency bounds each well-behaved exchange during an attack.
	SlowGoodLatency = time.Second
	// SlowIdleConns is how many keep-alive connections the idle attack
	// holds open.
	SlowIdleConns = 500
)

// SlowGoodRequest is a well-behaved client's request: one noul question
// on HostileModel, valid in vllm-sr/5.0 and vllm-sr/4.0.
var SlowGoodRequest = []byte(`{"model":"` + HostileModel + `","state":"The export button fails with a 500 since this morning.",` +
	`"questions":{"urgent":{"type":"noul","instructions":"Does the user report a problem that blocks their work?"}}}`)

// RunSlowClients runs every attack against target as a subtest.
func RunSlowClients(t *testing.T, target SlowTarget) {
	t.Helper()
	skipTimingInShort(t)
	if target.Quiesce == nil {
		target.Quiesce = func() {}
	}
	for _, a := range slowAttacks() {
		if a.big && target.NoBigAnswers {
			continue
		}
		t.Run(a.name, func(t *testing.T) { runSlowAttack(t, target, a) })
	}
}

// slowAttack is one kind of slow client, conns of them at once.
type slowAttack struct {
	name  string
	conns int
	// big is whether the attack asks for multi-MiB answers.
	big bool
	// bound is the configured deadline that frees the attack's
	// connections, counted from when the attack is in force on all.
	bound func(front.Timeouts) time.Duration
	// open dials one connection and starts the attack on it; it returns
	// once the attack is in force on that connection.
	open func(c *slowConn) error
	// poke runs every slowPokeEvery on each connection the server has not
	// closed, while the attack lasts (slowloris sends a byte, a slow
	// reader reads a few); nil for none. A timeout is no failure.
	poke func(c *slowConn) error
	// check reads each connection to its end, once the server has let go
	// of it, and checks what it was answered, if anything.
	check func(c *slowConn) error
}

// slowPokeEvery is how often a slowloris sends its next byte and a slow
// reader reads its next few.
const slowPokeEvery = 50 * time.Millisecond

// slowConn is one attacking connection.
type slowConn struct {
	net.Conn
	i    int
	r    *bufio.Reader
	resp *http.Response // the answer's head, for an attack that reads one
	dead bool           // the server closed it (seen by poke)
}

func runSlowAttack(t *testing.T, target SlowTarget, a slowAttack) {
	if limit, known := openFileLimit(); known && limit < uint64(3*a.conns+256) {
		t.Skipf("the open-file limit is %d, too low for %d attacking connections: each takes a descriptor on each side, both in this process (raise ulimit -n)",
			limit, a.conns)
	}
	if a.big {
		slowBigGzip() // made before any dial: the header deadline runs from it
	}
	target.Quiesce()
	baseline := runtime.NumGoroutine()
	opening := time.Now()
	conns, retried, err := openSlowConns(t, target, a)
	defer func() {
		for _, c := range conns {
			if c != nil {
				_ = c.Close()
			}
		}
	}()
	if err != nil {
		t.Fatalf("%s: opening the attack: %v", target.Name, err)
	}
	inForce := time.Now()
	bound := a.bound(target.Timeouts)
	stopPoking, poked := pokeSlowConns(conns, a.poke)
	pokers := 0
	if a.poke != nil {
		pokers = 1
	}
	checkGoodClients(t, target, inForce.Add(bound*3/4))
	target.Quiesce()
	WaitGoroutines(t, baseline+pokers, time.Until(inForce.Add(bound+SlowSlack)),
		fmt.Sprintf("%s: %d %s not let go of within the deadline (%v) and %v", target.Name, len(conns), a.name, bound, SlowSlack))
	t.Logf("%d %s: in force after %v (%d openings tried again), let go of %v later (deadline %v)", len(conns), a.name,
		inForce.Sub(opening).Round(time.Millisecond), retried, time.Since(inForce).Round(time.Millisecond), bound)
	close(stopPoking)
	<-poked
	failed := 0
	checkBy := time.Now().Add(5 * time.Second) // for all: a server that holds them fails once
	for _, c := range conns {
		_ = c.SetDeadline(checkBy)
		if err := a.check(c); err != nil && failed < 5 {
			failed++
			t.Errorf("%s: %s #%d: %v", target.Name, a.name, c.i, err)
		}
	}
}

// openSlowConns opens the attack's connections, 16 at a time, and
// reports how many openings were tried again.
//
// An opening runs against the server's short deadlines (its request must
// be sent within the header deadline, a body within the read deadline),
// and on a loaded machine the suite itself may be descheduled past one:
// an opening the server cut off is tried again on a new connection, up
// to slowOpenTries times, and the attack fails on the last try's error.
func openSlowConns(t *testing.T, target SlowTarget, a slowAttack) ([]*slowConn, int, error) {
	u, err := neturl.Parse(target.URL)
	if err != nil {
		return nil, 0, err
	}
	conns := make([]*slowConn, a.conns)
	errs := make([]error, a.conns)
	var retried atomic.Int64
	sem := make(chan struct{}, 16)
	var wg sync.WaitGroup
	for i := range conns {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			for try := 1; ; try++ {
				c, err := openSlowConn(a, u.Host, i)
				if err == nil || try == slowOpenTries {
					conns[i], errs[i] = c, err
					return
				}
				if retried.Add(1) <= 3 {
					t.Logf("%s: opening %s #%d again after: %v", target.Name, a.name, i, err)
				}
			}
		})
	}
	wg.Wait()
	return conns, int(retried.Load()), errors.Join(errs...)
}

// slowOpenTries is how many times one attacking connection is opened
// before the attack fails.
const slowOpenTries = 3

// openSlowConn dials one attacking connection and starts the attack on
// it; on an error it returns the connection closed, or nil.
func openSlowConn(a slowAttack, addr string, i int) (*slowConn, error) {
	nc, err := dialSmallWindow(addr)
	if err != nil {
		return nil, fmt.Errorf("dial #%d: %w", i, err)
	}
	c := &slowConn{Conn: nc, i: i, r: bufio.NewReader(nc)}
	_ = c.SetDeadline(time.Now().Add(30 * time.Second))
	if err := a.open(c); err != nil {
		_ = c.Close()
		return c, fmt.Errorf("#%d: %w", i, err)
	}
	_ = c.SetDeadline(time.Time{})
	return c, nil
}

// pokeSlowConns pokes every connection the server has not closed every
// slowPokeEvery, in one goroutine, until stop is closed.
func pokeSlowConns(conns []*slowConn, poke func(*slowConn) error) (stop chan struct{}, done chan struct{}) {
	stop, done = make(chan struct{}), make(chan struct{})
	if poke == nil {
		close(done)
		return stop, done
	}
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			case <-time.After(slowPokeEvery):
			}
			for _, c := range conns {
				if c.dead {
					continue
				}
				if err := poke(c); err != nil && !isTimeout(err) {
					c.dead = true
				}
			}
		}
	}()
	return stop, done
}

// checkGoodClients sends SlowGoodRequest, one after the other, until
// until (at least three): each must be answered 200, never 529, within
// SlowGoodLatency.
func checkGoodClients(t *testing.T, target SlowTarget, until time.Time) {
	t.Helper()
	transport := &http.Transport{DisableCompression: true}
	defer transport.CloseIdleConnections()
	client := &http.Client{Transport: transport, Timeout: 10 * time.Second}
	failed := 0
	for n := 0; n < 3 || time.Now().Before(until); n++ {
		began := time.Now()
		status, err := postLoad(client, LoadRequest{URL: target.URL + vocab.PathSystemone, Body: SlowGoodRequest})
		took := time.Since(began)
		if (err != nil || status != http.StatusOK || took > SlowGoodLatency) && failed < 5 {
			failed++
			t.Errorf("%s: a good client during the attack: status %d, %v, after %v (want 200 within %v)",
				target.Name, status, err, took.Round(time.Millisecond), SlowGoodLatency)
		}
	}
}
