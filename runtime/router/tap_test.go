package router_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// routerTap is a recording reverse proxy in front of a runtime: it keeps
// every body sent to each path.
type routerTap struct {
	Server *httptest.Server
	mu     sync.Mutex
	bodies map[string][][]byte
}

func newRouterTap(t testing.TB, upstream string) *routerTap {
	tp := &routerTap{bodies: map[string][][]byte{}}
	tp.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		tp.mu.Lock()
		tp.bodies[r.URL.Path] = append(tp.bodies[r.URL.Path], body)
		tp.mu.Unlock()
		req, _ := http.NewRequestWithContext(r.Context(), r.Method, upstream+r.URL.Path, bytes.NewReader(body))
		req.Header = r.Header.Clone()
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadGateway)
			_, _ = io.WriteString(w, `{"detail":"tap"}`)
			return
		}
		defer resp.Body.Close()
		out, _ := io.ReadAll(resp.Body)
		for k, v := range resp.Header {
			w.Header()[k] = v
		}
		w.WriteHeader(resp.StatusCode)
		_, _ = w.Write(out)
	}))
	t.Cleanup(tp.Server.Close)
	return tp
}

// Got are the bodies sent to path, in order.
func (tp *routerTap) Got(path string) [][]byte {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	return append([][]byte(nil), tp.bodies[path]...)
}
