package router

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httputil"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/routerconfig"
)

// llm forwards an LLM API request unchanged to the upstream of the same
// API that serves its model: a reverse proxy, streaming included. The
// Router's LLM protocol codecs, which translate between LLM APIs, live
// outside this module, so a model served only by an upstream of another
// API is not reachable here.
func (h *listenerHandler) llm(w http.ResponseWriter, req *http.Request, api *routerconfig.ListenerAPI) {
	body, e := readLLMBody(w, req)
	if e != nil {
		writeLLMError(w, e.Status, "invalid_request_error", e.Reason, e.Message)
		return
	}
	u, ok := h.router.upstreamFor(api, requestModel(body))
	if !ok {
		writeLLMError(w, http.StatusNotFound, "invalid_request_error", "model_not_found", //vocab:not-spec OpenAI's error code
			"listener "+quote(h.lst.Name)+" has no "+api.API.Name+" upstream serving the request's model")
		return
	}
	target, err := url.Parse(strings.TrimSuffix(strings.TrimSuffix(u.Endpoint, "/"), "/v1"))
	if err != nil {
		writeLLMError(w, http.StatusBadGateway, "api_error", "bad_upstream", "the upstream's endpoint is not a URL")
		return
	}
	proxy := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(target)
			pr.Out.Body = io.NopCloser(bytes.NewReader(body))
			pr.Out.ContentLength = int64(len(body))
			pr.Out.Header.Set("Content-Length", strconv.Itoa(len(body)))
		},
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			h.router.log.LogAttrs(r.Context(), slog.LevelWarn, "llm upstream failed",
				slog.String("listener", h.lst.Name), slog.String("upstream", u.Name))
			writeLLMError(w, http.StatusBadGateway, "api_error", vocab.ReasonUpstreamUnreachable, "the upstream could not be reached")
		},
	}
	h.router.log.LogAttrs(req.Context(), slog.LevelInfo, "llm request",
		slog.String("listener", h.lst.Name), slog.String("api", api.API.Name), slog.String("upstream", u.Name))
	proxy.ServeHTTP(w, req)
}

// upstreamFor is the upstream of api's API that serves model, when the
// listener serves that model. A body without a model (a multipart images
// request) goes to the API's one upstream, if it has exactly one.
func (r *Router) upstreamFor(api *routerconfig.ListenerAPI, model string) (*routerconfig.Upstream, bool) {
	if model != "" && api.Models != nil && !slices.Contains(api.Models, model) {
		return nil, false
	}
	var of []*routerconfig.Upstream
	for i := range r.cfg.Upstreams {
		u := &r.cfg.Upstreams[i]
		if u.API != api.API.Name {
			continue
		}
		if model != "" && slices.Contains(u.Models, model) {
			return u, true
		}
		of = append(of, u)
	}
	if model == "" && len(of) == 1 {
		return of[0], true
	}
	return nil, false
}

// requestModel is a JSON body's top-level model; "" for any other body.
func requestModel(body []byte) string {
	var head struct {
		Model string `json:"model"`
	}
	if json.Unmarshal(body, &head) != nil {
		return ""
	}
	return head.Model
}

// writeLLMError writes an OpenAI-style error body.
func writeLLMError(w http.ResponseWriter, status int, typ, code, message string) {
	body, _ := json.Marshal(map[string]any{"error": map[string]string{"message": message, "type": typ, "code": code}}) //vocab:not-spec OpenAI error body keys
	writeJSON(w, status, body)
}
