package listener

import (
	"net/http"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/shapes"
	"github.com/vllm-sr/systemone/runtime/table"
)

// Endpoint is a System One path a listener serves.
type Endpoint string

const (
	EndpointSystemOne Endpoint = vocab.PathSystemone
	EndpointBatch     Endpoint = vocab.PathSystemoneBatch
	EndpointDecisions Endpoint = vocab.PathDecisions
	EndpointBundle    Endpoint = vocab.PathBundle
)

// PlanKind is how a listener sends a request on.
type PlanKind string

const (
	// PlanPassThrough: the internal form reads the request as it is, so it
	// goes on with the client's own bytes.
	PlanPassThrough PlanKind = "pass_through"
	// PlanTranslate: the request is written from the IR in the internal form.
	PlanTranslate PlanKind = "translate"
)

// ClientRequest is one client request read into the IR, with its plan.
// Exactly one of Request and Batch is set: Batch for the batch endpoint
// and the bundle, Request otherwise (a vllm-sr/4.0 states request is a
// Request with States).
type ClientRequest struct {
	Endpoint Endpoint
	Schema   table.SchemaID
	Request  *ir.Request
	Batch    *ir.Batch
	Plan     PlanKind
	// Diagnostics record the legacy forms and overlaps the request used, as
	// data for the per-listener counters.
	Diagnostics ir.Diagnostics
	// Body is the client's bytes, kept for a pass-through plan.
	Body []byte
	// QuestionFailures are the questions that failed on their own while
	// reading (on /v1/decisions), in request order: they are not in the IR,
	// and AnswerSuccess answers them in their place with their error.
	QuestionFailures []QuestionFailure
	// Media are vllm-sr/5.0's media readings of array states, one per
	// request (or batch item) whose state has that shape.
	Media []StateMedia
}

// Outcome is what a server answers a request with: a Response for one
// request (on /v1/decisions its failed questions carry their errors), or a
// BatchResponse for a batch, a bundle and a vllm-sr/4.0 states request.
type Outcome struct {
	Response *ir.Response
	Batch    *ir.BatchResponse
}

// Refusal is the error Read returns for a request the schema refuses: the
// status and body to answer with. Its text never carries request values.
type Refusal struct {
	Body ir.ErrorBody
}

func (r *Refusal) Error() string { return string(r.Body.Code) + ": " + r.Body.Message }

// Codec is one listener schema's codec.
type Codec interface {
	// Schema is the schema ID the codec speaks to clients.
	Schema() table.SchemaID
	// Read reads a client's request body sent to path into the IR and its
	// plan. A refused request returns a *Refusal.
	Read(path Endpoint, body []byte, header http.Header) (*ClientRequest, error)
	// AnswerSuccess writes a success in the client's schema.
	AnswerSuccess(req *ClientRequest, out Outcome) ([]byte, error)
	// AnswerError writes an error in the client's schema; req is nil when
	// the request could not be read.
	AnswerError(req *ClientRequest, e *ir.ErrorBody) (status int, body []byte)
	// AnswerListing writes GET /v1/models in the client's schema.
	AnswerListing(l *ir.Listing) ([]byte, error)
}

// SchemaReaders are one listener schema's readers of its own endpoints.
// Every listener codec reads the native endpoints (decisions, bundles)
// the same way, so Read routes those here and only these two vary.
type SchemaReaders struct {
	Schema  table.SchemaID
	Request BodyReader // POST /v1/systemone
	Batch   BodyReader // POST /v1/systemone/batch
}

// BodyReader reads a client's body (its bytes, kept for a pass-through
// plan) and header into the IR and its plan.
type BodyReader func(body []byte, header http.Header) (*ClientRequest, error)

// Read routes a client's body by the path it was sent to: the schema's
// own readers, the native readers, or a refusal naming the schema for a
// path it does not serve.
func (s SchemaReaders) Read(path Endpoint, body []byte, header http.Header) (*ClientRequest, error) {
	switch path {
	case EndpointSystemOne:
		return s.Request(body, header)
	case EndpointBatch:
		return s.Batch(body, header)
	case EndpointDecisions:
		return ReadDecisions(s.Schema, body, header)
	case EndpointBundle:
		return ReadBundle(s.Schema, body, header)
	}
	return nil, RefuseEndpoint(s.Schema)
}

// readersCodec is a listener codec made of its schema's readers and its
// answer shapes, written through their one binding,
// shapes.AnswerWriter (with Legacy, vllm-sr/4.0's): AnswerSuccess
// (answers.go) picks the shape that answers the request's kind.
type readersCodec struct {
	SchemaReaders
	answers shapes.AnswerWriter
}

func (c readersCodec) Schema() table.SchemaID { return c.SchemaReaders.Schema }

func (c readersCodec) AnswerError(_ *ClientRequest, e *ir.ErrorBody) (int, []byte) {
	return c.answers.Error(e)
}

func (c readersCodec) AnswerListing(l *ir.Listing) ([]byte, error) { return c.answers.Listing(l) }

// AnswerHealth writes a GET /health body through its binding
// (shapes.AnswerWriter.Health). GET /health is vllm-sr/5.0's endpoint,
// answered in its form whatever a listener's schema: a model runtime and
// a Router write the same shape.
func AnswerHealth(h *ir.Health) []byte { return shapes.AnswerWriter{}.Health(h) }

// decoded is the BodyReader of read, which reads the body decoded into
// root (at most shapes.MaxDepth deep).
func decoded(read func(root jsonvalue.Value, body []byte, header http.Header) (*ClientRequest, error)) BodyReader {
	return func(body []byte, header http.Header) (*ClientRequest, error) {
		root, refusal := Decode(body, shapes.MaxDepth)
		if refusal != nil {
			return nil, refusal
		}
		return read(root, body, header)
	}
}
