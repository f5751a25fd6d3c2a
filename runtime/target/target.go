package target

import (
	"errors"
	"net/http"
	"strings"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
)

// DefaultMaxConcurrency is how many split calls are in flight when the
// deployment sets no max_concurrency.
const DefaultMaxConcurrency = 8

// ErrNoEndpoint: the target names no endpoint to call.
var ErrNoEndpoint = errors.New("target: the target has no endpoint")

// ErrCallNotInPlan: DecodeReply was given a call its plan did not make.
var ErrCallNotInPlan = errors.New("target: the call is not one of the plan's")

// MaxConcurrencyOrDefault returns t's bound on calls in flight, or
// DefaultMaxConcurrency when t sets none.
func (t Target) MaxConcurrencyOrDefault() int {
	if t.MaxConcurrency > 0 {
		return t.MaxConcurrency
	}
	return DefaultMaxConcurrency
}

// BaseURL returns the endpoint without its /v1/systemone path: the root
// the other System One paths (/v1/systemone/batch, /v1/decisions,
// /v1/bundle, /v1/models) hang from. An endpoint not ending in
// /v1/systemone is taken as the root itself.
func (t Target) BaseURL() (string, error) {
	if t.Endpoint == "" {
		return "", ErrNoEndpoint
	}
	return strings.TrimSuffix(strings.TrimSuffix(t.Endpoint, "/"), vocab.PathSystemone), nil
}

// OneCallBase checks what a plan that sends the whole of b in one call
// needs, a target endpoint and at least one item, and returns the
// target's base URL.
func OneCallBase(b *ir.Batch, t Target) (string, error) {
	base, err := t.BaseURL()
	if err != nil {
		return "", err
	}
	if len(b.Items) == 0 {
		return "", &ir.ProtocolError{Category: ir.CategoryInvalidIR, Reason: ir.ReasonEmpty,
			Path: ir.Path{{Name: vocab.BatchRequests}}, Message: "a batch has at least one request"}
	}
	return base, nil
}

// callHeader returns the headers every System One call carries, with the
// standard's long-context flag when long and its images flag when images.
// The header is callHeaders' shared one (WireCall.Header: read only).
func callHeader(long, images bool) http.Header {
	i := 0
	if long {
		i |= 1
	}
	if images {
		i |= 2
	}
	return callHeaders[i]
}

// callHeaders are the four sets of call headers, built once rather than
// per call: index bit 0 is the long-context flag, bit 1 the images flag.
var callHeaders = func() (hs [4]http.Header) {
	for i := range hs {
		hs[i] = http.Header{vocab.HeaderContentType: {"application/json"}, "Accept": {"application/json"}}
		if i&1 != 0 {
			hs[i].Set(vocab.HeaderLongContext, headerOn)
		}
		if i&2 != 0 {
			hs[i].Set(vocab.HeaderImages, headerOn)
		}
	}
	return hs
}()

// oneCall is the plan of a codec that sends the whole of b in one call.
func oneCall(b *ir.Batch, t Target, p Policy, call WireCall) Plan {
	order, items := PlanItems(b)
	call.Items = order
	return Plan{Calls: []WireCall{call}, MaxConcurrency: t.MaxConcurrencyOrDefault(), Order: order, Items: items, Deadline: p.Deadline}
}

// LongContext reports whether the request, or the batch's options, set
// the long-context flag.
func LongContext(r *ir.Request, batch *ir.Options) bool {
	set := func(o *ir.Options) bool { return o != nil && o.LongContext != nil && *o.LongContext }
	return set(r.Options) || set(batch)
}

// headerOn is the value that turns the standard's long-context or images
// header on.
const headerOn = "true" //vocab:not-spec a header's value, not the noul criteria key
