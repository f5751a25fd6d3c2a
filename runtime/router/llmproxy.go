package router

import (
	"bytes"
	"context"
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
	"github.com/vllm-sr/systemone/runtime/bodylimit"
	"github.com/vllm-sr/systemone/runtime/front"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/observe"
	"github.com/vllm-sr/systemone/runtime/routerconfig"
)

// llm forwards an LLM API request unchanged to the upstream of the same
// API that serves its model: a reverse proxy, streaming included. The
// Router's LLM protocol codecs, which translate between LLM APIs, live
// outside this module, so a model served only by an upstream of another
// API is not reachable here.
//
// Before it forwards, the rules the listener runs on the API are
// evaluated (rulestraffic.go): a rule whose answer is unknown with
// on_unknown fail answers 503 naming it, a fired block rule refuses the
// request naming it, and the first fired route rule picks the upstream
// and model; in each refusal the upstream is never called. Every rule's
// outcome goes upstream as an x-vsr-rule-<name> header.
func (h *listenerHandler) llm(w http.ResponseWriter, req *http.Request, api *routerconfig.ListenerAPI) {
	// The body is read up to the same limit as sent: the pass-through
	// forwards the client's bytes and Content-Encoding unchanged, so the
	// upstream, not the Router, undoes the coding (a compressed body names
	// no model the Router can read, and goes to the API's one upstream if
	// it has one).
	body, err := bodylimit.Read(w, req, maxBodyBytes)
	if err != nil {
		e := listener.RefuseBody(err)
		h.llmFail(w, api, llmInvalid(e.Status, e.Reason, e.Message))
		return
	}
	model := requestModel(body)
	u, ok := h.router.upstreamFor(api, model)
	if !ok {
		h.llmFail(w, api, llmNotFound("model_not_found", //vocab:not-spec OpenAI's error code
			"listener "+quote(h.lst.Name)+" has no "+api.API.Name+" upstream serving the request's model"))
		return
	}
	var results []RuleResult
	if names := h.lst.RulesFor(api); len(names) > 0 {
		v, err := h.router.runRules(req.Context(), names, api.API.Name, body)
		if err != nil {
			h.llmFail(w, api, llmInternal("rules_unavailable", "the listener's rules could not be run"))
			return
		}
		h.router.logRules(req.Context(), h.lst.Name, api.API.Name, &v)
		switch {
		case v.failed != "":
			h.llmFail(w, api, llmRuleFailed(v.failed))
			return
		case v.blocked != "":
			h.llmFail(w, api, llmBlocked(v.blocked))
			return
		case v.route != nil:
			u, model, body = h.router.applyRoute(req.Context(), api, u, v.route, model, body)
		}
		results = v.results
	}
	h.forwardLLM(w, req, api, u, model, body, results)
}

