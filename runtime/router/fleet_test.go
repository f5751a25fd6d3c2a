package router_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/vllm-sr/systemone/runtime/router"
	"github.com/vllm-sr/systemone/runtime/testkit"
)

// The fleet suite: a Router in front of several deployments, some of
// which fail (switchUpstream, alternateResetter, a closed port). Pools
// fail over and pass over members, deployments retry and time out their
// calls, circuits open and close, and readiness does not cascade
// (TestReadiness, lifecycle_test.go).

// fleetDeployment is a systemone/0.2 deployment entry of a configuration.
func fleetDeployment(name, endpoint, extra string) string {
	return "  " + name + ":\n    provider: systemone\n    endpoint: " + endpoint + "\n    model: d3\n    schema: systemone/0.2\n" + extra
}

// fleetConfig is a configuration with one vllm-sr/5.0 listener, edge, on
// a free port, and the deployments and pools given.
func fleetConfig(t *testing.T, deployments, pools string) string {
	t.Helper()
	return writeConfig(t, "listeners:\n  - name: edge\n    address: 127.0.0.1:{{PORT}}\n    apis:\n      systemone: {schema: vllm-sr/5.0}\n"+
		"deployments:\n"+deployments+"pools:\n"+pools, map[string]string{"PORT": freePort(t)})
}

// fleetRequest is a single request to model with one noul question q.
func fleetRequest(model string) string {
	return `{"model":"` + model + `","state":"the build is red","questions":{"q":{"type":"noul","instructions":"Is it urgent?"}}}`
}

// try is one entry of routing.tries.
type try struct {
	Deployment string
	Outcome    string
	Calls      int
}

// answered is a pool's answer as the test reads it: its status, its
// routing (nil when it has none) and its error's reason.
type answered struct {
	status     int
	retryAfter string
	reason     string
	routing    *struct {
		Deployment string
		Calls      int
		Tries      []try
	}
	body string
}

func ask(t *testing.T, url, body string) answered {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		Reason  string
		Routing *struct {
			Deployment string
			Calls      int
			Tries      []try
		}
	}
	var raw json.RawMessage
	if err := json.NewDecoder(resp.Body).Decode(&raw); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("%v: %s", err, raw)
	}
	return answered{status: resp.StatusCode, retryAfter: resp.Header.Get("Retry-After"), reason: out.Reason, routing: out.Routing, body: string(raw)}
}

func sameTries(got, want []try) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if got[i] != want[i] {
			return false
		}
	}
	return true
}

// waitLog waits (at most 5 s) until the log has a line containing s: an
// access line is written after its answer.
func waitLog(t *testing.T, logs *testkit.LogBuffer, s string) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !strings.Contains(logs.String(), s); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no log line has %s:\n%s", s, logs)
		}
	}
}

