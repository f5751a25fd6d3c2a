package srun

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/bodylimit"
	"github.com/vllm-sr/systemone/runtime/engine"
	"github.com/vllm-sr/systemone/runtime/front"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/registry"
)

// route is one endpoint: its only method and its handler.
type route struct {
	method string
	handle http.HandlerFunc
}

// routes are every endpoint, by exact path.
func (s *Server) routes() map[string]route {
	return map[string]route{
		string(listener.EndpointSystemOne): {http.MethodPost, s.work(listener.EndpointSystemOne)},
		string(listener.EndpointBatch):     {http.MethodPost, s.work(listener.EndpointBatch)},
		string(listener.EndpointDecisions): {http.MethodPost, s.work(listener.EndpointDecisions)},
		string(listener.EndpointBundle):    {http.MethodPost, s.work(listener.EndpointBundle)},
		vocab.PathModels:                   {http.MethodGet, s.handleModels},
		vocab.PathHealth:                   {http.MethodGet, s.handleHealth},
		pathReady:                          {http.MethodGet, s.handleHealth},
		"/metrics":                         {http.MethodGet, s.serveMetrics},
	}
}

// pathReady is the readiness probe's path: on the runtime the same
// answer as GET /health, which the extension set defines as readiness.
const pathReady = "/ready"

// Handler is the server's HTTP handler. Every answer is JSON (GET
// /metrics excepted) and carries the request id headers (x-request-id,
// x-typesafe-request-id); an unknown path is 404 and a wrong method 405
// with Allow, both with a detail body in the client's schema. The front
// (front.Front) counts and logs each request.
func (s *Server) Handler() http.Handler {
	routes := s.routes()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		served, r := s.front.Begin(w, r, s.cfg.Listener)
		defer s.front.Finish(served, r)
		served.Model = s.model.Name
		rt, known := routes[r.URL.Path]
		if !known {
			// The path is counted and logged only when it is an
			// endpoint's: an unknown path is request data.
			s.writeError(served, nil, unknownPath())
			return
		}
		served.Endpoint = r.URL.Path
		switch r.URL.Path {
		case vocab.PathHealth, pathReady, "/metrics":
			served.Probe = true
		case vocab.PathModels:
		default:
			served.API = registry.SystemOne
		}
		if r.Method != rt.method {
			served.Header().Set("Allow", rt.method)
			s.writeError(served, nil, methodNotAllowed())
			return
		}
		rt.handle(served, r)
	})
}

// BodyLimit is the largest request body the server reads, in bytes, both
// as sent and after a Content-Encoding is undone: the generated body_bytes
// limit (32 MiB). listener.ReadBody reads it.
var BodyLimit = vocab.LimitBodyBytes

// work is the handler of a POST endpoint: readiness, the body within its
// limit, admission, then the pipeline (runtime/engine): the listener
// codec's reading, the model check, the model in process, the answer.
// Admission bounds the model's work only: it comes after the body is
// read and ends before the answer is written, so a client slow to send
// its body or slow to read its answer never holds a slot (the body-read
// and write deadlines bound it).
func (s *Server) work(endpoint listener.Endpoint) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		if !s.Ready() {
			s.writeError(w, nil, starting())
			return
		}
		body, refusal := listener.ReadBody(w, r, BodyLimit)
		if refusal != nil {
			s.writeError(w, nil, refusal)
			bodylimit.Linger(w, r) // an early answer: let a client still sending read it
			return
		}
		if !s.admission.TryAcquire() {
			s.writeError(w, nil, overloaded())
			return
		}
		req, answer, retryAfter, e := s.admitted(r, endpoint, body, start)
		if e != nil {
			s.writeErrorAfter(w, req, e, retryAfter)
			return
		}
		front.WriteJSON(w, http.StatusOK, answer)
	}
}

// admitted runs an admitted request through the pipeline and releases
// its admission slot once the answer (or the error) is made, before it
// is written. req is nil when the request could not be read.
// retryAfter is the delay an engine's refusal asked for (0: the server's
// own, where the error's code takes one).
func (s *Server) admitted(r *http.Request, endpoint listener.Endpoint, body []byte, start time.Time) (*listener.ClientRequest, []byte, time.Duration, *ir.ErrorBody) {
	defer s.admission.Release()
	x, e := engine.Read(s.codec, endpoint, body, r.Header)
	if e != nil {
		return nil, nil, 0, e
	}
	req := x.Client
	for kind, form := range req.CountedDiagnostics(false) {
		s.metrics.CountDiagnostic(s.cfg.Listener, kind, form)
	}
	if e := s.checkModel(req); e != nil {
		return req, nil, 0, e
	}
	out, retryAfter, e := s.answer(r.Context(), x, start)
	if e != nil {
		return req, nil, retryAfter, e
	}
	answer, err := s.codec.AnswerSuccess(req, out)
	if err != nil {
		s.log.LogAttrs(r.Context(), slog.LevelError, "answer not writable", slog.String("error", err.Error())) //vocab:not-spec slog attribute key
		return req, nil, 0, unwritableAnswer()
	}
	return req, answer, 0, nil
}

// checkModel refuses a request naming a model the server does not answer
// with. A request or batch item naming none is answered with the served
// model; an item may repeat its batch's model.
func (s *Server) checkModel(req *listener.ClientRequest) *ir.ErrorBody {
	names := make([]*string, 0, 2)
	if req.Request != nil {
		names = append(names, req.Request.Model)
	}
	if req.Batch != nil {
		names = append(names, req.Batch.Model)
		for i := range req.Batch.Items {
			names = append(names, req.Batch.Items[i].Request.Model)
		}
	}
	for _, n := range names {
		if n != nil && *n != s.model.Name {
			return modelNotFound(s.model.Name)
		}
	}
	return nil
}
