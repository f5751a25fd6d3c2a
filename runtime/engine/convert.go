package engine

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/registry"
	"github.com/vllm-sr/systemone/runtime/table"
	"github.com/vllm-sr/systemone/runtime/target"
)

// convertTarget is the target convert writes for, with an endpoint
// nothing is sent to; its name never reaches a message (a refusal names
// the body's own paths).
var convertTarget = target.Target{Deployment: "convert", Endpoint: "http://convert.invalid/v1/systemone"}

// Result is a converted body and what the codecs recorded on the way.
type Result struct {
	Body []byte
	// Header are the headers the target codec sends with the body, beyond
	// the JSON content type (the standard's long-context and images flags).
	Header http.Header
	// Diagnostics are the source codec's records (legacy forms used), then
	// the target codec's (members the standard drops), then the
	// deviations'.
	Diagnostics ir.Diagnostics
}

// Sources returns the schema IDs convert reads, sorted: each schema with
// a listener codec, and each whose target codec reads requests
// (target.RequestReader: systemone/0.2, the internal form).
func (e *Engine) Sources() []table.SchemaID {
	var out []table.SchemaID
	for _, id := range e.schemas.IDs() {
		if _, ok := e.reader(id); ok {
			out = append(out, id)
		}
	}
	return out
}

// Targets returns the schema IDs convert writes, sorted: those with a
// target codec.
func (e *Engine) Targets() []table.SchemaID { return e.schemas.TargetIDs() }

// Deviations returns the deviation IDs convert applies, sorted.
func (e *Engine) Deviations() []string { return e.schemas.DeviationIDs() }

// Translate is `vllm-sr convert`'s pipeline for one body: read in the
// schema from into the IR, written alone in the schema to by its target
// codec (target.RequestWriter), then rewritten by the deviations in order,
// as on a deployment; nothing is called. Its errors are one line: an
// unknown schema or deviation lists the supported ones, and a body the
// source refuses or a request the target cannot carry names the JSON path
// and the reason.
func (e *Engine) Translate(from, to table.SchemaID, deviationIDs []string, body []byte) (Result, error) {
	read, ok := e.reader(from)
	if !ok {
		return Result{}, fmt.Errorf("unknown schema %q for --from; supported: %s", from, registry.JoinIDs(e.Sources()))
	}
	codec, err := e.schemas.Target(to)
	if err != nil {
		return Result{}, fmt.Errorf("unknown schema %q for --to; supported: %s", to, registry.JoinIDs(e.Targets()))
	}
	devs, errs := e.schemas.Deviations(to, deviationIDs)
	if len(errs) > 0 {
		return Result{}, errors.New(joinErrors(errs))
	}
	r, diags, err := read(body)
	if err != nil {
		return Result{}, fmt.Errorf("the %s schema refuses the body: %w", from, err)
	}
	call, wdiags, err := codec.WriteRequest(r, convertTarget)
	if ce, ok := errors.AsType[*target.CarryError](err); ok {
		// Named by the body's own paths: no deployment is involved.
		return Result{}, fmt.Errorf("the %s schema cannot carry the request: %s", to, (&target.CarryError{Missing: target.Unbatched(ce.Missing)}).What())
	}
	if err != nil {
		return Result{}, fmt.Errorf("the %s schema cannot carry the request: %w", to, err)
	}
	plan := target.Plan{Calls: []target.WireCall{call}}
	ddiags, err := target.ApplyRequestDeviations(&plan, devs)
	if err != nil {
		return Result{}, fmt.Errorf("deviation: %w", err)
	}
	diags = append(append(diags, wdiags...), ddiags...)
	return Result{Body: plan.Calls[0].Body, Header: extraHeaders(plan.Calls[0].Header), Diagnostics: diags}, nil
}

// readFunc reads one request body of a schema into the IR.
type readFunc func(body []byte) (*ir.Request, ir.Diagnostics, error)

// reader returns how id's bodies are read: by its listener codec, as a
// client's POST /v1/systemone (the pipeline's read step; a refusal is its
// one-line message), else by its target codec when that reads requests.
func (e *Engine) reader(id table.SchemaID) (readFunc, bool) {
	if lc, err := e.schemas.Listener(id); err == nil {
		return func(body []byte) (*ir.Request, ir.Diagnostics, error) {
			x, refusal := Read(lc, listener.EndpointSystemOne, body, nil)
			if refusal != nil {
				return nil, nil, errors.New(refusal.Message)
			}
			return x.Client.Request, x.Client.Diagnostics, nil
		}, true
	}
	if tc, err := e.schemas.Target(id); err == nil {
		if rr, ok := tc.(target.RequestReader); ok {
			return rr.ReadRequest, true
		}
	}
	return nil, false
}

// extraHeaders drops the JSON headers every call carries.
func extraHeaders(h http.Header) http.Header {
	out := h.Clone()
	out.Del(vocab.HeaderContentType)
	out.Del("Accept")
	if len(out) == 0 {
		return nil
	}
	return out
}

func joinErrors(errs []error) string {
	msgs := make([]string, len(errs))
	for i, e := range errs {
		msgs[i] = e.Error()
	}
	return strings.Join(msgs, "; ")
}
