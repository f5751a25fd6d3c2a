package main

import (
	"context"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/vllm-sr/systemone/runtime/front"
	"github.com/vllm-sr/systemone/runtime/router"
)

// reverseProxyEnv, set to "<listen address> <upstream URL>", makes this
// test binary reverseProxyMain instead of running tests: the baseline
// proxy of BenchmarkRouterCost, in a process of its own.
const reverseProxyEnv = "VLLM_SR_BENCH_REVERSE_PROXY"

// routerNetHTTPEnv, set to a configuration's path, makes this test binary
// routerNetHTTPMain: the Router with net/http's Transport in place of its
// own upstream connections, BenchmarkRouterCost's comparison for them.
const routerNetHTTPEnv = "VLLM_SR_BENCH_ROUTER_NETHTTP"

func TestMain(m *testing.M) {
	if spec := os.Getenv(reverseProxyEnv); spec != "" {
		reverseProxyMain(spec)
		return
	}
	if config := os.Getenv(routerNetHTTPEnv); config != "" {
		routerNetHTTPMain(config)
		return
	}
	os.Exit(m.Run())
}

// routerNetHTTPMain serves config as `vllm-sr serve` does (its logs, its
// GOGC), its System One calls carried by net/http's Transport with as
// many idle connections per host as the Router keeps, until the process
// is killed.
func routerNetHTTPMain(config string) {
	debug.SetGCPercent(serveGCPercent)
	log, logs, err := front.NewLogger(os.Stderr, "json", "info")
	if err != nil {
		os.Exit(2)
	}
	defer logs.Close()
	cfg, err := router.LoadConfig(config)
	if err != nil {
		os.Exit(2)
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64, IdleConnTimeout: 90 * time.Second}}
	run, err := router.Start(context.Background(), cfg, router.Options{Logger: log, Client: client})
	if err != nil {
		os.Exit(2)
	}
	_ = run.Wait()
	os.Exit(1)
}

// reverseProxyMain serves Go's httputil.ReverseProxy, forwarding every
// request unchanged to the upstream over kept-alive connections (as many
// idle ones per host as the Router keeps), until the process is killed.
func reverseProxyMain(spec string) {
	addr, upstream, _ := strings.Cut(spec, " ")
	target, err := url.Parse(upstream)
	if err != nil {
		os.Exit(2)
	}
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.Transport = &http.Transport{MaxIdleConnsPerHost: 64, IdleConnTimeout: 90 * time.Second}
	srv := &http.Server{Addr: addr, Handler: proxy, ReadHeaderTimeout: 10 * time.Second}
	_ = srv.ListenAndServe()
	os.Exit(1)
}
