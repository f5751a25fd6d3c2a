package router

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"sync"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/engine"
	tc "github.com/vllm-sr/systemone/runtime/target"
)

// maxReplyBytes bounds an upstream reply the Router reads: the standard's
// 32 MiB body limit, and one byte to tell a larger body apart.
const maxReplyBytes = vocab.LimitBodyBytes + 1

// httpCaller is the Router's engine.Caller: it sends a plan's wire calls
// over HTTP and reads each reply with the route's codec. One serves every
// request of a Router.
type httpCaller struct {
	client  *http.Client
	metrics *Metrics
}

var _ engine.Caller = (*httpCaller)(nil)

// Call runs the plan's calls, at most MaxConcurrency in flight, the next
// call starting as soon as one finishes (a sliding window, in plan order),
// every call bounded by ctx and the plan's deadline. Each reply goes
// through the route's deviations, then its codec's DecodeReply, and each
// call's outcome is counted for the route's deployment.
//
// A call not started before the deadline is never sent: its items get no
// result, which reassembly answers deadline_exceeded, so only their own
// questions are unknown. The results come back in call order.
func (c *httpCaller) Call(ctx context.Context, x *engine.Exchange) []tc.ItemResult {
	p, rt := &x.Plan, &x.Route
	if !p.Deadline.IsZero() {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, p.Deadline)
		defer cancel()
	}
	window := p.MaxConcurrency
	if window < 1 {
		window = 1
	}
	slots := make(chan struct{}, window)
	perCall := make([][]tc.ItemResult, len(p.Calls))
	var wg sync.WaitGroup
launch:
	for i := range p.Calls {
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
			break launch
		}
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			defer func() { <-slots }()
			perCall[i] = c.one(ctx, p, rt, &p.Calls[i])
		}(i)
	}
	wg.Wait()
	var out []tc.ItemResult
	for _, rs := range perCall {
		out = append(out, rs...)
	}
	return out
}

// one sends one call and decodes its reply into its items' results.
func (c *httpCaller) one(ctx context.Context, p *tc.Plan, rt *engine.Route, call *tc.WireCall) []tc.ItemResult {
	reply := c.send(ctx, call)
	c.metrics.recordCall(rt.Target.Deployment, reply.Status)
	if err := tc.ApplyReplyDeviations(&reply, rt.Deviations); err != nil {
		return tc.CallFailed(p, call, tc.MalformedReplyError(err), 0)
	}
	results, err := rt.Codec.DecodeReply(*p, *call, reply)
	if err != nil {
		return tc.CallFailed(p, call, tc.MalformedReplyError(err), 0)
	}
	return results
}

// send makes the HTTP call. A transport failure, a deadline passing or a
// reply over the body limit is a reply with Err set and no status.
func (c *httpCaller) send(ctx context.Context, call *tc.WireCall) tc.WireReply {
	req, err := http.NewRequestWithContext(ctx, call.Method, call.URL, bytes.NewReader(call.Body))
	if err != nil {
		return tc.WireReply{Err: err}
	}
	for k, vs := range call.Header {
		req.Header[k] = append([]string(nil), vs...)
	}
	resp, err := c.client.Do(req)
	if err != nil {
		return tc.WireReply{Err: err}
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxReplyBytes))
	if err != nil {
		return tc.WireReply{Err: err}
	}
	if int64(len(body)) >= maxReplyBytes {
		return tc.WireReply{Err: errReplyTooLarge}
	}
	return tc.WireReply{Status: resp.StatusCode, Header: resp.Header, Body: body}
}
