package srun_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/srun"
	"github.com/vllm-sr/systemone/runtime/testkit"
)

// The conformance suite talks to a real server over loopback HTTP, started
// with srun.Start: the code path `vllm-srun serve` runs.

const (
	fast     = "vllm-sr/vela3-fast"
	decision = "vllm-sr/decision1"
)

// testServer is one server started for a test, stopped when it ends.
type testServer struct {
	t    *testing.T
	run  *srun.Running
	url  string
	addr string // host:port
	logs *testkit.LogBuffer
	// stop asks the server to shut down, as SIGTERM does.
	stop context.CancelFunc
}

// start starts a server for cfg (Model defaults to vela3-fast, Addr to a
// free loopback port) and waits until it is ready.
func start(t *testing.T, cfg srun.Config) *testServer {
	t.Helper()
	s := startNotReady(t, cfg)
	s.waitReady()
	return s
}

// tryStart is start for a server that may fail to start, reporting why.
func tryStart(t *testing.T, cfg srun.Config) (*testServer, error) {
	t.Helper()
	s := startNotReady(t, cfg)
	return s, s.ready()
}

// startNotReady starts a server and returns at once, before the self-test.
func startNotReady(t *testing.T, cfg srun.Config) *testServer {
	t.Helper()
	if cfg.Model == "" {
		cfg.Model = fast
	}
	if cfg.Addr == "" {
		cfg.Addr = "127.0.0.1:0"
	}
	logs := &testkit.LogBuffer{}
	cfg.Logger = slog.New(slog.NewJSONHandler(logs, nil))
	ctx, cancel := context.WithCancel(context.Background())
	run, err := srun.Start(ctx, cfg)
	if err != nil {
		cancel()
		t.Fatalf("start: %v", err)
	}
	t.Cleanup(func() {
		cancel()
		select {
		case <-run.Done():
		case <-time.After(15 * time.Second):
			t.Error("the server did not stop within 15s")
		}
	})
	return &testServer{t: t, run: run, url: run.URL(), addr: strings.TrimPrefix(run.URL(), "http://"), logs: logs, stop: cancel}
}

// waitReady waits, at most 10 s, until the server passed its self-test.
func (s *testServer) waitReady() {
	s.t.Helper()
	if err := s.ready(); err != nil {
		s.t.Fatal(err)
	}
}

// ready waits, at most 10 s, until the server passed its self-test, and
// reports why it did not.
func (s *testServer) ready() error { return s.run.WaitReady(10 * time.Second) }

// reply is one HTTP answer.
type reply struct {
	status int
	header http.Header
	body   []byte
	json   map[string]any
}

var client = &http.Client{Timeout: 20 * time.Second}

func (s *testServer) get(path string) *reply {
	s.t.Helper()
	return s.do(http.MethodGet, path, nil, nil)
}

func (s *testServer) post(path, body string, header ...string) *reply {
	s.t.Helper()
	h := http.Header{"Content-Type": {"application/json"}}
	for i := 0; i+1 < len(header); i += 2 {
		h.Set(header[i], header[i+1])
	}
	return s.do(http.MethodPost, path, []byte(body), h)
}

func (s *testServer) do(method, path string, body []byte, header http.Header) *reply {
	s.t.Helper()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequest(method, s.url+path, rd)
	if err != nil {
		s.t.Fatal(err)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := client.Do(req)
	if err != nil {
		s.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	return readReply(s.t, resp)
}

func readReply(t *testing.T, resp *http.Response) *reply {
	t.Helper()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("reading the body: %v", err)
	}
	r := &reply{status: resp.StatusCode, header: resp.Header, body: raw}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		if err := json.Unmarshal(raw, &r.json); err != nil {
			t.Fatalf("the body is not a JSON object: %v\n%s", err, raw)
		}
	}
	return r
}

var requestID = regexp.MustCompile(`^req_[0-9a-f]{32}$`)

// want checks the status and what every answer carries: a JSON
// content-type and a well-formed x-typesafe-request-id.
func (r *reply) want(t *testing.T, status int) *reply {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d; body %s", r.status, status, r.body)
	}
	if ct := r.header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("content-type %q, want application/json", ct)
	}
	if id := r.header.Get("X-Typesafe-Request-Id"); !requestID.MatchString(id) {
		t.Errorf("x-typesafe-request-id %q does not match %s", id, requestID)
	}
	return r
}

// at returns the member at a path of object keys and array indexes, or
// nil when there is none.
func (r *reply) at(path ...any) any {
	var cur any = r.json
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, ok := cur.(map[string]any)
			if !ok {
				return nil
			}
			cur = m[k]
		case int:
			a, ok := cur.([]any)
			if !ok || k >= len(a) {
				return nil
			}
			cur = a[k]
		}
	}
	return cur
}

func (r *reply) str(path ...any) string {
	s, _ := r.at(path...).(string)
	return s
}

func (r *reply) num(path ...any) float64 {
	f, _ := r.at(path...).(float64)
	return f
}

// wantError checks an error answer: its status, its flat code and reason,
// and that its detail is present.
func (r *reply) wantError(t *testing.T, status int, code string) *reply {
	t.Helper()
	r.want(t, status)
	if got := r.str("code"); got != code {
		t.Errorf("code %q, want %q; body %s", got, code, r.body)
	}
	if r.at("detail") == nil {
		t.Errorf("no detail in %s", r.body)
	}
	if r.str("reason") == "" {
		t.Errorf("no reason in %s", r.body)
	}
	return r
}

// jsonKeys returns the member names of the object at key of body, in the
// order written.
func jsonKeys(t *testing.T, body []byte, key string) []string {
	t.Helper()
	v, err := jsonvalue.Decode(body, jsonvalue.Options{})
	if err != nil {
		t.Fatal(err)
	}
	obj, _ := v.Get(key)
	var names []string
	for _, m := range obj.Members() {
		names = append(names, m.Name)
	}
	return names
}
