package engine

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/table"
	"github.com/vllm-sr/systemone/runtime/target"
)

// rawSender answers every call with reply, raw, and records the calls.
type rawSender struct {
	reply target.WireReply
	mu    sync.Mutex
	calls []string
}

func (s *rawSender) Send(_ context.Context, _ *Exchange, call *target.WireCall) target.WireReply {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls = append(s.calls, call.URL)
	return s.reply
}

// recordingHooks records the hooks called, in order, and what Decoded saw.
type recordingHooks struct {
	mu      sync.Mutex
	called  []string
	planned *ir.ErrorBody
	causes  int
}

type planKey struct{}

func (h *recordingHooks) Planning(ctx context.Context, _ *Exchange) context.Context {
	h.called = append(h.called, "planning")
	return context.WithValue(ctx, planKey{}, "plan")
}

func (h *recordingHooks) Planned(ctx context.Context, x *Exchange, e *ir.ErrorBody) {
	if ctx.Value(planKey{}) != "plan" {
		h.called = append(h.called, "planned without Planning's context")
		return
	}
	h.called = append(h.called, "planned")
	h.planned = e
	for i := range x.Plan.Calls { // a server's credentials, on a copy
		hdr := x.Plan.Calls[i].Header.Clone()
		hdr.Set("Authorization", "Bearer k")
		x.Plan.Calls[i].Header = hdr
	}
}

func (h *recordingHooks) Decoded(_ context.Context, _ *Exchange, results []ItemResult) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.called = append(h.called, "decoded")
	for _, r := range results {
		if r.Cause != nil {
			h.causes++
		}
	}
}

const singleBody = `{"model":"m","state":"x","questions":{"q":{"type":"noul","instructions":"i"}}}`

// TestRunWire: a route with wire calls has its sender answer each call
// raw, and the engine decodes the replies with the route's codec: a
// reply the codec reads answers the request; an upstream error names the
// deployment; a reply that breaks its schema is every item's
// malformed-reply error with its cause for the hooks, not the client.
// The hooks run around planning, with Planning's context, and after each
// decode, and what Planned adds to the calls goes with them.
func TestRunWire(t *testing.T) {
	v50, err := builtinSchemas.Target(table.SchemaVllmSR50)
	if err != nil {
		t.Fatal(err)
	}
	tgt := target.Target{Deployment: "d", Endpoint: "http://up.invalid/v1/systemone", Model: "m"}
	run := func(reply target.WireReply) (*Exchange, *rawSender, *recordingHooks, listener.Outcome, *ir.ErrorBody) {
		t.Helper()
		x := read(t, table.SchemaVllmSR50, listener.EndpointSystemOne, singleBody)
		s, h := &rawSender{reply: reply}, &recordingHooks{}
		out, _, e := builtin.Run(context.Background(), x, Route{Codec: v50, Target: tgt, Sender: s, Hooks: h})
		if !x.Planned() || len(s.calls) != 1 || x.Plan.Calls[0].Header.Get("Authorization") != "Bearer k" {
			t.Fatalf("planned %v, calls %v, header %v", x.Planned(), s.calls, x.Plan.Calls)
		}
		if got := strings.Join(h.called, ","); got != "planning,planned,decoded" || h.planned != nil {
			t.Fatalf("hooks %s (planned %+v)", got, h.planned)
		}
		return x, s, h, out, e
	}

	// The codec's reply for the call it planned: a batch of the one item.
	_, _, _, out, e := run(target.WireReply{Status: 200, Header: http.Header{"Content-Type": {"application/json"}},
		Body: []byte(`{"model":"up","responses":{"` + target.SingleItem + `":{"model":"up","answers":{"q":{"type":"noul","noul":0.7}},` +
			`"usage":{"input_tokens":3,"output_tokens":0}}},"usage":{"input_tokens":3,"output_tokens":0}}`)})
	if e != nil || out.Response == nil || *out.Response.Model != "m" || len(out.Response.Answers) != 1 || *out.Response.Answers[0].Noul != 0.7 {
		t.Fatalf("decoded answer: %+v %+v", out.Response, e)
	}

	_, _, _, _, e = run(target.WireReply{Status: http.StatusServiceUnavailable, Header: http.Header{}, Body: []byte(`{}`)})
	if e == nil || e.Status != http.StatusBadGateway && e.Status != http.StatusServiceUnavailable || !strings.HasPrefix(e.Message, `deployment "d": `) {
		t.Fatalf("upstream error: %+v", e)
	}

	_, _, h, _, e := run(target.WireReply{Status: 200, Header: http.Header{}, Body: []byte(`{"answers":7}`)})
	if e == nil || h.causes == 0 || strings.Contains(e.Message, "7") {
		t.Fatalf("malformed reply: %+v, causes %d", e, h.causes)
	}
}

// TestRunWireRefusedPlan: a request the target cannot carry is refused
// by planning; Planned sees the refusal and nothing is sent.
func TestRunWireRefusedPlan(t *testing.T) {
	std, err := builtinSchemas.Target(table.SchemaStandard02)
	if err != nil {
		t.Fatal(err)
	}
	tgt := target.Target{Deployment: "d", Endpoint: "http://up.invalid/v1/systemone", Model: "m"}
	const spanBody = `{"model":"m","state":"x","questions":{"q":{"type":"span","criteria":{"A":"a"}}}}`
	x := read(t, table.SchemaVllmSR50, listener.EndpointSystemOne, spanBody)
	s, h := &rawSender{}, &recordingHooks{}
	_, _, e := builtin.Run(context.Background(), x, Route{Codec: std, Target: tgt, Sender: s, Hooks: h})
	if e == nil || x.Planned() || len(s.calls) != 0 || h.planned != e || strings.Join(h.called, ",") != "planning,planned" {
		t.Fatalf("refusal %+v, planned %v, calls %v, hooks %v", e, x.Planned(), s.calls, h.called)
	}
}
