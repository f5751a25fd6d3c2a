package router_test

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// faultMarker is the upstream's own words in every fault's text, header
// and page: no client body may carry it.
const faultMarker = "db7.internal.example FAULT-SECRET-7f3a"

// faultUpstream is a System One upstream that fails as a request's state
// asks: a state "fault:<name>" picks the fault (faults), any other state
// is answered with a valid noul answer for question q. A request to
// /elsewhere (where the redirects point) is counted, and must never come.
type faultUpstream struct {
	srv *httptest.Server

	mu        sync.Mutex
	elsewhere int
}

var faultName = regexp.MustCompile(`fault:([a-z0-9.-]+)`)

// ordinaryID is the id of an ordinary call's state, "id:N".
var ordinaryID = regexp.MustCompile(`"state":"id:([0-9]+)"`)

// mib is one mebibyte.
const mib = 1 << 20

func newFaultUpstream(t *testing.T) *faultUpstream {
	t.Helper()
	f := &faultUpstream{}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *faultUpstream) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	switch {
	case r.URL.Path == "/elsewhere":
		f.mu.Lock()
		f.elsewhere++
		f.mu.Unlock()
		reply(w, 200, `{"model":"d3","answers":{"q":{"type":"noul","noul":0.5}}}`)
		return
	case r.Method == http.MethodGet:
		reply(w, 200, `{"models":[{"name":"d3","description":"a faulty upstream","release_date":"2026-01-01"}]}`)
		return
	}
	if strings.HasSuffix(r.URL.Path, "/chat/completions") {
		f.chat(w, r)
		return
	}
	if id := ordinaryID.FindSubmatch(body); id != nil { // an ordinary call: its own answer (framing_upstream_test.go)
		n, _ := strconv.Atoi(string(id[1]))
		reply(w, 200, ownAnswer(n))
		return
	}
	m := faultName.FindSubmatch(body)
	if m == nil {
		reply(w, 200, `{"model":"d3","answers":{"q":{"type":"noul","noul":0.5}},"usage":{"input_tokens":1,"output_tokens":0}}`)
		return
	}
	f.fault(string(m[1]), w, r)
}

// chat is the LLM pass-through's upstream: always a redirect.
func (f *faultUpstream) chat(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Location", f.srv.URL+"/elsewhere?"+strings.ReplaceAll(faultMarker, " ", "+"))
	reply(w, http.StatusFound, `{"error":{"message":"moved to `+faultMarker+`"}}`)
}

// fault answers as the fault named name.
func (f *faultUpstream) fault(name string, w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	switch name {
	case "reset-mid":
		f.resetMid(w)
	case "slow":
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	case "slow-body":
		h.Set("Content-Length", "200")
		w.WriteHeader(200)
		_, _ = io.WriteString(w, `{"model":"d3","answers":`)
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	case "429", "429-retry":
		if name == "429-retry" {
			h.Set("Retry-After", "7")
		}
		reply(w, 429, `{"detail":"rate limited by `+faultMarker+`"}`)
	case "503", "503-retry-ms":
		if name == "503-retry-ms" {
			h.Set("Retry-After-Ms", "2500")
		}
		reply(w, 503, `{"detail":"`+faultMarker+` is down","code":"starting","reason":"starting"}`)
	case "529", "529-retry", "529-retry-long":
		switch name {
		case "529-retry":
			h.Set("Retry-After", "5")
		case "529-retry-long":
			h.Set("Retry-After", "3600")
		}
		reply(w, 529, `{"detail":"Overloaded at `+faultMarker+`"}`)
	case "500-json":
		reply(w, 500, `{"detail":"Traceback (most recent call last): File \"/srv/`+faultMarker+`/app.py\", line 7"}`)
	case "500-html":
		h.Set("Content-Type", "text/html")
		w.WriteHeader(500)
		_, _ = io.WriteString(w, `<html><body><h1>500</h1><p>`+faultMarker+`</p></body></html>`)
	case "400":
		reply(w, 400, `{"detail":{"error_type":"api_usage_error","message":"unknown model at `+faultMarker+`"}}`)
	case "422":
		reply(w, 422, `{"detail":[{"loc":["body","questions","q","criteria"],"msg":"`+faultMarker+`","type":"too_short"}]}`)
	case "401":
		reply(w, 401, `{"detail":"bad key for `+faultMarker+`"}`)
	case "404":
		reply(w, 404, `{"detail":"no model at `+faultMarker+`"}`)
	case "302", "307":
		status, _ := strconv.Atoi(name)
		h.Set("Location", f.srv.URL+"/elsewhere")
		reply(w, status, `{"detail":"moved to `+faultMarker+`"}`)
	case "big-length", "big-chunked":
		f.big(name, w)
	default:
		body, ok := faultBodies[name]
		if !ok {
			reply(w, 500, `{"detail":"no such fault"}`)
			return
		}
		reply(w, 200, body)
	}
}

