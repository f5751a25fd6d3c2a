package fleet

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/routerconfig"
	tc "github.com/vllm-sr/systemone/runtime/target"
	"github.com/vllm-sr/systemone/runtime/upstream"
)

// A circuit opens at the failures-th failure in a row, refuses calls
// during its cool-down, then admits one probe at a time, and closes on
// the probe's answer.
func TestCircuitOpensProbesAndCloses(t *testing.T) {
	f := New(slog.New(slog.DiscardHandler))
	changes := 0
	f.OnChange(func(*Health) { changes++ })
	h := f.Of(&routerconfig.Deployment{Name: "d", Endpoint: "http://127.0.0.1:1"})
	c := routerconfig.Circuit{Failures: 2, CoolDown: 50 * time.Millisecond}
	h.Note(OutcomeFailed, c)
	if s := h.State(time.Now()); s != CircuitClosed {
		t.Fatalf("after one failure the circuit is %s, want closed", s)
	}
	h.Note(OutcomeFailed, c)
	if s := h.State(time.Now()); s != CircuitOpen {
		t.Fatalf("after two failures the circuit is %s, want open", s)
	}
	if e, wait, _ := Admitted("d", h); e == nil || e.Status != http.StatusServiceUnavailable || wait <= 0 {
		t.Fatalf("an open circuit admitted a call (refusal %v, wait %v)", e, wait)
	}
	time.Sleep(60 * time.Millisecond)
	ok, probe, _ := h.Admit(time.Now())
	if !ok || probe == 0 {
		t.Fatalf("a half-open circuit admitted %v with probe %d, want its probe", ok, probe)
	}
	if ok, _, _ := h.Admit(time.Now()); ok {
		t.Fatal("a half-open circuit admitted a second call while its probe is out")
	}
	h.Note(OutcomeAnswered, c)
	if s := h.State(time.Now()); s != CircuitClosed {
		t.Fatalf("after the probe answered the circuit is %s, want closed", s)
	}
	if changes != 2 {
		t.Errorf("%d transitions handed on, want 2 (opened, closed)", changes)
	}
	if f.Of(&routerconfig.Deployment{Name: "d", Endpoint: "http://127.0.0.1:1"}) != h {
		t.Error("the same deployment name and endpoint got another Health")
	}
}

// Judge: only a failure before any answer is retryable; the caller's own
// deadline, a broken reply and an unwritable call say nothing.
func TestJudge(t *testing.T) {
	done, cancel := context.WithCancel(context.Background())
	cancel()
	for name, tt := range map[string]struct {
		ctx   context.Context
		reply tc.WireReply
		want  Outcome
	}{
		"refused":      {context.Background(), tc.WireReply{Err: errors.New("connection refused")}, OutcomeFailed},
		"503":          {context.Background(), tc.WireReply{Status: 503}, OutcomeFailed},
		"529":          {context.Background(), tc.WireReply{Status: tc.StatusOverloaded}, OutcomeFailed},
		"429":          {context.Background(), tc.WireReply{Status: 429}, OutcomeNeutral},
		"500":          {context.Background(), tc.WireReply{Status: 500}, OutcomeNeutral},
		"200":          {context.Background(), tc.WireReply{Status: 200}, OutcomeAnswered},
		"422":          {context.Background(), tc.WireReply{Status: 422}, OutcomeAnswered},
		"cut":          {context.Background(), tc.WireReply{Err: tc.ErrReplyCut}, OutcomeNeutral},
		"bad header":   {context.Background(), tc.WireReply{Err: upstream.ErrRequestHeader}, OutcomeNeutral},
		"caller's own": {done, tc.WireReply{Err: context.Canceled}, OutcomeNeutral},
	} {
		if got := Judge(tt.ctx, &tt.reply); got != tt.want {
			t.Errorf("%s: %d, want %d", name, got, tt.want)
		}
	}
}

// An attempt fails over only when every call of its plan failed before
// any answer, and DirectTries logs only calls beyond the plan's.
func TestAttemptFailsOverOnlyWhenNothingAnswered(t *testing.T) {
	var a Attempt
	a.Sent()
	a.Note(OutcomeFailed)
	a.Sent()
	a.Note(OutcomeAnswered)
	if a.FailedOver(2) {
		t.Error("a plan one of whose calls answered failed over")
	}
	var b Attempt
	b.Sent()
	b.Sent() // a retry
	b.Note(OutcomeFailed)
	failed := []tc.ItemResult{{Name: "a"}, {Name: "b", Error: &ir.ErrorBody{Reason: "upstream_unreachable"}}}
	if !b.FailedOver(1) || Failure(failed) != "upstream_unreachable" {
		t.Errorf("a plan whose one call failed: failed over %v, failure %q", b.FailedOver(1), Failure(failed))
	}
	tries := DirectTries("d", &b, 1, failed)
	if len(tries) != 1 || tries[0] != (Try{Deployment: "d", Outcome: "upstream_unreachable", Calls: 2}) {
		t.Errorf("tries %+v", tries)
	}
	if DirectTries("d", &a, 2, nil) != nil {
		t.Error("a plan that made no more calls than it has logged tries")
	}
}
