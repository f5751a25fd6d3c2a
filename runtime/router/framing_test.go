package router_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"maps"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vllm-sr/systemone/runtime/router"
)

// The framing suite: a Router in front of framingUpstream, which frames
// each reply as the request asks, every framing followed by ordinary
// calls on the same route. No call may get another call's answer, and no
// ordinary call may fail because of what an earlier reply left on a
// connection.

const framingConfig = `listeners:
  - name: public5
    address: 127.0.0.1:{{P5}}
    apis:
      systemone: {schema: vllm-sr/5.0}
deployments:
  framed:
    provider: systemone
    endpoint: {{UP}}
    model: d3
    schema: {{SCHEMA}}
{{MORE}}`

type framingEnv struct {
	up     *framingUpstream
	url    string
	client *http.Client
}

// newFramingEnv starts a Router with opts in front of a framingUpstream,
// a systemone/0.2 deployment.
func newFramingEnv(t *testing.T, opts router.Options) *framingEnv {
	t.Helper()
	return newFramingEnvFor(t, opts, framingSetup{})
}

// framingSetup is the framing deployment and its upstream: the
// deployment's schema ("": systemone/0.2) and more of its keys, the
// upstream's echo and late sends (framingUpstream), or the URL of
// another upstream to call in its place.
type framingSetup struct {
	schema, more string
	echo         bool
	lateWithin   time.Duration
	upstream     string
}

// newFramingEnvFor starts a Router with opts in front of a framingUpstream
// set up as s says.
func newFramingEnvFor(t *testing.T, opts router.Options, s framingSetup) *framingEnv {
	t.Helper()
	e := &framingEnv{client: &http.Client{Timeout: 20 * time.Second}}
	if s.upstream == "" {
		e.up = newFramingUpstream(t)
		e.up.echo, e.up.lateWithin = s.echo, s.lateWithin
		s.upstream = e.up.url()
	}
	path := writeConfig(t, framingConfig, map[string]string{"P5": freePort(t), "UP": s.upstream,
		"SCHEMA": cmpOr(s.schema, "systemone/0.2"), "MORE": s.more})
	cfg, err := router.LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	if opts.Logger == nil {
		opts.Logger = quiet()
	}
	ctx, cancel := context.WithCancel(context.Background())
	run, err := router.Start(ctx, cfg, opts)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); _ = run.Wait() })
	e.url = run.URL("public5") + "/v1/systemone"
	return e
}

// call asks the question of request id, framed as frame ("": plainly).
func (e *framingEnv) call(id int, frame string) (response, error) {
	return e.callAs(id, frame, "")
}

