package main

import (
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"
)

// reverseProxyEnv, set to "<listen address> <upstream URL>", makes this
// test binary reverseProxyMain instead of running tests: the baseline
// proxy of BenchmarkRouterCost, in a process of its own.
const reverseProxyEnv = "VLLM_SR_BENCH_REVERSE_PROXY"

func TestMain(m *testing.M) {
	if spec := os.Getenv(reverseProxyEnv); spec != "" {
		reverseProxyMain(spec)
		return
	}
	os.Exit(m.Run())
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
