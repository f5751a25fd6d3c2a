package listener5

import (
	"net/http"

	"github.com/vllm-sr/systemone/generated/validate"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/table"
)

// Codec is the vllm-sr/5.0 listener codec. It is stateless and safe for
// concurrent use; the zero value is ready.
type Codec struct{}

var _ listener.Codec = Codec{}

// answerer writes the 5.0 shapes.
var answerer = listener.Answerer{}

// Schema returns vllm-sr/5.0.
func (Codec) Schema() table.SchemaID { return readers.Schema }

// readers are the 5.0 readers of the systemone endpoints.
var readers = listener.SchemaReaders{Schema: table.SchemaVllmSR50, Request: readRequest, Batch: readBatch}

// Read reads a client's body sent to path.
func (Codec) Read(path listener.Endpoint, body []byte, header http.Header) (*listener.ClientRequest, error) {
	return readers.Read(path, body, header)
}

// readRequest reads POST /v1/systemone: one request, decoded once (by
// listener.SchemaReaders), checked by the generated validator, then
// mapped into the IR.
func readRequest(root jsonvalue.Value, body []byte, header http.Header) (*listener.ClientRequest, error) {
	if problems := validate.RequestVllmSR50(root); problems != nil {
		return nil, refuse(problems, root, false)
	}
	var b listener.Builder
	r, refusal := b.Request(root, nil, nil, "")
	if refusal != nil {
		return nil, refusal
	}
	listener.ApplyLongContext(&r.Options, header)
	read := &readBlock{request: r}
	cr := &read.client
	*cr = listener.ClientRequest{
		Endpoint: listener.EndpointSystemOne,
		Schema:   table.SchemaVllmSR50,
		Request:  &read.request,
		Plan:     listener.PlanTranslate,
		Body:     body,
	}
	if m, ok := ir.ReadMediaInFront(r.State, r.Assets); ok {
		cr.Media = []listener.StateMedia{{Media: m}}
	}
	return cr, nil
}

// readBlock is a read request and the IR its Request points at, allocated
// together: they live and die together, and one allocation is cheaper
// than two.
type readBlock struct {
	client  listener.ClientRequest
	request ir.Request
}

// refuse turns a body's problems into its refusal: 400 for any problem
// that is not one question's own, else 422 for the first failed question.
func refuse(problems []table.Problem, root jsonvalue.Value, batch bool) error {
	t := listener.TriageProblems(problems, batch, nil)
	if len(t.Request) > 0 {
		return listener.RefuseProblems(table.SchemaVllmSR50, t.Request)
	}
	failures := t.Failures(root)
	return listener.RefuseQuestion(&failures[0], root, batch)
}

// AnswerSuccess writes the 5.0 response, batch response or decisions
// response (failed questions answered in their place).
func (Codec) AnswerSuccess(req *listener.ClientRequest, out listener.Outcome) ([]byte, error) {
	return answerer.Success(req, out)
}

// AnswerError writes the standard detail with the flat code, question,
// state, reason and limit.
func (Codec) AnswerError(_ *listener.ClientRequest, e *ir.ErrorBody) (int, []byte) {
	return answerer.Error(e)
}

// AnswerListing writes {models: [...]}.
func (Codec) AnswerListing(l *ir.Listing) ([]byte, error) { return answerer.Listing(l) }
