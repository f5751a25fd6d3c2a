package router

import (
	"net/http"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/registry"
	"github.com/vllm-sr/systemone/runtime/routerconfig"
)

// listenerHandler serves one listener: the APIs of its apis map, GET
// /v1/models, GET /metrics and GET /health.
type listenerHandler struct {
	router *Router
	lst    *routerconfig.Listener
	// systemone is the listener's System One entry; nil when it does not
	// serve System One.
	systemone *routerconfig.ListenerAPI
	// errors is the entry whose codec writes the listener's own errors:
	// systemone, else the Router's default System One entry.
	errors *routerconfig.ListenerAPI
}

func (h *listenerHandler) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	path := req.URL.Path
	switch path {
	case "/metrics":
		w.Header().Set(vocab.HeaderContentType, "text/plain; version=0.0.4")
		_, _ = w.Write(h.router.metrics.Exposition())
		return
	case vocab.PathHealth:
		writeJSON(w, http.StatusOK, []byte(`{"status":"ok"}`))
		return
	case vocab.PathModels:
		h.models(w, req)
		return
	}
	api, known := h.router.apis.ByPath(path)
	if !known {
		h.answerError(w, h.errors, nil, &ir.ErrorBody{Status: http.StatusNotFound, Reason: vocab.ReasonUnknownPath,
			Message: "listener " + quote(h.lst.Name) + " serves no API on this path"})
		return
	}
	served, ok := h.lst.Serves(api.Name, h.router.apis)
	if !ok {
		h.answerError(w, h.errors, nil, &ir.ErrorBody{Status: http.StatusNotFound, Reason: vocab.ReasonAPINotServed,
			Message: "listener " + quote(h.lst.Name) + " does not serve the " + api.Name + " API"})
		return
	}
	if api.Kind == registry.KindDecision {
		h.systemOne(w, req, served)
		return
	}
	h.llm(w, req, served)
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
