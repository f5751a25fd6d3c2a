package router_test

import (
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vllm-sr/systemone/runtime/router"
	"github.com/vllm-sr/systemone/runtime/srun"
	"github.com/vllm-sr/systemone/runtime/testkit"
)

// Reply correlation, over HTTP: each upstream call's own id, a reply
// echoing another never delivered, the retry after an idle close on a
// new connection, and the connections settings of a deployment whose
// upstream echoes nothing (docs/router.md, "Upstream connections").

// Every call carries its own id: the client's request id, '.', a number
// of the Router's, distinct even when clients repeat an id, and at most
// 128 bytes (a longer client id is cut, the number kept), which vllm-srun
// takes and echoes, so every call answers.
func TestCallIDsCarryTheRequestID(t *testing.T) {
	logs := &testkit.LogBuffer{}
	rt := startRuntimeWith(t, srun.Config{Model: "vllm-sr/vela3-fast", Logger: jsonLogger(logs)})
	path := writeConfig(t, contractConfig, map[string]string{"PORT": freePort(t), "PROXY": rt.URL()})
	run := startRouter(t, path)
	long := strings.Repeat("L", 128)
	for _, id := range []string{"client-7", "client-7", "client-7", long} {
		req, _ := http.NewRequest(http.MethodPost, run.URL("edge")+"/v1/systemone", strings.NewReader(strings.Replace(contractRequest, "%s", "old-runtime", 1)))
		req.Header.Set("X-Request-Id", id)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || resp.Header.Get("X-Request-Id") != id {
			t.Errorf("client id %.12s...: status %d, id answered %.12q", id, resp.StatusCode, resp.Header.Get("X-Request-Id"))
		}
	}
	callIDs := map[string]bool{}
	for _, line := range logs.Lines(t) {
		if p, _ := line.Get("path"); p.Str() != "/v1/systemone/batch" && p.Str() != "/v1/systemone" {
			continue
		}
		id, _ := line.Get("request_id")
		callIDs[id.Str()] = true
	}
	short := regexp.MustCompile(`^client-7\.[0-9]+$`)
	longCut := regexp.MustCompile(`^L+\.[0-9]+$`)
	shorts, longs := 0, 0
	for id := range callIDs {
		switch {
		case short.MatchString(id):
			shorts++
		case longCut.MatchString(id) && len(id) == 128:
			longs++
		default:
			t.Errorf("vllm-srun saw the call id %q", id)
		}
	}
	if shorts != 3 || longs != 1 {
		t.Errorf("vllm-srun saw %d distinct client-7.N ids (want 3) and %d cut long ones (want 1): %v", shorts, longs, callIDs)
	}
}

// A reply from a vllm-sr/5.0 upstream that echoes another call's id is
// never delivered: its connection is closed and the call sent again on a
// new connection, which answers; when that reply too echoes another id,
// the call fails 502 upstream_malformed_reply, and the other call's
// answer reaches no one. A systemone/0.2 upstream's echo is not read
// (the standard's servers need not echo): its reply is delivered.
func TestReplyEchoingAnotherIDIsNeverDelivered(t *testing.T) {
	var mu sync.Mutex
	wrong := 1 // how many replies from now echo another call's id
	up := newConnUpstream(t, func(_, _ int, c connCall) string {
		mu.Lock()
		defer mu.Unlock()
		if wrong > 0 {
			wrong--
			return answerOf(c, 999, "someone-else.1") // another call's answer, its id echoed
		}
		return answerOf(c, stateID(c), c.id)
	})
	e := newFramingEnvFor(t, router.Options{}, framingSetup{schema: "vllm-sr/5.0", upstream: up.url()})

	if got := callOutcome(e, 5, ""); got != "own" {
		t.Errorf("a call whose first reply echoed another id got %s, want its own answer", got)
	}
	calls := up.seen()
	if len(calls) != 2 || calls[0].conn == calls[1].conn || calls[0].id == calls[1].id {
		t.Errorf("calls %+v: want the call sent twice, on two connections, with two ids", calls)
	}

	mu.Lock()
	wrong = 2
	mu.Unlock()
	before := len(up.seen())
	resp, err := e.call(6, "")
	if err != nil {
		t.Fatal(err)
	}
	if got := outcome(resp, 6); got != "502 upstream_malformed_reply" || strings.Contains(string(resp.body), "999") {
		t.Errorf("a call whose replies both echoed another id got %s: %s", got, resp.body)
	}
	if calls := up.seen()[before:]; len(calls) != 2 || calls[0].conn == calls[1].conn {
		t.Errorf("calls %+v: want the call sent twice, the second on a new connection", calls)
	}

	t.Run("systemone/0.2", func(t *testing.T) {
		mu.Lock()
		wrong = 1
		mu.Unlock()
		e := newFramingEnvFor(t, router.Options{}, framingSetup{upstream: up.url()})
		if resp, err := e.call(7, ""); err != nil || resp.status != http.StatusOK {
			t.Errorf("a standard upstream's reply with another id: %v %d %s, want it delivered", err, resp.status, resp.body)
		}
	})
}