// TestPoolFailsOver: a pool [dead, busy, good] whose first member stopped
// after the Router found it up (connection refused) and whose second
// answers 503 answers every request from its third member. Each answer's
// routing lists what it tried; after five failures in a row the first
// two members' circuits are open and they are passed over without a
// call. The access line lists the tries, the metrics count the
// failovers and show the circuits, and /ready stays 200: no member is
// required.
func TestPoolFailsOver(t *testing.T) {
	dead, busy, good := newSwitchUpstream(t, "ok"), newSwitchUpstream(t, "503"), newSwitchUpstream(t, "ok")
	path := fleetConfig(t, fleetDeployment("dead", dead.endpoint(), "")+fleetDeployment("busy", busy.endpoint(), "")+
		fleetDeployment("good", good.endpoint(), ""), "  vllm-sr/auto: [dead, busy, good]\n")
	cfg, err := router.LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	run, logs := startRouterLogged(t, cfg, router.Options{CheckInterval: time.Hour})
	base := run.URL("edge")
	waitReadyBody(t, base, func(r readyBody) bool { return r.Deployments["dead"].Status == "up" })
	dead.srv.Close() // stopped after its check: the Router still takes it for up

	for i := range 12 {
		a := ask(t, base+"/v1/systemone", fleetRequest("vllm-sr/auto"))
		if a.status != 200 || a.routing == nil || a.routing.Deployment != "good" || a.routing.Calls != 1 {
			t.Fatalf("request %d: %d %s", i, a.status, a.body)
		}
		want := []try{{"dead", "upstream_unreachable", 1}, {"busy", "upstream_unavailable", 1}, {"good", "answered", 1}}
		if i >= 5 { // five failures in a row opened both circuits
			want = []try{{"dead", "circuit_open", 0}, {"busy", "circuit_open", 0}, {"good", "answered", 1}}
		}
		if !sameTries(a.routing.Tries, want) {
			t.Errorf("request %d tried %+v, want %+v", i, a.routing.Tries, want)
		}
	}
	if n := busy.calls.Load(); n != 5 {
		t.Errorf("busy got %d calls, want 5: none once its circuit opened", n)
	}
	if n := good.calls.Load(); n != 12 {
		t.Errorf("good got %d calls, want 12", n)
	}
	waitLog(t, logs, `"tries":"dead upstream_unreachable 1, busy upstream_unavailable 1, good answered 1"`)
	waitLog(t, logs, `"tries":"dead circuit_open 0, busy circuit_open 0, good answered 1"`)
	if n := strings.Count(logs.String(), "circuit opened"); n != 2 {
		t.Errorf("%d circuit-opened lines, want 2 (dead, busy)", n)
	}

	m := testkit.ScrapeMetrics(t, base+"/metrics")
	for _, c := range []struct {
		name   string
		labels []string
		want   float64
	}{
		{"vsr_pool_failovers_total", []string{"pool", "vllm-sr/auto", "deployment", "dead"}, 5},
		{"vsr_pool_failovers_total", []string{"pool", "vllm-sr/auto", "deployment", "busy"}, 5},
		{"vsr_deployment_circuit_state", []string{"deployment", "dead"}, 2},
		{"vsr_deployment_circuit_state", []string{"deployment", "busy"}, 2},
		{"vsr_deployment_circuit_state", []string{"deployment", "good"}, 0},
		{"vsr_deployment_up", []string{"deployment", "busy"}, 0},
		{"vsr_deployment_up", []string{"deployment", "good"}, 1},
		{"vsr_upstream_calls_total", []string{"upstream", "busy", "outcome", "503"}, 5},
		{"vsr_ready", nil, 1},
	} {
		if got, _ := m.Value(c.name, c.labels...); got != c.want {
			t.Errorf("%s%v = %v, want %v", c.name, c.labels, got, c.want)
		}
	}
	status, out := get(t, base+"/ready")
	ready := decodeJSON(t, out)["deployments"].(map[string]any)
	if status != 200 || ready["dead"].(map[string]any)["circuit"] != "open" || ready["good"].(map[string]any)["circuit"] != "closed" {
		t.Errorf("/ready: %d %s", status, out)
	}
}

// TestPoolHonoursRetryAfter: a member that answered 503 with a
// Retry-After is passed over, without a call, until the delay ends; then
// it is called again. A pool none of whose members can be called answers
// with the passed-over member's answer and the delay left.
func TestPoolHonoursRetryAfter(t *testing.T) {
	busy, good := newSwitchUpstream(t, "503-after-ms:1500"), newSwitchUpstream(t, "ok")
	never := "    circuit: {failures: 0}\n" // its circuit stays closed: the delay alone passes it over
	path := fleetConfig(t, fleetDeployment("busy", busy.endpoint(), never)+fleetDeployment("good", good.endpoint(), ""),
		"  vllm-sr/auto: [busy, good]\n  only-busy: [busy]\n")
	run := startRouter(t, path)
	base := run.URL("edge")

	a := ask(t, base+"/v1/systemone", fleetRequest("vllm-sr/auto"))
	start := time.Now()
	if a.status != 200 || a.routing == nil || !sameTries(a.routing.Tries, []try{{"busy", "upstream_unavailable", 1}, {"good", "answered", 1}}) {
		t.Fatalf("first: %d %s", a.status, a.body)
	}
	a = ask(t, base+"/v1/systemone", fleetRequest("vllm-sr/auto"))
	if a.status != 200 || a.routing == nil || !sameTries(a.routing.Tries, []try{{"busy", "upstream_unavailable", 0}, {"good", "answered", 1}}) {
		t.Errorf("within the delay: %d %s", a.status, a.body)
	}
	a = ask(t, base+"/v1/systemone", fleetRequest("only-busy"))
	if a.status != 503 || a.reason != "upstream_unavailable" || a.retryAfter != "1" && a.retryAfter != "2" || strings.Contains(a.body, faultMarker) ||
		!strings.Contains(a.body, `deployment \"busy\"`) {
		t.Errorf("every member passed over: %d Retry-After %q %s", a.status, a.retryAfter, a.body)
	}
	if n := busy.calls.Load(); n != 1 {
		t.Errorf("busy got %d calls within its Retry-After, want 1", n)
	}
	if time.Since(start) > 1400*time.Millisecond {
		t.Skip("the machine is too slow to check the delay's end here")
	}
	busy.set("ok")
	time.Sleep(time.Until(start.Add(1600 * time.Millisecond)))
	a = ask(t, base+"/v1/systemone", fleetRequest("vllm-sr/auto"))
	if a.status != 200 || a.routing == nil || !sameTries(a.routing.Tries, []try{{"busy", "answered", 1}}) {
		t.Errorf("after the delay: %d %s", a.status, a.body)
	}
}

