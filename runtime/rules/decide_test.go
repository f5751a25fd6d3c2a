package rules

import (
	"context"
	"log/slog"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/observe"
	"github.com/vllm-sr/systemone/runtime/routerconfig"
	tc "github.com/vllm-sr/systemone/runtime/target"
)

// fakeDeployments answers each rule batch with noul, or refuses every
// call, and records what it was asked.
type fakeDeployments struct {
	refuse *ir.ErrorBody
	noul   float64
	mu     sync.Mutex
	runs   int
	items  []string
	done   int
}

func (f *fakeDeployments) Admit(*routerconfig.Deployment) (*ir.ErrorBody, func()) {
	return f.refuse, func() { f.mu.Lock(); f.done++; f.mu.Unlock() }
}

func (f *fakeDeployments) Run(_ context.Context, _ *routerconfig.Deployment, b *ir.Batch, _ time.Time) (listener.Outcome, *ir.ErrorBody) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.runs++
	out := &ir.BatchResponse{}
	for _, it := range b.Items {
		f.items = append(f.items, it.Name)
		q := it.Request.Questions[0]
		n := f.noul
		out.Responses = append(out.Responses, ir.NamedResponse{Name: it.Name,
			Response: ir.Response{Answers: []ir.Answer{{Name: q.Name, Type: q.Type, Noul: &n}}}})
	}
	return listener.Outcome{Batch: out}, nil
}

func evaluator(d Deployments) *Evaluator {
	half := 0.5
	rule := func(name string, onUnknown routerconfig.OnUnknown, action routerconfig.Action) routerconfig.Rule {
		return routerconfig.Rule{Name: name, Deployment: "d", Input: []string{"request"}, Timeout: time.Second, OnUnknown: onUnknown,
			Questions: []ir.Question{{Name: "q", Type: "noul"}}, Match: []routerconfig.Condition{{Question: "q", Type: "noul", AtLeast: &half}},
			Action: action}
	}
	cfg := &routerconfig.Config{Deployments: []routerconfig.Deployment{{Name: "d", Codec: tc.V50}},
		Rules: []routerconfig.Rule{rule("a", routerconfig.OnUnknownSkip, routerconfig.ActionBlock), rule("b", routerconfig.OnUnknownFail, "")}}
	return &Evaluator{Config: cfg, Deployments: d, Metrics: observe.NewMetrics(), Log: slog.New(slog.DiscardHandler)}
}

// Rules bound to one deployment with one timeout go as one batch; their
// answers are checked against their match, and on traffic the first
// fired block rule blocks.
func TestDecideOneBatchPerDeployment(t *testing.T) {
	f := &fakeDeployments{noul: 0.9}
	ev := evaluator(f)
	results, err := ev.Decide(context.Background(), []string{"b", "a"}, map[string]string{"request": "x"})
	if err != nil {
		t.Fatal(err)
	}
	if f.runs != 1 || len(f.items) != 2 || f.done != 1 {
		t.Fatalf("%d runs of %v, %d admissions ended; want one batch of both rules", f.runs, f.items, f.done)
	}
	if len(results) != 2 || results[0].Rule != "b" || results[1].Rule != "a" {
		t.Fatalf("results %+v, want them in the order named", results)
	}
	for _, res := range results {
		if res.Outcome != OutcomeAnswered || res.Match != MatchMatched || !res.Fired {
			t.Errorf("%s: outcome %s, match %s, fired %v", res.Rule, res.Outcome, res.Match, res.Fired)
		}
	}
	v, err := ev.Run(context.Background(), []string{"a", "b"}, "chat_completions",
		[]byte(`{"model":"m","messages":[{"role":"user","content":"hello"}]}`))
	if err != nil || v.Blocked != "a" || v.Failed != "" {
		t.Fatalf("verdict %+v, %v: want blocked by a", v, err)
	}
	h := http.Header{"X-Vsr-Rule-Forged": {"matched"}}
	SetHeaders(h, v.Results)
	if h.Get("X-Vsr-Rule-Forged") != "" || h.Get("x-vsr-rule-a") != MatchMatched {
		t.Errorf("headers %v: the client's dropped, each rule's set", h)
	}
}

// A deployment that takes no call leaves every rule bound to it unknown
// without a call, each rule's on_unknown deciding.
func TestRulesOfARefusedDeploymentAreUnknown(t *testing.T) {
	f := &fakeDeployments{refuse: &ir.ErrorBody{Status: 503, Code: ir.ErrorUnavailable, Reason: "circuit_open", Message: "m"}}
	ev := evaluator(f)
	results, err := ev.Decide(context.Background(), []string{"a", "b"}, map[string]string{"request": "x"})
	if err != nil {
		t.Fatal(err)
	}
	if f.runs != 0 || f.done != 1 {
		t.Fatalf("%d runs, %d admissions ended; want no call", f.runs, f.done)
	}
	if results[0].Outcome != OutcomeSkip || results[1].Outcome != OutcomeFail || len(results[0].Unknown) != 1 ||
		results[0].Match != MatchUnknown || results[0].Response.Answers[0].Reason != "circuit_open" {
		t.Fatalf("results %+v", results)
	}
	if _, err := ev.Decide(context.Background(), []string{"nope"}, nil); err == nil {
		t.Error("an unknown rule name was taken")
	}
}
