package engine

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/registry"
	"github.com/vllm-sr/systemone/runtime/table"
	"github.com/vllm-sr/systemone/runtime/target"
)

// Engine runs requests through the codecs of one schema registry. It is
// immutable and safe for concurrent use.
type Engine struct {
	schemas *registry.Schemas
	// native is the internal form's codec, which a pass-through's one call
	// goes with; nil when the registry has none (no pass-through then).
	native target.Codec
}

// New returns the engine over schemas' codecs and deviations.
func New(schemas *registry.Schemas) *Engine {
	native, _ := schemas.Target(table.SchemaInternal)
	return &Engine{schemas: schemas, native: native}
}

// Route is where an exchange goes, as its server decided after reading
// it: a target whose codec plans wire calls, or a caller that answers the
// IR itself.
type Route struct {
	// Codec plans the wire calls and reads their replies; nil when Caller
	// answers the IR in process (vllm-srun's model), and the plan then only
	// lists the items and their questions.
	Codec target.Codec
	// Target is the deployment planned for, with the capabilities its
	// server resolved; Policy carries the caller's deadline.
	Target target.Target
	Policy target.Policy
	// Deviations rewrite the codec's calls after it wrote them, and the
	// replies before it reads them, in order.
	Deviations []target.Deviation
	// Sender sends the plan's wire calls, whose replies the engine
	// decodes with Codec (wire.go); nil when Caller answers the items.
	Sender Sender
	// Caller answers the planned items in process (vllm-srun's model);
	// used when Sender is nil.
	Caller Caller
	// Hooks are the server's around planning and decoding; nil for none.
	Hooks Hooks
}

// Caller answers an exchange's plan in process: vllm-srun's runs its
// model on each item. (A route with wire calls has a Sender instead,
// whose raw replies the engine decodes.) Results may come in any order
// and may miss items: reassembly answers an item without one
// deadline_exceeded.
type Caller interface {
	Call(ctx context.Context, x *Exchange) []ItemResult
}

// ItemResult is one planned item's outcome as a Caller reports it: a
// response, or an error body with the delay the upstream asked for. It is
// the target codecs' own type, named here so that a caller with no target
// codec (vllm-srun's model) needs none.
type ItemResult = target.ItemResult

// Run plans x for rt (Plan), has rt's sender or caller answer it and
// reassembles the answer (Call): the whole pipeline after reading and
// routing, with rt's hooks around planning and decoding.
func (e *Engine) Run(ctx context.Context, x *Exchange, rt Route) (listener.Outcome, time.Duration, *ir.ErrorBody) {
	var refusal *ir.ErrorBody
	if rt.Hooks != nil {
		planCtx := rt.Hooks.Planning(ctx, x)
		refusal = e.Plan(x, rt)
		rt.Hooks.Planned(planCtx, x, refusal)
	} else {
		refusal = e.Plan(x, rt)
	}
	if refusal != nil {
		return listener.Outcome{}, 0, refusal
	}
	return x.Call(ctx)
}

// Plan plans x for rt: the calls rt's codec writes for x's batch,
// rewritten by rt's deviations. A single request the internal form reads
// (/v1/decisions on every listener, a vllm-sr/4.0 /v1/systemone request
// on a 4.0 listener), sent to a target whose schema is vllm-sr's own
// (target.Traits.Native) with no deviation, instead goes as the internal
// codec's one call to the native /v1/decisions, carrying the client's own
// bytes when its listener planned it pass-through, the model that goes
// upstream is the client's and nothing was rewritten. The error body
// answers a request that cannot be planned.
//
// Planning x again, for another route (a pool's next member), starts
// afresh: what the last plan made and answered is dropped.
func (e *Engine) Plan(x *Exchange, rt Route) *ir.ErrorBody {
	x.Route = rt
	x.Plan, x.Diagnostics, x.PassThrough, x.Results, x.planned = target.Plan{}, nil, false, nil, false
	switch {
	case rt.Codec == nil:
		x.Plan.Order, x.Plan.Items = target.PlanItems(x.Batch)
		x.planned = true
		return nil
	case e.readsInternal(x, rt):
		refusal := e.planNative(x, rt)
		x.planned = refusal == nil
		return refusal
	}
	plan, diags, err := rt.Codec.Plan(x.Batch, rt.Target, rt.Policy)
	if err != nil {
		return planFailed(err)
	}
	devDiags, err := target.ApplyRequestDeviations(&plan, rt.Deviations)
	if err != nil {
		return planFailed(err)
	}
	x.Plan, x.Diagnostics = plan, append(diags, devDiags...)
	x.planned = true
	return nil
}

