package listener

import (
	"net/http"

	"github.com/vllm-sr/systemone/generated/validate"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/shapes"
	"github.com/vllm-sr/systemone/runtime/table"
)

// V50 is the vllm-sr/5.0 listener codec. It is stateless and safe for
// concurrent use. Its answers are 5.0's shapes: the response, batch
// response or decisions response (failed questions answered in their
// place); an error body with the standard detail and the flat code,
// question, state, reason and limit; the listing as {models: [...]}.
var V50 Codec = readersCodec{SchemaReaders{Schema: table.SchemaVllmSR50, Request: v50ReadRequest, Batch: decoded(v50ReadBatch)},
	shapes.AnswerWriter{}}

// v50ReadRequest reads POST /v1/systemone, the hot path, decoded into
// borrowed memory (jsonvalue.DecodeBorrowed): the IR keeps copies of the
// few containers it holds, so the rest of the document (the members read
// into IR fields) costs no allocation. The document is released whatever
// the outcome: a refusal holds strings only, and strings never live in
// the borrowed memory.
func v50ReadRequest(body []byte, header http.Header) (*ClientRequest, error) {
	doc, refusal := DecodeBorrowed(body, shapes.MaxDepth)
	if refusal != nil {
		return nil, refusal
	}
	cr, err := v50Request(doc.Root, body, header)
	doc.Release()
	return cr, err
}

// v50Request reads one request: checked by the generated validator, then
// mapped into the IR, with copies of what it keeps from the borrowed root.
func v50Request(root jsonvalue.Value, body []byte, header http.Header) (*ClientRequest, error) {
	if problems := validate.RequestVllmSR50(root); problems != nil {
		return nil, v50Refuse(problems, root, false)
	}
	// The IR is read in place into the block: no copy of the request.
	read := &readBlock{}
	rd := shapes.Reader{Borrowed: true}
	if err := rd.ReadBlock(&read.request, root, nil); err != nil {
		return nil, RefuseError(err)
	}
	r := &read.request.Request
	ApplyLongContext(&r.Options, header)
	cr := &read.client
	cr.Endpoint = EndpointSystemOne
	cr.Schema = table.SchemaVllmSR50
	cr.Request = r
	cr.Plan = PlanTranslate
	cr.Body = body
	if m, ok := ir.ReadMediaInFront(r.State, r.Assets); ok {
		cr.Media = []StateMedia{{Media: m}}
	}
	return cr, nil
}

// readBlock is a read request and the IR its Request points at (with the
// model and options the IR points at), allocated together: they live and
// die together, and one allocation is cheaper than several.
type readBlock struct {
	client  ClientRequest
	request shapes.RequestBlock
}

// v50Refuse turns a body's problems into its refusal, as the standard
// answers them with what the extension set changes: a member the schema
// does not define, or a removed 4.0 form, anywhere, is 400
// invalid_request naming it (the extension reference); any other problem
// that is not one question's own breaks the standard's schema, 422
// validation_failed with the standard's detail list; else the first failed
// question answers the request, 422 question_failed.
func v50Refuse(problems []table.Problem, root jsonvalue.Value, batch bool) error {
	t := TriageProblems(problems, batch, nil)
	var foreign, schema []table.Problem
	for _, p := range t.Request {
		if p.Reason == table.ReasonUnknownMember || p.Reason == table.ReasonRemovedForm {
			foreign = append(foreign, p)
		} else {
			schema = append(schema, p)
		}
	}
	switch {
	case len(foreign) > 0:
		return RefuseProblems(table.SchemaVllmSR50, append(foreign, schema...))
	case len(schema) > 0:
		return RefuseValidation(table.SchemaVllmSR50, schema, problems, root)
	}
	failures := t.Failures(root)
	return RefuseQuestion(&failures[0], root, batch)
}