// TestRetriesAfterReset: against an upstream that resets every other
// call before any reply, a deployment with retries: 1 answers every
// request (the second try answers), and one without retries fails every
// other one with 503 upstream_unreachable. The access line of a retried
// request lists its two calls, and vsr_upstream_retries_total counts the
// retries.
func TestRetriesAfterReset(t *testing.T) {
	retried, plain := newAlternateResetter(t), newAlternateResetter(t)
	path := fleetConfig(t, fleetDeployment("retried", retried.endpoint(), "    retries: 1\n")+
		fleetDeployment("plain", plain.endpoint(), "    circuit: {failures: 0}\n"), "  any: [plain]\n")
	cfg, err := router.LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	run, logs := startRouterLogged(t, cfg, router.Options{})
	base := run.URL("edge")
	for i := range 10 {
		if a := ask(t, base+"/v1/systemone", fleetRequest("retried")); a.status != 200 {
			t.Errorf("retried, request %d: %d %s", i, a.status, a.body)
		}
	}
	if n := retried.calls.Load(); n != 20 {
		t.Errorf("retried got %d calls, want 20: each request reset once, then answered", n)
	}
	failed := 0
	for range 10 {
		switch a := ask(t, base+"/v1/systemone", fleetRequest("plain")); {
		case a.status == 503 && a.reason == "upstream_unreachable":
			failed++
		case a.status != 200:
			t.Errorf("plain: %d %s", a.status, a.body)
		}
	}
	if failed != 5 || plain.calls.Load() != 10 {
		t.Errorf("plain: %d of 10 failed in %d calls, want 5 in 10: no retries", failed, plain.calls.Load())
	}
	waitLog(t, logs, `"tries":"retried answered 2"`)
	m := testkit.ScrapeMetrics(t, base+"/metrics")
	if n, _ := m.Value("vsr_upstream_retries_total", "deployment", "retried"); n != 10 {
		t.Errorf("vsr_upstream_retries_total{retried} = %v, want 10", n)
	}
	if n, ok := m.Value("vsr_upstream_retries_total", "deployment", "plain"); ok {
		t.Errorf("vsr_upstream_retries_total{plain} = %v, want no series", n)
	}
}

// TestTimeoutMs: a deployment's timeout_ms bounds each call of a slow
// upstream when the client gives no deadline: the request answers 504
// deadline_exceeded as a passed deadline does, long before the upstream
// would; with retries: 1 both calls are bounded; in a pool, the timed-out
// member is failed over.
func TestTimeoutMs(t *testing.T) {
	slow, good := newSwitchUpstream(t, "slow-ms:4000"), newSwitchUpstream(t, "ok")
	bound := "    timeout_ms: 200\n    circuit: {failures: 0}\n"
	path := fleetConfig(t, fleetDeployment("slow", slow.endpoint(), bound)+
		fleetDeployment("slow-retried", slow.endpoint(), bound+"    retries: 1\n")+fleetDeployment("good", good.endpoint(), ""),
		"  vllm-sr/auto: [slow, good]\n")
	base := startRouter(t, path).URL("edge")

	start := time.Now()
	a := ask(t, base+"/v1/systemone", fleetRequest("slow"))
	if took := time.Since(start); a.status != 504 || a.reason != "deadline_exceeded" || took < 200*time.Millisecond || took > 2*time.Second {
		t.Errorf("slow: %d in %s %s", a.status, took, a.body)
	}
	before := slow.calls.Load()
	start = time.Now()
	a = ask(t, base+"/v1/systemone", fleetRequest("slow-retried"))
	if took := time.Since(start); a.status != 504 || took < 400*time.Millisecond || took > 3*time.Second || slow.calls.Load()-before != 2 {
		t.Errorf("slow-retried: %d in %s after %d calls %s", a.status, took, slow.calls.Load()-before, a.body)
	}
	start = time.Now()
	a = ask(t, base+"/v1/systemone", fleetRequest("vllm-sr/auto"))
	if took := time.Since(start); a.status != 200 || a.routing == nil || took > 2*time.Second ||
		!sameTries(a.routing.Tries, []try{{"slow", "deadline_exceeded", 1}, {"good", "answered", 1}}) {
		t.Errorf("pool: %d in %s %s", a.status, took, a.body)
	}
}

