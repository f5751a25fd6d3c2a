package router

import (
	"net/http"
	"slices"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/front"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/observe"
	"github.com/vllm-sr/systemone/runtime/registry"
	"github.com/vllm-sr/systemone/runtime/routerconfig"
)

// listenerHandler serves one listener: the APIs of its apis map, GET
// /v1/models, GET /metrics, GET /health (liveness) and GET /ready
// (readiness).
type listenerHandler struct {
	router *Router
	lst    *routerconfig.Listener
	// systemone is the listener's System One entry; nil when it does not
	// serve System One.
	systemone *routerconfig.ListenerAPI
	// errors is the entry whose codec writes the listener's own errors:
	// systemone, else the Router's default System One entry.
	errors *routerconfig.ListenerAPI
	// inFlight bounds the requests the listener serves at once
	// (max_in_flight; overload.go); nil on the admin address, which
	// serves only the probes.
	inFlight *front.Admission
}

// pathReady is the readiness probe's path, beside the standard's /health.
const pathReady = "/ready"

// extensionVersion is the vllm-sr extension set the Router answers with,
// which GET /health reports as vllm-srun's does (the 5.0 Health schema
// requires it).
const extensionVersion = "5.0"

// routerHealth is the body of the Router's GET /health (liveness),
// written once through the health binding: status ok and the extension
// set version, and no api_version, model or schema, which a model
// runtime reports (a Router is not one).
var routerHealth = listener.AnswerHealth(&ir.Health{Status: "ok", Version: extensionVersion})

// ServeHTTP serves one request through the Router's front (request id,
// deadlines, metrics, access log) in its trace (runtime/observe).
func (h *listenerHandler) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	served, req := h.router.front.Begin(w, req, h.lst.Name)
	defer h.router.front.Finish(served, req)
	req, sp := observe.TraceRequest(h.router.tracing, req, served, slices.Contains(adminPaths, req.URL.Path))
	defer observe.EndRequest(sp, req, served)
	h.serve(served, req)
}

func (h *listenerHandler) serve(w *front.Served, req *http.Request) {
	if !h.admit(w, req) { // API keys and the admin address (auth.go)
		return
	}
	path := req.URL.Path
	if h.inFlight != nil && bounded(path) { // before the body is read (overload.go)
		if !h.inFlight.TryAcquire() {
			h.answerOverloaded(w, req)
			return
		}
		defer h.inFlight.Release()
	}
	switch path {
	case "/metrics":
		w.Endpoint, w.Probe = path, true
		h.router.metrics.Handler().ServeHTTP(w, req)
		return
	case vocab.PathHealth:
		w.Endpoint, w.Probe = path, true
		front.WriteJSON(w, http.StatusOK, routerHealth)
		return
	case pathReady:
		w.Endpoint, w.Probe = path, true
		ready, body := h.router.readiness()
		status := http.StatusOK
		if !ready {
			status = http.StatusServiceUnavailable
		}
		front.WriteJSON(w, status, body)
		return
	case vocab.PathModels:
		w.Endpoint = path
		h.models(w, req)
		return
	}
	api, kind, known := h.router.apis.ByPath(path)
	if !known {
		h.answerError(w, h.errors, nil, listener.ErrorOf(ir.ErrorNotFound, vocab.ReasonUnknownPath, "listener "+quote(h.lst.Name)+" serves no API on this path"))
		return
	}
	w.Endpoint, w.API = path, api // a registry path: not request data
	served, ok := h.lst.Serves(api, h.router.apis)
	if !ok {
		h.answerError(w, h.errors, nil, listener.ErrorOf(ir.ErrorNotFound, vocab.ReasonAPINotServed,
			"listener "+quote(h.lst.Name)+" does not serve the "+api+" API"))
		return
	}
	switch {
	case kind == registry.KindDecision && path == vocab.PathSystemoneModels:
		h.systemOneModels(w, req, served)
	case kind == registry.KindDecision:
		h.systemOne(w, req, served)
	default:
		h.llm(w, req, served)
	}
}

// defaultSystemOne is a System One entry in the schema a System One
// listener speaks by default (vllm-sr/5.0, whose error body is the
// standard's detail), its codec looked up in the schema registry: what
// writes the errors of a listener that serves no System One, and `vllm-sr
// decide`'s responses.
func defaultSystemOne(apis *registry.APIs, schemas *registry.Schemas) (*routerconfig.ListenerAPI, error) {
	api, err := apis.Resolve(registry.SystemOne)
	if err != nil {
		return nil, err
	}
	codec, err := schemas.Listener(api.ListenerDefault)
	if err != nil {
		return nil, err
	}
	return &routerconfig.ListenerAPI{API: api, Schema: api.ListenerDefault, Codec: codec}, nil
}
