package router

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/bodylimit"
	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/llmproxy"
	"github.com/vllm-sr/systemone/runtime/routerconfig"
	"github.com/vllm-sr/systemone/runtime/rules"
)

// llm forwards an LLM API request unchanged to the upstream of the same
// API that serves its model: a reverse proxy, streaming included. The
// Router's LLM protocol codecs, which translate between LLM APIs, live
// outside this module, so a model served only by an upstream of another
// API is not reachable here.
//
// Before it forwards, the rules the listener runs on the API are
// evaluated (runtime/rules): a rule whose answer is unknown with
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
		llmproxy.Fail(w, api, llmproxy.Invalid(e.Status, e.Reason, e.Message))
		return
	}
	model := llmproxy.RequestModel(body)
	u, ok := llmproxy.UpstreamFor(h.router.cfg, api, model)
	if !ok {
		llmproxy.Fail(w, api, llmproxy.NotFound("model_not_found", //vocab:not-spec OpenAI's error code
			"listener "+quote(h.lst.Name)+" has no "+api.API.Name+" upstream serving the request's model"))
		return
	}
	var results []rules.Result
	if names := h.lst.RulesFor(api); len(names) > 0 {
		v, err := h.router.rules.Run(req.Context(), names, api.API.Name, body)
		if err != nil {
			llmproxy.Fail(w, api, llmproxy.Internal("rules_unavailable", "the listener's rules could not be run"))
			return
		}
		h.router.rules.LogVerdict(req.Context(), h.lst.Name, api.API.Name, &v)
		switch {
		case v.Failed != "":
			llmproxy.Fail(w, api, llmproxy.RuleFailed(v.Failed))
			return
		case v.Blocked != "":
			llmproxy.Fail(w, api, llmproxy.Blocked(v.Blocked))
			return
		case v.Route != nil:
			u, model, body = h.router.applyRoute(req.Context(), api, u, v.Route, model, body)
		}
		results = v.Results
	}
	h.forwardLLM(w, req, api, u, model, body, results)
}

// forwardLLM sends body to u as the client sent it (runtime/llmproxy),
// with the rules' outcome headers and u's credentials: the upstream's key
// replaces the client's Authorization, and on a listener that takes API
// keys the client's own key (the Router's credential) never goes
// upstream.
func (h *listenerHandler) forwardLLM(w http.ResponseWriter, req *http.Request, api *routerconfig.ListenerAPI,
	u *routerconfig.Upstream, model string, body []byte, results []rules.Result) {
	r := h.router
	proxy := llmproxy.Proxy{Log: r.log, Metrics: r.metrics.Metrics, Tracing: r.tracing, Base: r.llmBase(), CallID: r.caller.transport.NewCallID}
	proxy.Forward(w, req, &llmproxy.Pass{API: api, Listener: h.lst.Name, Upstream: u, Model: model, Body: body,
		Headers: func(out http.Header) {
			rules.SetHeaders(out, results)
			if len(h.lst.APIKeys) > 0 {
				out.Del(vocab.HeaderAuthorization)
			}
			authorize(out, u.APIKey)
		}})
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
	rewritten, ok := llmproxy.WithModel(body, route.Model)
	if !ok {
		r.log.LogAttrs(ctx, slog.LevelWarn, "route rule: the request's model could not be rewritten", slog.String("upstream", u.Name))
		return u, model, body
	}
	return u, route.Model, rewritten
}

// llmBase is the transport the LLM pass-through sends with: the Router's
// client's.
func (r *Router) llmBase() http.RoundTripper {
	if base := r.opts.Client.Transport; base != nil {
		return base
	}
	return http.DefaultTransport
}