// readsInternal reports whether x goes to rt's target in the internal
// form: a single request of an endpoint the internal form reads as the
// client sent it, to a target that serves the native endpoints, with
// nothing to rewrite its calls. (A vllm-sr/4.0 states request, and a
// batch, go with rt's codec, one item per request.)
func (e *Engine) readsInternal(x *Exchange, rt Route) bool {
	cr := x.Client
	if e.native == nil || cr == nil || !x.Single || !rt.Codec.Traits().Native || len(rt.Deviations) > 0 {
		return false
	}
	return cr.Endpoint == listener.EndpointDecisions ||
		cr.Endpoint == listener.EndpointSystemOne && cr.Schema == table.SchemaVllmSR40
}

// planNative plans x's one call with the internal codec. The call keeps
// the codec's body, the client's request written from the IR (the
// internal form is lossless, so only what was rewritten differs: the
// model, deadline_ms, a question left out, the long-context flag), unless
// the listener planned a pass-through and the client's own bytes say the
// same: then they go, and x.PassThrough says so.
func (e *Engine) planNative(x *Exchange, rt Route) *ir.ErrorBody {
	plan, _, err := e.native.Plan(x.Batch, rt.Target, rt.Policy)
	if err != nil {
		return planFailed(err)
	}
	own := x.Client.Plan == listener.PlanPassThrough && !x.rewritten &&
		deref(x.Batch.Model) == rt.Target.Model // the client's own model, not one a server filled in
	if own && len(plan.Calls) == 1 {
		plan.Calls[0].Body = x.Client.Body
		x.PassThrough = true
	}
	x.Plan = plan
	x.Route.Codec, x.Route.Deviations = e.native, nil
	return nil
}

// Call has x's route's sender (its replies decoded, wire.go) or caller
// answer its plan and reassembles the answer:
// on a fail-fast exchange the first failure answers the whole request,
// with the delay its upstream asked for; otherwise each failed item's
// questions carry their errors. Every response names x.Model, a batch's
// at its top and in each item alike: an item answers as the request alone
// would, and the model a client named is the one it is answered with (the
// Router's deployment or pool key, never the upstream's own model name).
// A batch a server built itself names no model: its items keep the one
// that answered them.
func (x *Exchange) Call(ctx context.Context) (listener.Outcome, time.Duration, *ir.ErrorBody) {
	if x.Route.Sender != nil {
		x.Results = x.callWire(ctx)
	} else {
		x.Results = x.Route.Caller.Call(ctx, x)
	}
	if x.FailFast {
		if f, retryAfter := x.firstFailure(); f != nil {
			return listener.Outcome{}, retryAfter, f
		}
	}
	batch := target.Reassemble(&x.Plan, x.Results)
	batch.Model = &x.Model
	for i := range batch.Responses { // copies of the results' responses
		if x.Model != "" { // a server's own batch (the Router's rules) keeps what answered
			batch.Responses[i].Response.Model = &x.Model
		}
	}
	if x.Single {
		resp := &batch.Responses[0].Response
		resp.Model = &x.Model
		return listener.Outcome{Response: resp}, 0, nil
	}
	return listener.Outcome{Batch: batch}, 0, nil
}

// planFailed is the error of a plan the target codec could not make: 400
// unsupported_capability for what the target cannot carry or its schema
// cannot write, else 500. The path it names is cut as a detail item's loc
// is (its names to table.MaxNameBytes, its first ir.MaxLocElems elements):
// its names are the request's.
func planFailed(err error) *ir.ErrorBody {
	var ce *target.CarryError
	if errors.As(err, &ce) {
		return ce.ErrorBody()
	}
	var pe *ir.ProtocolError
	if errors.As(err, &pe) && pe.Category != ir.CategoryInvalidIR {
		return &ir.ErrorBody{Status: http.StatusBadRequest, Code: ir.ErrorUnsupportedCapability,
			Reason: string(pe.Reason), Message: "the deployment's schema cannot carry the request, at " + pe.Path.Clipped(ir.MaxLocElems).String()}
	}
	return &ir.ErrorBody{Status: http.StatusInternalServerError, Reason: vocab.ReasonUnplannableRequest,
		Message: "the request could not be written for the deployment's schema"}
}