// The one retry after a kept connection turned out closed while idle
// goes on a new connection, not on another idle one: here every kept
// connection is closed by the upstream when the next call arrives (as a
// server whose idle timeout races the calls does to all of them), and
// the call still answers.
func TestIdleCloseRetryTakesANewConnection(t *testing.T) {
	var closing sync.Map // conn → true: closed when its next call arrives
	up := newConnUpstream(t, func(conn, n int, c connCall) string {
		if _, ok := closing.Load(conn); ok && n > 1 {
			return ""
		}
		if n == 1 {
			time.Sleep(100 * time.Millisecond) // both first calls in flight at once: two connections
		}
		return answerOf(c, stateID(c), "")
	})
	e := newFramingEnvFor(t, router.Options{}, framingSetup{upstream: up.url()})
	var wg sync.WaitGroup
	for id := range 2 {
		wg.Go(func() {
			if got := callOutcome(e, id+1, ""); got != "own" {
				t.Errorf("call %d: %s", id+1, got)
			}
		})
	}
	wg.Wait()
	kept := map[int]bool{}
	for _, c := range up.seen() {
		kept[c.conn] = true
	}
	if len(kept) != 2 {
		t.Fatalf("two concurrent calls went on %d connections, want 2", len(kept))
	}
	for conn := range kept {
		closing.Store(conn, true)
	}
	if got := callOutcome(e, 3, ""); got != "own" {
		t.Errorf("the call after both kept connections closed got %s, want its own answer", got)
	}
	calls := up.seen()
	if len(calls) != 4 || !kept[calls[2].conn] || kept[calls[3].conn] {
		t.Errorf("calls %+v: want the call tried on a kept connection (%v), then on a new one", calls, kept)
	}
}

// A deployment with connections.stray_pause_ms stops reusing connections
// to its upstream for that long after the upstream sent bytes no call
// asked for: each call meanwhile goes on a new connection, asking the
// upstream to close it (Connection: close); after the pause, kept
// connections are reused again. The stray is logged with the
// deployment.
func TestStrayPauseTakesNewConnections(t *testing.T) {
	up := newConnUpstream(t, func(_, _ int, c connCall) string { return answerOf(c, stateID(c), "") })
	logs := &testkit.LogBuffer{}
	const pause = 500 * time.Millisecond
	e := newFramingEnvFor(t, router.Options{Logger: jsonLogger(logs)},
		framingSetup{upstream: up.url(), more: "    connections: {stray_pause_ms: 500}\n"})
	for id := 1; id <= 2; id++ {
		if got := callOutcome(e, id, ""); got != "own" {
			t.Fatalf("call %d: %s", id, got)
		}
	}
	calls := up.seen()
	if calls[0].conn != calls[1].conn {
		t.Fatalf("calls %+v: want one kept connection before any stray", calls)
	}
	if err := up.sendOn(calls[0].conn, answerOf(calls[0], 1, "")); err != nil { // a reply again, late
		t.Fatal(err)
	}
	time.Sleep(20 * time.Millisecond)
	start := time.Now()
	for id := 3; id <= 5; id++ {
		if got := callOutcome(e, id, ""); got != "own" {
			t.Errorf("call %d: %s", id, got)
		}
	}
	if time.Since(start) > pause/2 {
		t.Skip("the calls took longer than half the pause; the machine is too slow to check it")
	}
	calls = up.seen()
	fresh := calls[3:5] // calls 4 and 5: in the pause
	if fresh[0].conn == fresh[1].conn || fresh[0].conn == calls[2].conn || !fresh[0].closeAfter || !fresh[1].closeAfter {
		t.Errorf("calls %+v: want each call in the pause on a new connection, with Connection: close", calls)
	}
	if !strings.Contains(logs.String(), `"msg":"upstream sent bytes no call asked for; the connection is closed"`) ||
		!strings.Contains(logs.String(), `"deployment":"framed"`) || !strings.Contains(logs.String(), `"stray":"bytes_while_idle"`) {
		t.Errorf("the stray is not logged with its deployment:\n%s", logs)
	}
	time.Sleep(pause - time.Since(start) + 50*time.Millisecond)
	if got := callOutcome(e, 6, ""); got != "own" {
		t.Errorf("call 6: %s", got)
	}
	if last := up.seen()[5]; last.conn != calls[2].conn || last.closeAfter {
		t.Errorf("call after the pause %+v: want it on the connection kept from call 3 (%d)", last, calls[2].conn)
	}
}
