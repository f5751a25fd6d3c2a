package srun

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/engine"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/listener"
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
		"/metrics":                         {http.MethodGet, s.handleMetrics},
	}
}

// Handler is the server's HTTP handler. Every answer is JSON (GET
// /metrics excepted) and carries an x-typesafe-request-id header; an
// unknown path is 404 and a wrong method 405 with Allow, both with a
// detail body in the client's schema.
func (s *Server) Handler() http.Handler {
	routes := s.routes()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		id := s.ids.make()
		w.Header().Set(vocab.HeaderRequestID, id)
		rec := &statusRecorder{ResponseWriter: w}
		rt, known := routes[r.URL.Path]
		// The path is logged and counted only when it is an endpoint's: an
		// unknown path is request data.
		endpoint := "unknown"
		switch {
		case !known:
			s.writeError(rec, nil, unknownPath())
		case r.Method != rt.method:
			endpoint = r.URL.Path
			rec.Header().Set("Allow", rt.method)
			s.writeError(rec, nil, methodNotAllowed())
		default:
			endpoint = r.URL.Path
			rt.handle(rec, r)
		}
		s.metrics.countRequest(endpoint, rec.status)
		s.log.LogAttrs(r.Context(), slog.LevelInfo, "request", //vocab:not-spec log message
			slog.String("request_id", id), slog.String("method", methodWord(r.Method)),
			slog.String("endpoint", endpoint), slog.Int("status", rec.status), //vocab:not-spec slog attribute keys
			slog.Float64("duration_ms", millis(time.Since(start))))
	})
}

// work is the handler of a POST endpoint: readiness, admission, the body
// within its limit, then the pipeline (runtime/engine): the listener
// codec's reading, the model check, the model in process, the answer.
func (s *Server) work(endpoint listener.Endpoint) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		if !s.Ready() {
			s.writeError(w, nil, starting())
			return
		}
		if !s.admission.tryAcquire() {
			s.writeError(w, nil, overloaded())
			return
		}
		defer s.admission.release()
		body, refusal := listener.ReadBody(w, r, BodyLimit)
		if refusal != nil {
			s.writeError(w, nil, refusal)
			return
		}
		x, e := engine.Read(s.codec, endpoint, body, r.Header)
		if e != nil {
			s.writeError(w, nil, e)
			return
		}
		req := x.Client
		s.metrics.countRead(req)
		if e := s.checkModel(req); e != nil {
			s.writeError(w, req, e)
			return
		}
		out, e := s.answer(r.Context(), x, start)
		if e != nil {
			s.writeError(w, req, e)
			return
		}
		answer, err := s.codec.AnswerSuccess(req, out)
		if err != nil {
			s.log.LogAttrs(r.Context(), slog.LevelError, "answer not writable", slog.String("error", err.Error())) //vocab:not-spec slog attribute key
			s.writeError(w, req, unwritableAnswer())
			return
		}
		writeJSON(w, http.StatusOK, answer)
	}
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

// methodWord is the request method when it is a standard one, so a log
// line never carries an arbitrary client token.
func methodWord(m string) string {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions, http.MethodConnect, http.MethodTrace:
		return m
	}
	return "other"
}

// statusRecorder remembers the status a handler answered with.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (r *statusRecorder) WriteHeader(status int) {
	if r.status == 0 {
		r.status = status
	}
	r.ResponseWriter.WriteHeader(status)
}

func (r *statusRecorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	return r.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController and MaxBytesReader reach the
// connection underneath.
func (r *statusRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }
