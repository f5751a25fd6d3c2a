package router_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vllm-sr/systemone/runtime/router"
)

// collectorDir is the OpenTelemetry Collector the tracing test exports to:
// a main of its own assembled from the collector's published parts (the
// OTLP receiver, contrib's file exporter), in a module of its own whose
// go.sum pins every version.
const collectorDir = "testdata/otelcol"

// The Router exports its spans over OTLP/HTTP to a real OpenTelemetry
// Collector, built from testdata/otelcol and started on a loopback port:
// the collector's file exporter writes the Router's server span under
// the client's span, with the trace id the client sent, its listener
// read, plan, answer and upstream call spans below it, the call's span
// being the parent the upstream received; the LLM pass-through's too;
// and nothing of the requests' data.
func TestTracingCollector(t *testing.T) {
	bin := buildCollector(t)
	spansFile, stopCollector, endpoint := startCollector(t, bin)
	up := newTraceUpstream(t)
	tr := startTraceRouter(t, up, "tracing:\n  otlp_endpoint: "+endpoint+"\n", router.Options{})
	tr.send(t, "/v1/systemone", traceSystemOne, clientTraceparent, clientTracestate)
	systemOne := up.last(t, "/v1/systemone")
	tr.send(t, "/v1/chat/completions", traceChat, clientTraceparent, clientTracestate)
	chat := up.last(t, "/v1/chat/completions")
	tr.stop()       // exports the queued spans to the collector
	stopCollector() // which writes what it received before it exits

	written, err := os.ReadFile(spansFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{"TRACE-SECRET", traceClientKey, traceUpstreamKey} {
		if bytes.Contains(written, []byte(secret)) {
			t.Errorf("the exported spans carry request data %q", secret)
		}
	}
	got := readOTLPFile(t, written)
	server := got.one(t, "POST /v1/systemone", clientSpanID, otlpKindServer)
	if server.TraceID != clientTraceID || server.service != "vllm-sr" {
		t.Errorf("the request's span: trace %s, service %q; want the client's trace %s, vllm-sr", server.TraceID, server.service, clientTraceID)
	}
	for _, name := range []string{"listener read", "plan", "answer"} {
		got.one(t, name, server.SpanID, otlpKindInternal)
	}
	call := got.one(t, "POST /v1/systemone", server.SpanID, otlpKindClient)
	if parent := checkPassedOn(t, systemOne, "01"); parent != call.SpanID || call.attr("vsr.deployment") != "std" || call.attr("url.path") != "/v1/systemone" {
		t.Errorf("the call went upstream with parent %s; its span is %s with %v", parent, call.SpanID, call.Attributes)
	}
	llmServer := got.one(t, "POST /v1/chat/completions", clientSpanID, otlpKindServer)
	llm := got.one(t, "POST /v1/chat/completions", llmServer.SpanID, otlpKindClient)
	if parent := checkPassedOn(t, chat, "01"); parent != llm.SpanID || llm.attr("vsr.upstream") != "chat" {
		t.Errorf("the pass-through went upstream with parent %s; its span is %s with %v", parent, llm.SpanID, llm.Attributes)
	}
}

// buildCollector builds the collector of collectorDir once per content of
// its module and Go version, into a directory of the system's temporary
// one that later runs reuse; it skips when no go tool is on PATH.
func buildCollector(t *testing.T) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool on PATH to build the OpenTelemetry Collector with")
	}
	h := sha256.New()
	h.Write([]byte(runtime.Version()))
	for _, name := range []string{"go.mod", "go.sum", "main.go"} {
		b, err := os.ReadFile(filepath.Join(collectorDir, name))
		if err != nil {
			t.Fatal(err)
		}
		h.Write(b)
	}
	dir := filepath.Join(os.TempDir(), "vllm-sr-otelcol-"+hex.EncodeToString(h.Sum(nil))[:16])
	bin := filepath.Join(dir, "otelcol")
	if fi, err := os.Stat(bin); err == nil && fi.Mode().IsRegular() {
		return bin
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	// Built under a name of its own, then renamed: a concurrent run never
	// starts a binary half written.
	tmp := bin + "." + rand.Text()
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, goTool, "build", "-buildvcs=false", "-mod=readonly", "-o", tmp, ".")
	cmd.Dir = collectorDir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=")
	start := time.Now()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", collectorDir, err, out)
	}
	t.Logf("built the OpenTelemetry Collector in %s", time.Since(start).Round(time.Second))
	if err := os.Rename(tmp, bin); err != nil {
		t.Fatal(err)
	}
	return bin
}