// faultBodies are 200 replies that break the schema.
var faultBodies = map[string]string{
	"invalid-json":   `{"model":"d3","answers":{"q":{"type":"noul","noul":0.5}}` + faultMarker,
	"truncated-json": `{"model":"d3","answers":{"q":{"type":"noul","no`,
	"nested-json":    `{"model":"d3","answers":{"q":` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + `}}`,
	"wrong-member":   `{"model":"d3","answerz":{"q":{"type":"noul","noul":0.5}},"detail":"` + faultMarker + `"}`,
	"wrong-question": `{"model":"d3","answers":{"` + "elsewhere" + `":{"type":"noul","noul":0.5}}` + faultUsage + `}`,
	"wrong-type":     `{"model":"d3","answers":{"q":{"type":"noul","noul":"` + faultMarker + `"}}` + faultUsage + `}`,
	"wrong-usage":    `{"model":"d3","answers":{"q":{"type":"noul","noul":0.5}},"usage":{"input_tokens":"` + faultMarker + `"}}`,
	"no-usage":       `{"model":"d3","answers":{"q":{"type":"noul","noul":0.5}}}`,
	"noul-7.5":       `{"model":"d3","answers":{"q":{"type":"noul","noul":7.5}}` + faultUsage + `}`,
	"not-an-option": `{"model":"d3","answers":{"team":{"type":"choice","choice":"` + faultMarker + `",` +
		`"probabilities":{"billing":0.5,"tech":0.5},"confidence":0.1}}` + faultUsage + `}`,
}

// faultUsage completes a fault body the standard's way, so that the fault
// is the answer's alone.
const faultUsage = `,"usage":{"input_tokens":1,"output_tokens":0}`

// resetMid sends the reply's head and part of its body, then resets the
// connection.
func (f *faultUpstream) resetMid(w http.ResponseWriter) {
	conn, buf, err := w.(http.Hijacker).Hijack()
	if err != nil {
		return
	}
	_, _ = buf.WriteString("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n" +
		`{"model":"d3","answers":{"q":{"type":"noul",` + faultMarker)
	_ = buf.Flush()
	time.Sleep(20 * time.Millisecond) // let the head arrive before the reset
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.SetLinger(0)
	}
	_ = conn.Close()
}

// big writes a 100 MiB reply, in 1 MiB writes, until the Router stops
// reading; big-length declares its length up front, big-chunked does not.
// (How much of it the Router read is counted on the Router's side,
// faultEnv.read.)
func (f *faultUpstream) big(name string, w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json")
	if name == "big-length" {
		w.Header().Set("Content-Length", strconv.Itoa(100*mib))
	}
	w.WriteHeader(200)
	chunk := bytes.Repeat([]byte(" "), mib)
	for range 100 {
		if _, err := w.Write(chunk); err != nil {
			return
		}
	}
}

func (f *faultUpstream) redirectsFollowed() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.elsewhere
}

func reply(w http.ResponseWriter, status int, body string) {
	if w.Header().Get("Content-Type") == "" {
		w.Header().Set("Content-Type", "application/json")
	}
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body)
}

// resetListener accepts connections, reads what the client sends, and
// resets each connection before any reply: a raw TCP fault.
func resetListener(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	t.Cleanup(func() { _ = ln.Close(); wg.Wait() })
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				_ = conn.SetReadDeadline(time.Now().Add(2 * time.Second))
				_, _ = conn.Read(make([]byte, 64<<10))
				_ = conn.(*net.TCPConn).SetLinger(0)
				_ = conn.Close()
			}()
		}
	}()
	return ln.Addr().String()
}

// refusedAddr is a loopback address nothing listens on.
func refusedAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	return addr
}
