package router

import (
	"net/http"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/registry"
	"github.com/vllm-sr/systemone/runtime/routerconfig"
	"github.com/vllm-sr/systemone/runtime/table"
)

// listenerHandler serves one listener: the APIs of its apis map, GET
// /v1/models, GET /metrics and GET /health.
type listenerHandler struct {
	router *Router
	lst    *routerconfig.Listener
	// systemone is the listener's System One entry; nil when it does not
	// serve System One.
	systemone *routerconfig.ListenerAPI
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
		h.answerError(w, h.errorAPI(), nil, &ir.ErrorBody{Status: http.StatusNotFound, Reason: vocab.ReasonUnknownPath,
			Message: "listener " + quote(h.lst.Name) + " serves no API on this path"})
		return
	}
	served, ok := h.lst.Serves(api.Name, h.router.apis)
	if !ok {
		h.answerError(w, h.errorAPI(), nil, &ir.ErrorBody{Status: http.StatusNotFound, Reason: vocab.ReasonAPINotServed,
			Message: "listener " + quote(h.lst.Name) + " does not serve the " + api.Name + " API"})
		return
	}
	if api.Kind == registry.KindDecision {
		h.systemOne(w, req, served)
		return
	}
	h.llm(w, req, served)
}

// errorAPI is the entry whose codec writes the listener's own errors: its
// System One entry, else a vllm-sr/5.0 one (the standard's detail body).
func (h *listenerHandler) errorAPI() *routerconfig.ListenerAPI {
	if h.systemone != nil {
		return h.systemone
	}
	return &routerconfig.ListenerAPI{Schema: table.SchemaVllmSR50, Codec: listener.V50}
}
