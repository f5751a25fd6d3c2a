package engine

import (
	"testing"

	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/listener"
)

// TestCapDeadline: a deadline above the limit is lowered on copies, never
// in the IR the listener codec read; one within it stays as it is.
func TestCapDeadline(t *testing.T) {
	const limit = 5000
	for _, c := range []struct {
		asked, want int64
		capped      bool
	}{{60000, 5000, true}, {5000, 5000, false}, {10, 10, false}} {
		asked := c.asked
		single := &listener.ClientRequest{Endpoint: listener.EndpointSystemOne,
			Request: &ir.Request{Options: &ir.Options{DeadlineMs: &asked}}}
		batch := &listener.ClientRequest{Endpoint: listener.EndpointBatch,
			Batch: &ir.Batch{Options: &ir.Options{DeadlineMs: &asked}, Items: []ir.BatchItem{{Name: "r1"}}}}
		for _, cr := range []*listener.ClientRequest{single, batch} {
			x := exchangeOf(cr)
			x.CapDeadline(limit)
			if got := *x.DeadlineMs(); got != c.want || x.rewritten != c.capped {
				t.Errorf("%s asked %d: deadline %d capped %v", cr.Endpoint, c.asked, got, x.rewritten)
			}
		}
		if *single.Request.Options.DeadlineMs != c.asked || *batch.Batch.Options.DeadlineMs != c.asked {
			t.Fatalf("asked %d: the IR as read was modified", c.asked)
		}
	}
	var none *int64
	x := exchangeOf(&listener.ClientRequest{Endpoint: listener.EndpointSystemOne, Request: &ir.Request{}})
	x.CapDeadline(limit)
	if x.DeadlineMs() != none || x.rewritten {
		t.Fatal("a request without a deadline got one on the wire")
	}
}

// TestExchangeShapes: a single request travels as one item, a states
// request as one item per state, a batch as itself; only /v1/decisions
// and /v1/bundle are answered per question.
func TestExchangeShapes(t *testing.T) {
	model := "m"
	single := exchangeOf(&listener.ClientRequest{Endpoint: listener.EndpointSystemOne, Request: &ir.Request{Model: &model}})
	if !single.Single || !single.FailFast || single.Model != "m" || len(single.Batch.Items) != 1 || single.Batch.Items[0].Name != "request" {
		t.Fatalf("single: %+v", single)
	}
	states := &ir.Request{Model: &model, States: []jsonvalue.Member{{Name: "s1", Value: jsonvalue.String("a")}, {Name: "s2", Value: jsonvalue.String("b")}}}
	x := exchangeOf(&listener.ClientRequest{Endpoint: listener.EndpointSystemOne, Request: states})
	if !x.States || len(x.Batch.Items) != 2 || x.Batch.Items[1].Name != "s2" || x.Batch.Items[1].Request.State.Str() != "b" ||
		x.Batch.Items[1].Request.States != nil || states.States == nil {
		t.Fatalf("states: %+v", x)
	}
	decisions := exchangeOf(&listener.ClientRequest{Endpoint: listener.EndpointDecisions, Request: &ir.Request{}})
	if decisions.FailFast || decisions.Model != "" {
		t.Fatalf("decisions: %+v", decisions)
	}
	b := &ir.Batch{Model: &model, Items: []ir.BatchItem{{Name: "a"}, {Name: "b"}}}
	if x := exchangeOf(&listener.ClientRequest{Endpoint: listener.EndpointBundle, Batch: b}); x.Batch != b || x.FailFast || x.Single {
		t.Fatalf("bundle: %+v", x)
	}
}
