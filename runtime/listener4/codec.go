package listener4

import (
	"net/http"

	"github.com/vllm-sr/systemone/generated/validate"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/table"
)

// Codec is the vllm-sr/4.0 listener codec. It is stateless and safe for
// concurrent use; the zero value is ready.
type Codec struct{}

var _ listener.Codec = Codec{}

// answerer writes the 4.0 shapes.
var answerer = listener.Answerer{Legacy: true}

// Schema returns vllm-sr/4.0.
func (Codec) Schema() table.SchemaID { return readers.Schema }

// readers are the 4.0 readers of the systemone endpoints.
var readers = listener.SchemaReaders{Schema: table.SchemaVllmSR40, Request: readRequest, Batch: readBatch}

// Read reads a client's body sent to path.
func (Codec) Read(path listener.Endpoint, body []byte, header http.Header) (*listener.ClientRequest, error) {
	return readers.Read(path, body, header)
}

// readRequest reads POST /v1/systemone: a request or a states request, in
// any 4.0 or 5.0 form.
func readRequest(root jsonvalue.Value, body []byte, header http.Header) (*listener.ClientRequest, error) {
	if problems := validate.RequestVllmSR40(root); problems != nil {
		if err := refuse(problems, root, false); err != nil {
			return nil, err
		}
	}
	cr := &listener.ClientRequest{
		Endpoint: listener.EndpointSystemOne,
		Schema:   table.SchemaVllmSR40,
		Plan:     listener.PlanPassThrough,
		Body:     body,
	}
	b := listener.Builder{Implicit: true, Diags: &cr.Diagnostics}
	r, refusal := b.Request(root, nil, nil, "")
	if refusal != nil {
		return nil, refusal
	}
	noteMediaOverlap(&r, nil, &cr.Diagnostics)
	// The header is not in the body, so a request that uses it goes on
	// translated, with options.long_context written from the IR.
	if listener.LongContext(header) && !longContextInBody(r.Options) {
		listener.ApplyLongContext(&r.Options, header)
		cr.Plan = listener.PlanTranslate
	}
	cr.Request = &r
	return cr, nil
}

func longContextInBody(o *ir.Options) bool {
	return o != nil && o.LongContext != nil && *o.LongContext
}

// readBatch reads POST /v1/systemone/batch, a 5.0 form, with 4.0's
// readings of its items (implicit roles, placeholder arrays).
func readBatch(root jsonvalue.Value, body []byte, header http.Header) (*listener.ClientRequest, error) {
	if problems := validate.BatchRequestVllmSR40(root); problems != nil {
		if err := refuse(problems, root, true); err != nil {
			return nil, err
		}
	}
	cr := &listener.ClientRequest{
		Endpoint: listener.EndpointBatch,
		Schema:   table.SchemaVllmSR40,
		Plan:     listener.PlanTranslate,
		Body:     body,
	}
	batch, refusal := listener.BuildBatch(root, listener.Builder{Implicit: true, Diags: &cr.Diagnostics})
	if refusal != nil {
		return nil, refusal
	}
	for i := range batch.Items {
		noteMediaOverlap(&batch.Items[i].Request, ir.Path{{Name: "requests"}, {Name: batch.Items[i].Name}}, &cr.Diagnostics)
	}
	listener.ApplyLongContext(&batch.Options, header)
	cr.Batch = batch
	return cr, nil
}

// refuse returns the refusal a body's problems call for, or nil when every
// problem is one vllm-sr/4.0 tolerates (a preset-only question).
func refuse(problems []table.Problem, root jsonvalue.Value, batch bool) error {
	t := listener.TriageProblems(problems, batch, listener.PresetOnlyTolerance(root, batch))
	switch {
	case len(t.Request) > 0:
		return listener.RefuseProblems(table.SchemaVllmSR40, t.Request)
	case len(t.Failed) > 0:
		failures := t.Failures(root)
		return listener.RefuseQuestion(&failures[0], root, batch)
	}
	return nil
}

// noteMediaOverlap records a state (or a state of a states request) that
// vllm-sr/5.0 would read as media in front of one item, and 4.0 keeps as
// an array labelling its assets.
func noteMediaOverlap(r *ir.Request, path ir.Path, diags *ir.Diagnostics) {
	if _, ok := ir.ReadMediaInFront(r.State, r.Assets); ok {
		diags.Add(ir.DiagnosticLegacyForm, ir.FormMediaInFront, path.Key("state"))
	}
	for _, s := range r.States {
		if _, ok := ir.ReadMediaInFront(s.Value, r.Assets); ok {
			diags.Add(ir.DiagnosticLegacyForm, ir.FormMediaInFront, path.Key("states").Key(s.Name))
		}
	}
}

// AnswerSuccess writes the 4.0 response: answers, or per state name for a
// states request; a batch as 5.0's batch response.
func (Codec) AnswerSuccess(req *listener.ClientRequest, out listener.Outcome) ([]byte, error) {
	return answerer.Success(req, out)
}

// AnswerError writes both the standard detail with the flat members and
// 4.0's {"error": {...}}.
func (Codec) AnswerError(_ *listener.ClientRequest, e *ir.ErrorBody) (int, []byte) {
	return answerer.Error(e)
}

// AnswerListing writes {object: "list", data: [...], models: [...]}.
func (Codec) AnswerListing(l *ir.Listing) ([]byte, error) { return answerer.Listing(l) }