// TestCircuitBreaker: a required deployment whose calls fail opens its
// circuit after circuit.failures of them in a row: its requests then get
// 503 circuit_open at once, with Retry-After and no call, /ready is 503
// and its gauge shows it open. After the cool-down one probe call goes:
// a failure opens it again; while a probe is out, other requests are
// refused; a probe that answers closes it, and /ready is 200 again.
func TestCircuitBreaker(t *testing.T) {
	flaky := newSwitchUpstream(t, "503")
	path := fleetConfig(t, fleetDeployment("flaky", flaky.endpoint(), "    required: true\n    circuit: {failures: 3, cool_down_ms: 1500}\n"), "")
	cfg, err := router.LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	run, logs := startRouterLogged(t, cfg, router.Options{CheckInterval: 50 * time.Millisecond})
	base := run.URL("edge")
	waitReady(t, base+"/ready")

	for i := range 3 {
		if a := ask(t, base+"/v1/systemone", fleetRequest("flaky")); a.status != 503 || a.reason != "upstream_unavailable" {
			t.Fatalf("failure %d: %d %s", i, a.status, a.body)
		}
	}
	a := ask(t, base+"/v1/systemone", fleetRequest("flaky"))
	if a.status != 503 || a.reason != "circuit_open" || a.retryAfter != "2" && a.retryAfter != "1" || // the cool-down left, rounded up
		!strings.Contains(a.body, `deployment \"flaky\"`) || flaky.calls.Load() != 3 {
		t.Errorf("open: %d Retry-After %q after %d calls %s", a.status, a.retryAfter, flaky.calls.Load(), a.body)
	}
	status, out := get(t, base+"/ready")
	if got := decodeJSON(t, out); status != 503 || got["status"] != "not_ready" ||
		got["deployments"].(map[string]any)["flaky"].(map[string]any)["circuit"] != "open" {
		t.Errorf("/ready while a required deployment's circuit is open: %d %s", status, out)
	}
	m := testkit.ScrapeMetrics(t, base+"/metrics")
	if v, _ := m.Value("vsr_deployment_circuit_state", "deployment", "flaky"); v != 2 {
		t.Errorf("circuit state %v, want 2 (open)", v)
	}
	if v, _ := m.Value("vsr_ready"); v != 0 {
		t.Errorf("vsr_ready %v, want 0", v)
	}

	time.Sleep(1600 * time.Millisecond) // half-open: one probe, which fails
	if a := ask(t, base+"/v1/systemone", fleetRequest("flaky")); a.status != 503 || a.reason != "upstream_unavailable" || flaky.calls.Load() != 4 {
		t.Errorf("failed probe: %d after %d calls %s", a.status, flaky.calls.Load(), a.body)
	}
	if a := ask(t, base+"/v1/systemone", fleetRequest("flaky")); a.status != 503 || a.reason != "circuit_open" || flaky.calls.Load() != 4 {
		t.Errorf("open again: %d after %d calls %s", a.status, flaky.calls.Load(), a.body)
	}

	flaky.set("slow-ms:800")
	time.Sleep(1600 * time.Millisecond)
	probe := make(chan answered, 1)
	go func() { probe <- ask(t, base+"/v1/systemone", fleetRequest("flaky")) }()
	for flaky.calls.Load() != 5 { // the probe is out
		time.Sleep(5 * time.Millisecond)
	}
	if a := ask(t, base+"/v1/systemone", fleetRequest("flaky")); a.status != 503 || a.reason != "circuit_open" || a.retryAfter != "1" {
		t.Errorf("while the probe is out: %d Retry-After %q %s", a.status, a.retryAfter, a.body)
	}
	if a := <-probe; a.status != 200 {
		t.Errorf("the probe: %d %s", a.status, a.body)
	}
	flaky.set("ok")
	if a := ask(t, base+"/v1/systemone", fleetRequest("flaky")); a.status != 200 || flaky.calls.Load() != 6 {
		t.Errorf("closed: %d after %d calls %s", a.status, flaky.calls.Load(), a.body)
	}
	waitReady(t, base+"/ready")
	if v, _ := testkit.ScrapeMetrics(t, base+"/metrics").Value("vsr_deployment_circuit_state", "deployment", "flaky"); v != 0 {
		t.Errorf("circuit state %v, want 0 (closed)", v)
	}
	text := logs.String()
	if strings.Count(text, "circuit opened") != 2 || strings.Count(text, "circuit closed") != 1 {
		t.Errorf("want two opened lines and one closed line:\n%s", text)
	}
	waitLog(t, logs, `"tries":"flaky circuit_open 0"`)
}

