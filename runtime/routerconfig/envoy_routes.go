package routerconfig

import (
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	matcherv3 "github.com/envoyproxy/go-control-plane/envoy/type/matcher/v3"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/registry"
)

// EnvoyDeadlineGrace is added to a listener's max_deadline_ms to give its
// System One routes their Envoy timeout. The Router answers a request
// whose deadline passed itself, in the client's schema; Envoy's timeout (a
// 504 in Envoy's own words) is only for a replica that does not answer.
const EnvoyDeadlineGrace = time.Second

// EnvoyDefaultRouteTimeout is the timeout of a route whose listener sets
// no deadline (LLM APIs, GET /v1/models, System One without
// max_deadline_ms): the longest deadline max_deadline_ms may grant
// (600000 ms), which is also how long the Router waits for an upstream's
// response headers. Envoy's own default (15 s) would cut long LLM
// generations and long System One batches short.
const EnvoyDefaultRouteTimeout = 10 * time.Minute

// envoyRetryOn are the failures Envoy retries on another replica: those
// where the request never reached a Router, so retrying cannot run it
// twice.
const envoyRetryOn = "connect-failure,refused-stream"

// envoyRetries is how many other replicas a refused request tries.
const envoyRetries = 2

// envoyRoutes is one listener's route table, matched in order:
//  1. the paths of the APIs the listener serves (registry.APIs, a "/*"
//     path as every path below it), to the cluster, with the API's
//     timeout;
//  2. GET /v1/models, which every listener answers with its APIs' models;
//  3. the paths of every other registered API: 404 api_not_served, as the
//     Router answers them;
//  4. everything else (/metrics and /health included: Envoy checks each
//     replica's health itself): 404 unknown_path.
//
// The 404s are answered by Envoy, each body written by the listener's
// error codec, so a client gets the System One error shape of the
// listener's schema (code not_found) whichever answers. Methods are not
// matched: a served path with the wrong method reaches the Router, which
// answers 405 with Allow.
func envoyRoutes(lst *Listener, regs Registries, cluster string) (*routev3.RouteConfiguration, error) {
	codec, err := errorCodec(lst, regs)
	if err != nil {
		return nil, err
	}
	var routes []*routev3.Route
	served := map[string]bool{}
	forward := func(path string, timeout time.Duration) {
		if !served[path] {
			served[path] = true
			routes = append(routes, forwardRoute(path, cluster, timeout))
		}
	}
	for i := range lst.APIs {
		a := &lst.APIs[i]
		for _, p := range a.API.Paths {
			forward(p, routeTimeout(a))
		}
	}
	forward(vocab.PathModels, EnvoyDefaultRouteTimeout)
	for _, api := range regs.APIs.All() {
		if _, ok := lst.Serves(api.Name, regs.APIs); ok {
			continue
		}
		body := notFoundBody(codec, vocab.ReasonAPINotServed, "listener "+strconv.Quote(lst.Name)+" does not serve the "+api.Name+" API")
		for _, p := range api.Paths {
			if !served[p] {
				routes = append(routes, notFoundRoute(routeMatch(p), body))
			}
		}
	}
	everything := &routev3.RouteMatch{PathSpecifier: &routev3.RouteMatch_Prefix{Prefix: "/"}}
	routes = append(routes, notFoundRoute(everything, notFoundBody(codec, vocab.ReasonUnknownPath,
		"listener "+strconv.Quote(lst.Name)+" serves no API on this path")))
	return &routev3.RouteConfiguration{Name: lst.Name, VirtualHosts: []*routev3.VirtualHost{{
		Name:        lst.Name,
		Domains:     []string{"*"},
		Routes:      routes,
		RetryPolicy: &routev3.RetryPolicy{RetryOn: envoyRetryOn, NumRetries: wrapperspb.UInt32(envoyRetries)},
	}}}, nil
}

// routeTimeout is an API's route timeout: its max_deadline_ms plus the
// grace where the listener sets one, else the default.
func routeTimeout(a *ListenerAPI) time.Duration {
	if ms, ok := a.Setting(registry.MaxDeadlineSetting); ok {
		return time.Duration(ms)*time.Millisecond + EnvoyDeadlineGrace
	}
	return EnvoyDefaultRouteTimeout
}

// errorCodec is the codec that writes the listener's own errors, as the
// Router picks it: the listener's System One entry's, else the codec of
// the schema a System One listener speaks by default.
func errorCodec(lst *Listener, regs Registries) (listener.Codec, error) {
	if a, ok := lst.Serves(registry.SystemOne, regs.APIs); ok && a.Codec != nil {
		return a.Codec, nil
	}
	api, err := regs.APIs.Resolve(registry.SystemOne)
	if err != nil {
		return nil, err
	}
	return regs.Schemas.Listener(api.ListenerDefault)
}

// notFoundBody is the 404 the Router answers for reason, written by codec.
func notFoundBody(codec listener.Codec, reason, message string) string {
	_, body := codec.AnswerError(nil, &ir.ErrorBody{Status: http.StatusNotFound, Code: ir.ErrorNotFound,
		Reason: reason, Message: message})
	return string(body)
}

// routeMatch matches an API path as registry.API.ServesPath does: exactly,
// or, for a "/*" path, every longer path below its prefix (by regex, as a
// prefix would also take the bare "prefix/"). Envoy matches the path
// without its query string, and a regex against the whole path.
func routeMatch(path string) *routev3.RouteMatch {
	if prefix, ok := strings.CutSuffix(path, "/*"); ok {
		return &routev3.RouteMatch{PathSpecifier: &routev3.RouteMatch_SafeRegex{
			SafeRegex: &matcherv3.RegexMatcher{Regex: regexp.QuoteMeta(prefix+"/") + ".+"},
		}}
	}
	return &routev3.RouteMatch{PathSpecifier: &routev3.RouteMatch_Path{Path: path}}
}

func forwardRoute(path, cluster string, timeout time.Duration) *routev3.Route {
	return &routev3.Route{
		Match: routeMatch(path),
		Action: &routev3.Route_Route{Route: &routev3.RouteAction{
			ClusterSpecifier: &routev3.RouteAction_Cluster{Cluster: cluster},
			Timeout:          durationpb.New(timeout),
			// A System One request sends nothing back until it is answered,
			// so the stream may be idle as long as the route may take.
			IdleTimeout: durationpb.New(timeout),
		}},
	}
}

func notFoundRoute(match *routev3.RouteMatch, body string) *routev3.Route {
	return &routev3.Route{
		Match: match,
		Action: &routev3.Route_DirectResponse{DirectResponse: &routev3.DirectResponseAction{
			Status: http.StatusNotFound,
			Body:   &corev3.DataSource{Specifier: &corev3.DataSource_InlineString{InlineString: body}},
		}},
		ResponseHeadersToAdd: []*corev3.HeaderValueOption{{
			Header:       &corev3.HeaderValue{Key: strings.ToLower(vocab.HeaderContentType), Value: "application/json"},
			AppendAction: corev3.HeaderValueOption_OVERWRITE_IF_EXISTS_OR_ADD,
		}},
	}
}