// callAs is call with the client's X-Request-Id requestID ("": none).
func (e *framingEnv) callAs(id int, frame, requestID string) (response, error) {
	state := "id:" + strconv.Itoa(id)
	if frame != "" {
		state += " frame:" + frame
	}
	body := `{"model":"framed","state":"` + state + `","questions":{"q":{"type":"noul","instructions":"Is it?"}}}`
	req, err := http.NewRequest(http.MethodPost, e.url, strings.NewReader(body))
	if err != nil {
		return response{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	if requestID != "" {
		req.Header.Set("X-Request-Id", requestID)
	}
	resp, err := e.client.Do(req)
	if err != nil {
		return response{}, err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	return response{status: resp.StatusCode, header: resp.Header, body: out}, err
}

// outcome is what a call got, as the suite compares it: "own" for its own
// answer, "answer of N" for request N's, else the error's status and
// reason.
func outcome(resp response, id int) string {
	var got struct {
		Answers struct{ Q struct{ Noul float64 } }
		Usage   struct {
			InputTokens int `json:"input_tokens"`
		}
		Reason string
	}
	if err := json.Unmarshal(resp.body, &got); err != nil {
		return fmt.Sprintf("%d unreadable %q", resp.status, resp.body)
	}
	if resp.status != http.StatusOK {
		return fmt.Sprintf("%d %s", resp.status, got.Reason)
	}
	if got.Usage.InputTokens == id && got.Answers.Q.Noul == float64(id)/1e6 {
		return "own"
	}
	return fmt.Sprintf("answer of %d", got.Usage.InputTokens)
}

// want is the outcome framing f's call must get.
func (f framing) want() string {
	if f.status == 0 {
		return "own"
	}
	return fmt.Sprintf("%d %s", f.status, f.reason)
}

// framed is what one framing's call got, and what the two ordinary calls
// after it got.
type framed struct {
	id    int // the framed call's; its ordinary calls are id+1 and id+2
	call  string
	after [2]string
}

// runFramings sends, for each framing, its call and then, once anything
// it sends late has arrived, two ordinary calls.
func runFramings(e *framingEnv) map[string]framed {
	got := map[string]framed{}
	for i, name := range slices.Sorted(maps.Keys(framings)) {
		id := 1000 * (i + 1)
		f := framed{id: id}
		f.call = callOutcome(e, id, name)
		e.up.sendLate()
		for k := range f.after {
			f.after[k] = callOutcome(e, id+k+1, "")
		}
		got[name] = f
	}
	return got
}

func callOutcome(e *framingEnv, id int, frame string) string {
	resp, err := e.call(id, frame)
	if err != nil {
		return err.Error()
	}
	return outcome(resp, id)
}

// checkFramings fails t for each framing whose call did not get want(name)
// or whose ordinary calls after it did not get their own answers.
func checkFramings(t *testing.T, got map[string]framed, want func(name string) string) {
	t.Helper()
	for _, name := range slices.Sorted(maps.Keys(got)) {
		f := got[name]
		if w := want(name); f.call != w {
			t.Errorf("%s: the call got %s, want %s", name, f.call, w)
		}
		for k, a := range f.after {
			if a != "own" {
				t.Errorf("%s: ordinary call %d after it got %s", name, k+1, a)
			}
		}
	}
}

// TestFramingNeverCrossesClients runs every framing through the Router's
// own upstream connections: each call gets its own answer or its
// framing's error, and the calls after it their own answers.
func TestFramingNeverCrossesClients(t *testing.T) {
	e := newFramingEnv(t, router.Options{})
	checkFramings(t, runFramings(e), func(name string) string { return framings[name].want() })
	if n := e.up.lateSent.Load(); n == 0 {
		t.Error("no late bytes were sent: the late framings did not fire")
	}
}

// netHTTPDifferences are the framings whose call gets another outcome
// when net/http's Transport carries the Router's calls in place of its
// own connections (docs/performance.md): it takes heads the Router
// refuses (up to 1 MB of headers, folded lines, any number of 1xx
// replies) and answers a 101 as a status.
var netHTTPDifferences = map[string]string{
	"huge-header":         "own",
	"many-headers":        "own",
	"obs-fold":            "own",
	"six-informational":   "own",
	"switching-protocols": "502 upstream_server_error",
}

// TestFramingWithNetHTTPTransport runs the same framings with net/http's
// Transport as the Router's client, as the comparison the Router's own
// connections are kept against. After a framing whose upstream sends more
// than the reply it frames (a reply after a chunked body, a 304's body),
// the Transport may give the next ordinary call that stray reply: its
// read loop puts a connection back among the idle ones before it peeks
// at what is left in its buffer, so a call that takes the connection in
// between reads the stray as its own answer (seen under -race). That is
// logged, not failed, since it is the library's; anything else an
// ordinary call gets fails. The Router's own connections peek before a
// connection is reused and never do (TestFramingNeverCrossesClients,
// TestFramingUnderLoad).
func TestFramingWithNetHTTPTransport(t *testing.T) {
	log.SetOutput(io.Discard) // the Transport logs each unsolicited reply it drops
	t.Cleanup(func() { log.SetOutput(os.Stderr) })
	e := newFramingEnv(t, router.Options{Client: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}})
	got := runFramings(e)
	misdelivered := 0
	for name, f := range got {
		pending := f.id // whose reply is still on the connection, unread
		for k, a := range f.after {
			switch a {
			case "own":
				pending = 0
			case fmt.Sprintf("answer of %d", pending):
				t.Logf("%s: net/http's Transport gave ordinary call %d the answer of call %d", name, k+1, pending)
				misdelivered++
				pending = f.id + k + 1
			default:
				t.Errorf("%s: ordinary call %d after it got %s, want its own answer or call %d's", name, k+1, a, pending)
			}
		}
		f.after = [2]string{"own", "own"}
		got[name] = f
	}
	if misdelivered > 0 {
		t.Logf("net/http's Transport gave %d ordinary calls another call's answer", misdelivered)
	}
	checkFramings(t, got, func(name string) string {
		if w, differs := netHTTPDifferences[name]; differs {
			return w
		}
		return framings[name].want()
	})
}

// TestFramingUnderLoad: 20 clients send 50 calls each, in 50 waves of
// one call per client at once, every 7th call framed by one of the
// framings in turn, and what the framings send late is sent between
// waves; no answer reaches another client, every ordinary call succeeds
// and every framed one gets its framing's outcome.
func TestFramingUnderLoad(t *testing.T) {
	e := newFramingEnv(t, router.Options{})
	e.client.Transport = &http.Transport{MaxIdleConnsPerHost: 20}
	names := slices.Sorted(maps.Keys(framings))
	const clients, waves = 20, 50
	var mu sync.Mutex
	var wrong []string
	framed := 0
	for wave := range waves {
		var wg sync.WaitGroup
		for c := range clients {
			wg.Go(func() {
				id := 100000 + wave*clients + c
				frame := ""
				if id%7 == 0 {
					frame = names[(id/7)%len(names)]
				}
				got := ""
				if resp, err := e.call(id, frame); err != nil {
					got = err.Error()
				} else {
					got = outcome(resp, id)
				}
				want := "own"
				if frame != "" {
					want = framings[frame].want()
				}
				mu.Lock()
				defer mu.Unlock()
				if frame != "" {
					framed++
				}
				if got != want {
					wrong = append(wrong, fmt.Sprintf("call %d (framing %q) got %s, want %s", id, frame, got, want))
				}
			})
		}
		wg.Wait()
		e.up.sendLate()
	}
	t.Logf("%d calls, %d framed, %d late sends", clients*waves, framed, e.up.lateSent.Load())
	for _, w := range wrong {
		t.Error(w)
	}
	if min := clients * waves / 7; framed < min || e.up.lateSent.Load() == 0 {
		t.Errorf("%d calls framed (want %d), %d late sends (want some)", framed, min, e.up.lateSent.Load())
	}
}
