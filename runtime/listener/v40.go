package listener

import (
	"net/http"

	"github.com/vllm-sr/systemone/generated/validate"
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/shapes"
	"github.com/vllm-sr/systemone/runtime/table"
)

// V40 is the vllm-sr/4.0 listener codec. It is stateless and safe for
// concurrent use. Its answers are 4.0's shapes: answers, or per state name
// for a states request, and a batch as 5.0's batch response; an error
// body with both the standard detail with the flat members and 4.0's
// {"error": {...}}; the listing as {object: "list", data: [...], models:
// [...]}.
var V40 Codec = readersCodec{
	SchemaReaders{Schema: table.SchemaVllmSR40, Request: decoded(v40ReadRequest), Batch: decoded(v40ReadBatch)},
	shapes.AnswerWriter{Legacy: true},
}

// v40ReadRequest reads POST /v1/systemone: a request or a states request,
// in any 4.0 or 5.0 form.
func v40ReadRequest(root jsonvalue.Value, body []byte, header http.Header) (*ClientRequest, error) {
	if err := v40Refuse(validate.RequestVllmSR40(root), root, false); err != nil {
		return nil, err
	}
	cr := &ClientRequest{Endpoint: EndpointSystemOne, Schema: table.SchemaVllmSR40, Plan: PlanPassThrough, Body: body}
	rd := shapes.Reader{Implicit: true, Diags: &cr.Diagnostics}
	r, err := rd.Request(root, nil)
	if err != nil {
		return nil, RefuseError(err)
	}
	noteMediaOverlap(r, nil, &cr.Diagnostics)
	// The header is not in the body, so a request that uses it goes on
	// translated, with options.long_context written from the IR.
	if LongContext(header) && !longContextInBody(r.Options) {
		ApplyLongContext(&r.Options, header)
		cr.Plan = PlanTranslate
	}
	cr.Request = r
	return cr, nil
}

func longContextInBody(o *ir.Options) bool {
	return o != nil && o.LongContext != nil && *o.LongContext
}

// v40ReadBatch reads POST /v1/systemone/batch, a 5.0 form, with 4.0's
// readings of its items (implicit roles, placeholder arrays).
func v40ReadBatch(root jsonvalue.Value, body []byte, header http.Header) (*ClientRequest, error) {
	if err := v40Refuse(validate.BatchRequestVllmSR40(root), root, true); err != nil {
		return nil, err
	}
	cr := &ClientRequest{Endpoint: EndpointBatch, Schema: table.SchemaVllmSR40, Plan: PlanTranslate, Body: body}
	rd := shapes.Reader{Implicit: true, Diags: &cr.Diagnostics}
	batch, err := rd.Batch(root)
	if err != nil {
		return nil, RefuseError(err)
	}
	for i := range batch.Items {
		noteMediaOverlap(&batch.Items[i].Request, ir.Path{{Name: vocab.BatchRequests}, {Name: batch.Items[i].Name}}, &cr.Diagnostics)
	}
	ApplyLongContext(&batch.Options, header)
	cr.Batch = batch
	return cr, nil
}

// v40Refuse returns the refusal a body's problems call for, or nil when
// there are none or every one is one vllm-sr/4.0 tolerates (a preset-only
// question).
func v40Refuse(problems []table.Problem, root jsonvalue.Value, batch bool) error {
	if problems == nil {
		return nil
	}
	t := TriageProblems(problems, batch, PresetOnlyTolerance(root, batch))
	switch {
	case len(t.Request) > 0:
		return RefuseProblems(table.SchemaVllmSR40, t.Request)
	case len(t.Failed) > 0:
		failures := t.Failures(root)
		return RefuseQuestion(&failures[0], root, batch)
	}
	return nil
}

// noteMediaOverlap records a state (or a state of a states request) that
// vllm-sr/5.0 would read as media in front of one item, and 4.0 keeps as
// an array labelling its assets.
func noteMediaOverlap(r *ir.Request, path ir.Path, diags *ir.Diagnostics) {
	if _, ok := ir.ReadMediaInFront(r.State, r.Assets); ok {
		diags.Add(ir.DiagnosticLegacyForm, ir.FormMediaInFront, path.Key(vocab.RequestState))
	}
	for _, s := range r.States {
		if _, ok := ir.ReadMediaInFront(s.Value, r.Assets); ok {
			diags.Add(ir.DiagnosticLegacyForm, ir.FormMediaInFront, path.Key(vocab.RequestStates).Key(s.Name))
		}
	}
}
