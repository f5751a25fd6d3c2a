package llmproxy

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

	"github.com/vllm-sr/systemone/runtime/front"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/observe"
	"github.com/vllm-sr/systemone/runtime/routerconfig"
)

// Proxy forwards LLM API requests to their upstreams: what a Router
// passes through. A zero Tracing is tracing off.
type Proxy struct {
	Log     *slog.Logger
	Metrics *observe.Metrics
	Tracing *observe.Tracing
	// Base is the transport requests are sent with (counted as upstream
	// calls, Metrics.CountingTransport); CallID numbers each request's
	// call id, the client's request id its prefix.
	Base   http.RoundTripper
	CallID func(ctx context.Context) string
}

// Pass is one LLM request to forward.
type Pass struct {
	API *routerconfig.ListenerAPI
	// Listener names the listener, for the log.
	Listener string
	Upstream *routerconfig.Upstream
	Model    string
	Body     []byte
	// Headers sets the Router's headers on the request that goes, the
	// client's as a copy: the rules' outcomes and the upstream's
	// credentials (the client's own key, the Router's credential, never
	// goes upstream).
	Headers func(http.Header)
}

// Forward sends p's body to its upstream as the client sent it: a reverse
// proxy, streaming included, with the Router's headers (p.Headers). The
// Router's trace context and the call's own X-Request-Id go with it; a
// redirect is an upstream failure, never relayed; a failure is answered
// in the API's error shape with the upstream's words only in the log.
func (x Proxy) Forward(w http.ResponseWriter, req *http.Request, p *Pass) {
	api, u, body := p.API, p.Upstream, p.Body
	target, err := url.Parse(strings.TrimSuffix(strings.TrimSuffix(u.Endpoint, "/"), "/v1"))
	if err != nil {
		Fail(w, api, UpstreamFailed("bad_upstream", "the upstream's endpoint is not a URL"))
		return
	}
	front.NoteModel(req.Context(), p.Model) // one of u's configured models (or none): not request data
	call := x.Tracing.StartLLMCall(req, api.API.Name, u.Name, target)
	proxy := &httputil.ReverseProxy{
		Transport: x.Metrics.CountingTransport(x.Base, api.API.Name, u.Name),
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(target)
			pr.Out.Body = io.NopCloser(bytes.NewReader(body))
			pr.Out.ContentLength = int64(len(body))
			pr.Out.Header.Set("Content-Length", strconv.Itoa(len(body)))
			p.Headers(pr.Out.Header)
			observe.SetTraceHeaders(pr.Out.Header, pr.Out.Context()) // the Router's trace context, never the client's as it came
			pr.Out.Header[front.HeaderXRequestID] = []string{x.CallID(pr.Out.Context())}
			call.Sending(pr.Out)
		},
		ModifyResponse: call.ModifyResponse(refuseRedirect), // a redirect is an upstream error, never relayed (redirects.go)
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			x.Log.LogAttrs(r.Context(), slog.LevelWarn, "llm upstream failed",
				slog.String("listener", p.Listener), slog.String("upstream", u.Name), slog.String("upstream_err", err.Error()))
			reason, message := upstreamFailure(err)
			call.Failed(reason)
			Fail(w, api, UpstreamFailed(reason, message))
		},
	}
	x.Log.LogAttrs(req.Context(), slog.LevelInfo, "llm request",
		slog.String("listener", p.Listener), slog.String("api", api.API.Name), slog.String("upstream", u.Name))
	proxy.ServeHTTP(w, call.Request(req))
	call.End()
}

// Fail answers an LLM request with a failure of the Router's own, in the
// API's error shape, and records its code for the access log.
func Fail(w http.ResponseWriter, api *routerconfig.ListenerAPI, f Failure) {
	front.SetCode(w, f.Code)
	WriteFailure(w, api, f)
}

// UpstreamFor is the upstream of api's API in cfg that serves model, when
// the listener serves that model. A body without a model (a multipart
// images request) goes to the API's one upstream, if it has exactly one.
func UpstreamFor(cfg *routerconfig.Config, api *routerconfig.ListenerAPI, model string) (*routerconfig.Upstream, bool) {
	if model != "" && api.Models != nil && !slices.Contains(api.Models, model) {
		return nil, false
	}
	var of []*routerconfig.Upstream
	for i := range cfg.Upstreams {
		u := &cfg.Upstreams[i]
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

// RequestModel is a JSON body's top-level model; "" for any other body.
func RequestModel(body []byte) string {
	var head struct {
		Model string `json:"model"`
	}
	if json.Unmarshal(body, &head) != nil {
		return ""
	}
	return head.Model
}

// WithModel is a JSON object body with its top-level model replaced by
// model, every other member kept as written and in order.
func WithModel(body []byte, model string) ([]byte, bool) {
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