// collectorConfig receives OTLP/HTTP on {{ADDR}} and writes every trace
// to {{FILE}} as OTLP JSON, one line per export; the collector's own
// telemetry is off, so it opens no other port.
const collectorConfig = `
receivers:
  otlp:
    protocols:
      http:
        endpoint: {{ADDR}}
exporters:
  file:
    path: {{FILE}}
    flush_interval: 100ms
service:
  telemetry:
    metrics:
      level: none
    logs:
      level: warn
  pipelines:
    traces:
      receivers: [otlp]
      exporters: [file]
`

// startCollector starts bin on a loopback port and returns the file it
// writes, what stops it (SIGTERM, so it writes what it holds, then waits
// for it, bounded) and its OTLP/HTTP endpoint.
func startCollector(t *testing.T, bin string) (spans string, stop func(), endpoint string) {
	t.Helper()
	dir := t.TempDir()
	addr := "127.0.0.1:" + freePort(t)
	spans = filepath.Join(dir, "spans.json")
	config := writeConfig(t, collectorConfig, map[string]string{"ADDR": addr, "FILE": spans})
	var logs bytes.Buffer
	cmd := exec.Command(bin, "--config", "file:"+config)
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	stopped := false
	stop = func() {
		if stopped {
			return
		}
		stopped = true
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(20 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
			t.Errorf("the collector did not stop within 20s:\n%s", logs.String())
		}
	}
	t.Cleanup(stop)
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if c, err := net.DialTimeout("tcp", addr, 100*time.Millisecond); err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the collector is not listening on %s within 30s:\n%s", addr, logs.String())
		}
	}
	return spans, stop, "http://" + addr
}

// The OTLP span kinds, as the JSON encoding writes them.
const (
	otlpKindInternal = 1
	otlpKindServer   = 2
	otlpKindClient   = 3
)

// otlpSpan is one span of the file exporter's OTLP JSON, with its
// resource's service.name.
type otlpSpan struct {
	TraceID      string `json:"traceId"`
	SpanID       string `json:"spanId"`
	ParentSpanID string `json:"parentSpanId"`
	Name         string `json:"name"`
	Kind         int    `json:"kind"`
	Attributes   []struct {
		Key   string `json:"key"`
		Value struct {
			StringValue string `json:"stringValue"`
		} `json:"value"`
	} `json:"attributes"`
	service string
}

func (s otlpSpan) attr(key string) string {
	for _, a := range s.Attributes {
		if a.Key == key {
			return a.Value.StringValue
		}
	}
	return ""
}

type otlpSpans []otlpSpan

// readOTLPFile reads the file exporter's lines, each an OTLP JSON
// ExportTraceServiceRequest.
func readOTLPFile(t *testing.T, written []byte) otlpSpans {
	t.Helper()
	var out otlpSpans
	lines := bufio.NewScanner(bytes.NewReader(written))
	lines.Buffer(nil, 16<<20)
	for lines.Scan() {
		var export struct {
			ResourceSpans []struct {
				Resource struct {
					Attributes []struct {
						Key   string
						Value struct{ StringValue string }
					}
				}
				ScopeSpans []struct{ Spans []otlpSpan }
			}
		}
		if err := json.Unmarshal(lines.Bytes(), &export); err != nil {
			t.Fatalf("the collector wrote a line that is not OTLP JSON: %v\n%.500s", err, lines.Bytes())
		}
		for _, rs := range export.ResourceSpans {
			var service string
			for _, a := range rs.Resource.Attributes {
				if a.Key == "service.name" {
					service = a.Value.StringValue
				}
			}
			for _, ss := range rs.ScopeSpans {
				for _, s := range ss.Spans {
					s.service = service
					out = append(out, s)
				}
			}
		}
	}
	if len(out) == 0 {
		t.Fatalf("the collector wrote no spans:\n%.2000s", written)
	}
	return out
}

// one is the span named name of kind whose parent is parent, failing the
// test unless there is exactly one.
func (ss otlpSpans) one(t *testing.T, name, parent string, kind int) otlpSpan {
	t.Helper()
	var found []otlpSpan
	var all []string
	for _, s := range ss {
		all = append(all, s.Name+" under "+s.ParentSpanID)
		if s.Name == name && s.ParentSpanID == parent && s.Kind == kind {
			found = append(found, s)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d spans %q of kind %d under %s; the collector got: %s", len(found), name, kind, parent, strings.Join(all, "; "))
	}
	return found[0]
}