// TestPoolBatchFailover: a batch is one plan; split into single calls for
// a systemone/0.2 member, it fails over only when none of its calls got
// an answer. A member that failed every call of the batch is failed
// over, with the calls it took in routing; a member that answered one
// call and failed the other is the batch's answer (on
// /v1/systemone/batch, its first failure), and no call goes to the next
// member: the call that answered is not sent twice.
func TestPoolBatchFailover(t *testing.T) {
	split, whole := newSwitchUpstream(t, "503"), newSwitchUpstream(t, "ok")
	never := "    circuit: {failures: 0}\n"
	path := fleetConfig(t, fleetDeployment("split", split.endpoint(), never)+fleetDeployment("whole", whole.endpoint(), ""),
		"  vllm-sr/auto: [split, whole]\n")
	base := startRouter(t, path).URL("edge")
	question := `"questions":{"q":{"type":"noul","instructions":"Is it urgent?"}}`
	batch := `{"model":"vllm-sr/auto","requests":{"a":{"state":"x",` + question + `},"b":{"state":"y",` + question + `}}}`

	status, out := post(t, base+"/v1/systemone/batch", batch)
	var got struct {
		Responses map[string]struct {
			Routing struct{ Tries []try }
		}
	}
	if err := json.Unmarshal(out, &got); err != nil || status != 200 || len(got.Responses) != 2 ||
		!sameTries(got.Responses["a"].Routing.Tries, []try{{"split", "upstream_unavailable", 2}, {"whole", "answered", 2}}) {
		t.Errorf("every call failed: %d %s", status, out)
	}
	if split.calls.Load() != 2 || whole.calls.Load() != 2 {
		t.Errorf("split %d calls, whole %d, want 2 and 2", split.calls.Load(), whole.calls.Load())
	}

	split.set("fail-state:x")
	a := ask(t, base+"/v1/systemone/batch", batch)
	if a.status != 503 || a.reason != "upstream_unavailable" || !strings.Contains(a.body, `"state":"a"`) {
		t.Errorf("one call failed: %d %s", a.status, a.body)
	}
	if split.calls.Load() != 4 || whole.calls.Load() != 2 {
		t.Errorf("split %d calls, whole %d, want 4 and 2: a plan that got an answer is not failed over", split.calls.Load(), whole.calls.Load())
	}
}

// TestRetriesNeverPastDeadline: a retry waits for the reply's Retry-After
// when it is longer than the backoff, and is not made when that wait
// would end past the caller's deadline: the client gets the failure at
// once, not after the deadline.
func TestRetriesNeverPastDeadline(t *testing.T) {
	busy := newSwitchUpstream(t, "503-after-ms:50")
	path := fleetConfig(t, fleetDeployment("busy", busy.endpoint(), "    retries: 3\n    circuit: {failures: 0}\n"), "")
	base := startRouter(t, path).URL("edge")
	withDeadline := func(ms string) string {
		return strings.Replace(fleetRequest("busy"), `"questions"`, `"options":{"deadline_ms":`+ms+`},"questions"`, 1)
	}

	if a := ask(t, base+"/v1/systemone", withDeadline("5000")); a.status != 503 || a.reason != "upstream_unavailable" || busy.calls.Load() != 4 {
		t.Errorf("short delays: %d after %d calls, want 503 after 4 (1 and 3 retries) %s", a.status, busy.calls.Load(), a.body)
	}
	busy.set("503-after-ms:2000")
	start := time.Now()
	a := ask(t, base+"/v1/systemone", withDeadline("1000"))
	if took := time.Since(start); a.status != 503 || a.reason != "upstream_unavailable" || busy.calls.Load() != 5 || took > 900*time.Millisecond {
		t.Errorf("a delay past the deadline: %d after %d calls in %s, want 503 after 5, at once %s", a.status, busy.calls.Load(), took, a.body)
	}
	if a.retryAfter != "2" {
		t.Errorf("Retry-After %q, want the upstream's 2", a.retryAfter)
	}
}