// forwardLLM sends body to u as the client sent it, with the rules'
// outcome headers and u's credentials: the upstream's key replaces the
// client's Authorization, and on a listener that takes API keys the
// client's own key (the Router's credential) never goes upstream.
func (h *listenerHandler) forwardLLM(w http.ResponseWriter, req *http.Request, api *routerconfig.ListenerAPI,
	u *routerconfig.Upstream, model string, body []byte, results []RuleResult) {
	target, err := url.Parse(strings.TrimSuffix(strings.TrimSuffix(u.Endpoint, "/"), "/v1"))
	if err != nil {
		h.llmFail(w, api, llmUpstreamFailed("bad_upstream", "the upstream's endpoint is not a URL"))
		return
	}
	front.NoteModel(req.Context(), model) // one of u's configured models (or none): not request data
	// The pass-through's client span (runtime/observe).
	call := h.router.tracing.StartLLMCall(req, api.API.Name, u.Name, target)
	proxy := &httputil.ReverseProxy{
		Transport: h.router.metrics.CountingTransport(h.router.llmBase(), api.API.Name, u.Name),
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(target)
			pr.Out.Body = io.NopCloser(bytes.NewReader(body))
			pr.Out.ContentLength = int64(len(body))
			pr.Out.Header.Set("Content-Length", strconv.Itoa(len(body)))
			setRuleHeaders(pr.Out.Header, results)
			if len(h.lst.APIKeys) > 0 {
				pr.Out.Header.Del(vocab.HeaderAuthorization)
			}
			authorize(pr.Out.Header, u.APIKey)
			observe.SetTraceHeaders(pr.Out.Header, pr.Out.Context()) // the Router's trace context, never the client's as it came
			// The call's own id (runtime/upstream), the client's request id its prefix.
			pr.Out.Header[front.HeaderXRequestID] = []string{h.router.caller.transport.NewCallID(pr.Out.Context())}
			call.Sending(pr.Out)
		},
		ModifyResponse: call.ModifyResponse(refuseRedirect), // a redirect is an upstream error, never relayed (redirects.go)
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			h.router.log.LogAttrs(r.Context(), slog.LevelWarn, "llm upstream failed",
				slog.String("listener", h.lst.Name), slog.String("upstream", u.Name), slog.String("upstream_err", err.Error()))
			reason, message := llmUpstreamFailure(err)
			call.Failed(reason)
			h.llmFail(w, api, llmUpstreamFailed(reason, message))
		},
	}
	h.router.log.LogAttrs(req.Context(), slog.LevelInfo, "llm request",
		slog.String("listener", h.lst.Name), slog.String("api", api.API.Name), slog.String("upstream", u.Name))
	proxy.ServeHTTP(w, call.Request(req))
	call.End()
}

// applyRoute is where a fired route rule sends the request: the route's
// upstream of the API (checked at load), with the body's model rewritten
// when the route names one. A body whose model cannot be rewritten goes
// as it is, to the route's upstream.
func (r *Router) applyRoute(ctx context.Context, api *routerconfig.ListenerAPI, u *routerconfig.Upstream, route *routerconfig.Route,
	model string, body []byte) (*routerconfig.Upstream, string, []byte) {
	if to := r.cfg.RouteUpstream(route, api.API.Name); to != nil {
		u = to
	}
	if route.Model == "" || route.Model == model {
		return u, model, body
	}
	rewritten, ok := withModel(body, route.Model)
	if !ok {
		r.log.LogAttrs(ctx, slog.LevelWarn, "route rule: the request's model could not be rewritten", slog.String("upstream", u.Name))
		return u, model, body
	}
	return u, route.Model, rewritten
}

// withModel is a JSON object body with its top-level model replaced by
// model, every other member kept as written and in order.
func withModel(body []byte, model string) ([]byte, bool) {
	v, err := jsonvalue.Decode(body, jsonvalue.Options{})
	if err != nil || v.Kind() != jsonvalue.KindObject {
		return nil, false
	}
	members := slices.Clone(v.Members())
	i := slices.IndexFunc(members, func(m jsonvalue.Member) bool { return m.Name == "model" }) //vocab:not-spec the LLM APIs' own member
	if i < 0 {
		return nil, false
	}
	members[i].Value = jsonvalue.String(model)
	out, ok := jsonvalue.Object(members...)
	if !ok {
		return nil, false
	}
	return jsonvalue.Compact(out), true
}

// llmFail answers an LLM request with a failure of the Router's own, in
// the API's error shape, and records its code for the access log.
func (h *listenerHandler) llmFail(w http.ResponseWriter, api *routerconfig.ListenerAPI, f llmFailure) {
	front.SetCode(w, f.Code)
	writeLLMFailure(w, api, f)
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

// llmBase is the transport the LLM pass-through sends with: the Router's
// client's.
func (r *Router) llmBase() http.RoundTripper {
	if base := r.opts.Client.Transport; base != nil {
		return base
	}
	return http.DefaultTransport
}
