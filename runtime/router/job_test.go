package router

import (
	"testing"

	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/registry"
	"github.com/vllm-sr/systemone/runtime/routerconfig"
)

// TestCapDeadline: a deadline above max_deadline_ms is lowered on copies,
// never in the IR the listener codec read; one within it stays as it is.
func TestCapDeadline(t *testing.T) {
	api := &routerconfig.ListenerAPI{Settings: []routerconfig.SettingValue{{Name: registry.MaxDeadlineSetting, Value: 5000}}}
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
			j := jobOf(cr)
			j.capDeadline(api)
			if got := *j.deadlineMs(); got != c.want || j.deadlineCapped != c.capped {
				t.Errorf("%s asked %d: deadline %d capped %v", cr.Endpoint, c.asked, got, j.deadlineCapped)
			}
		}
		if *single.Request.Options.DeadlineMs != c.asked || *batch.Batch.Options.DeadlineMs != c.asked {
			t.Fatalf("asked %d: the IR as read was modified", c.asked)
		}
	}
	var none *int64
	j := jobOf(&listener.ClientRequest{Endpoint: listener.EndpointSystemOne, Request: &ir.Request{}})
	j.capDeadline(api)
	if j.deadlineMs() != none || j.deadlineCapped {
		t.Fatal("a request without a deadline got one on the wire")
	}
}
