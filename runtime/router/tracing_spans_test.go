package router_test

import (
	"context"
	"log"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/vllm-sr/systemone/runtime/front"
	"github.com/vllm-sr/systemone/runtime/router"
)

// keptSpans is the SDK's in-memory exporter, kept past the shutdown that
// flushes it (whose own Shutdown forgets what it holds).
type keptSpans struct{ *tracetest.InMemoryExporter }

func (keptSpans) Shutdown(context.Context) error { return nil }

func newKeptSpans() keptSpans { return keptSpans{tracetest.NewInMemoryExporter()} }

// tracingOn is a tracing section; the endpoint is never dialled, as the
// tests export to the in-memory exporter.
func tracingOn(ratio string) string {
	return "tracing:\n  otlp_endpoint: http://127.0.0.1:1\n  sample_ratio: " + ratio + "\n"
}

// spans are the exported spans of one test.
type spans []tracetest.SpanStub

// inTrace are the spans of the trace whose id is hex.
func (ss spans) inTrace(hex string) spans {
	var out spans
	for _, s := range ss {
		if s.SpanContext.TraceID().String() == hex {
			out = append(out, s)
		}
	}
	return out
}

// one is the span named name whose parent is parent (none: a root),
// failing the test unless there is exactly one.
func (ss spans) one(t testing.TB, name string, parent trace.SpanID) tracetest.SpanStub {
	t.Helper()
	var found []tracetest.SpanStub
	for _, s := range ss {
		if s.Name == name && s.Parent.SpanID() == parent {
			found = append(found, s)
		}
	}
	if len(found) != 1 {
		var names []string
		for _, s := range ss {
			names = append(names, s.Name+" (parent "+s.Parent.SpanID().String()+")")
		}
		t.Fatalf("%d spans named %q under %s; the trace has %v", len(found), name, parent, names)
	}
	return found[0]
}

// attrs are a span's attributes as text.
func attrs(s tracetest.SpanStub) map[string]string {
	out := map[string]string{}
	for _, kv := range s.Attributes {
		out[string(kv.Key)] = kv.Value.String()
	}
	return out
}

// wantAttrs checks that s has each of want's attributes with its value.
func wantAttrs(t testing.TB, s tracetest.SpanStub, want map[string]string) {
	t.Helper()
	got := attrs(s)
	for k, v := range want {
		if got[k] != v {
			t.Errorf("span %q: %s = %q, want %q (all: %v)", s.Name, k, got[k], v, got)
		}
	}
}

// noRequestData checks that no span's name or attribute carries the
// requests' state, question text or keys.
func noRequestData(t testing.TB, ss spans) {
	t.Helper()
	for _, s := range ss {
		texts := []string{s.Name, s.Status.Description}
		for _, kv := range append(append([]attribute.KeyValue(nil), s.Attributes...), s.Resource.Attributes()...) {
			texts = append(texts, kv.Value.String())
		}
		for _, text := range texts {
			for _, secret := range []string{"TRACE-SECRET", traceClientKey, traceUpstreamKey} {
				if strings.Contains(text, secret) {
					t.Errorf("span %q carries request data: %q", s.Name, text)
				}
			}
		}
	}
}

// With tracing on, every request is a server span of the Router's, a
// child of the client's span when it sent one: the listener read, the
// plan, each upstream call (a client span, whose id is the parent id the
// upstream gets) and the answer are its children, on both ways calls go
// (the Router's own connections and Go's client) and on the LLM
// pass-through; a request without a trace starts one, which goes
// upstream. Spans name configuration and fixed words only.
func TestTracingSpans(t *testing.T) {
	up := newTraceUpstream(t)
	for _, c := range callWays {
		t.Run(c.name, func(t *testing.T) {
			exp := newKeptSpans()
			tr := startTraceRouter(t, up, tracingOn("1"), router.Options{Client: c.client, SpanExporter: exp})
			tr.send(t, "/v1/systemone", traceSystemOne, clientTraceparent, clientTracestate)
			systemOne := up.last(t, "/v1/systemone")
			tr.send(t, "/v1/chat/completions", traceChat, clientTraceparent, clientTracestate)
			chat := up.last(t, "/v1/chat/completions")
			tr.send(t, "/v1/systemone", traceSystemOne, "", "")
			fresh := up.last(t, "/v1/systemone")
			if status := tr.send(t, "/v1/systemone", traceDead, "", ""); status != http.StatusServiceUnavailable {
				t.Fatalf("a dead deployment answered %d", status)
			}
			tr.stop() // exports what is queued
			all := spans(exp.GetSpans())
			noRequestData(t, all)

			trace1 := all.inTrace(clientTraceID)
			client, _ := trace.SpanIDFromHex(clientSpanID)
			server := trace1.one(t, "POST /v1/systemone", client)
			if server.SpanKind != trace.SpanKindServer || !server.Parent.IsRemote() {
				t.Errorf("the request's span is %v, remote parent %v; want a server span under the client's", server.SpanKind, server.Parent.IsRemote())
			}
			wantAttrs(t, server, map[string]string{"http.request.method": "POST", "http.route": "/v1/systemone", "url.path": "/v1/systemone",
				"http.response.status_code": "200", "vsr.listener": "public", "vsr.api": "systemone", "vsr.deployment": "std", "vsr.schema": "vllm-sr/5.0"})
			if got := server.Resource.Attributes(); !containsAttr(got, "service.name", "vllm-sr") {
				t.Errorf("resource %v has no service.name vllm-sr", got)
			}
			id := server.SpanContext.SpanID()
			wantAttrs(t, trace1.one(t, "listener read", id), map[string]string{"vsr.schema": "vllm-sr/5.0"})
			wantAttrs(t, trace1.one(t, "plan", id), map[string]string{"vsr.deployment": "std", "vsr.schema": "systemone/0.2", "vsr.upstream_calls": "1"})
			trace1.one(t, "answer", id)
			call := trace1.one(t, "POST /v1/systemone", id)
			wantAttrs(t, call, map[string]string{"http.request.method": "POST", "server.address": "127.0.0.1", "server.port": port(t, up),
				"url.path": "/v1/systemone", "http.response.status_code": "200", "vsr.deployment": "std", "vsr.schema": "systemone/0.2"})
			if got := checkPassedOn(t, systemOne, "01"); call.SpanKind != trace.SpanKindClient || got != call.SpanContext.SpanID().String() {
				t.Errorf("the call went upstream with parent %s; its client span (%v) is %s", got, call.SpanKind, call.SpanContext.SpanID())
			}

			llmServer := trace1.one(t, "POST /v1/chat/completions", client)
			llm := trace1.one(t, "POST /v1/chat/completions", llmServer.SpanContext.SpanID())
			wantAttrs(t, llm, map[string]string{"server.address": "127.0.0.1", "server.port": port(t, up), "url.path": "/v1/chat/completions",
				"http.response.status_code": "200", "vsr.upstream": "chat", "vsr.api": "chat_completions"})
			if got := checkPassedOn(t, chat, "01"); got != llm.SpanContext.SpanID().String() {
				t.Errorf("the pass-through went upstream with parent %s; its client span is %s", got, llm.SpanContext.SpanID())
			}

			freshID, freshSpan, flags := parentParts(t, fresh.parent)
			root := all.inTrace(freshID).one(t, "POST /v1/systemone", trace.SpanID{})
			if freshID == clientTraceID || flags != "01" || root.Parent.IsValid() || fresh.state != "" {
				t.Errorf("a request without a trace went upstream as %q %q; its span's parent is %v", fresh.parent, fresh.state, root.Parent.SpanID())
			}
			if call := all.inTrace(freshID).one(t, "POST /v1/systemone", root.SpanContext.SpanID()); call.SpanContext.SpanID().String() != freshSpan {
				t.Errorf("the fresh trace's call went with parent %s, its span is %s", freshSpan, call.SpanContext.SpanID())
			}
			checkDeadCall(t, all)
		})
	}
}

// checkDeadCall: a call that got no reply is a failed client span whose
// error.type is the reason the client got, and its request's span failed
// with the answer's code.
func checkDeadCall(t testing.TB, all spans) {
	t.Helper()
	for _, s := range all {
		if attrs(s)["vsr.deployment"] != "dead" || s.SpanKind != trace.SpanKindClient {
			continue
		}
		if s.Status.Code != codes.Error || attrs(s)["error.type"] != "upstream_unreachable" {
			t.Errorf("the dead deployment's call: status %v, error.type %q", s.Status, attrs(s)["error.type"])
		}
		server := all.inTrace(s.SpanContext.TraceID().String()).one(t, "POST /v1/systemone", trace.SpanID{})
		if server.Status.Code != codes.Error || attrs(server)["http.response.status_code"] != "503" || attrs(server)["error.type"] != "unavailable" {
			t.Errorf("the dead deployment's request: status %v, attributes %v", server.Status, attrs(server))
		}
		return
	}
	t.Error("no client span of the dead deployment's call")
}

func containsAttr(kvs []attribute.KeyValue, key, value string) bool {
	for _, kv := range kvs {
		if string(kv.Key) == key && kv.Value.String() == value {
			return true
		}
	}
	return false
}

// port is the test upstream's port.
func port(t testing.TB, up *traceUpstream) string {
	t.Helper()
	i := strings.LastIndexByte(up.srv.URL, ':')
	if _, err := strconv.Atoi(up.srv.URL[i+1:]); err != nil {
		t.Fatal(err)
	}
	return up.srv.URL[i+1:]
}

// sample_ratio samples new traces; a client's sampled flag decides for
// its own (parent-based). An unsampled request records nothing, and its
// trace context still goes upstream, unsampled, with the Router's span
// id.
func TestTracingSampleRatio(t *testing.T) {
	up := newTraceUpstream(t)
	exp := newKeptSpans()
	tr := startTraceRouter(t, up, tracingOn("0"), router.Options{SpanExporter: exp})
	unsampledTrace := "0af7651916cd43dd8448eb211c80319c"
	tr.send(t, "/v1/systemone", traceSystemOne, "00-"+unsampledTrace+"-"+clientSpanID+"-00", "")
	unsampled := up.last(t, "/v1/systemone")
	tr.send(t, "/v1/systemone", traceSystemOne, "", "")
	fresh := up.last(t, "/v1/systemone")
	tr.send(t, "/v1/systemone", traceSystemOne, clientTraceparent, clientTracestate)
	sampled := up.last(t, "/v1/systemone")
	tr.stop()
	all := spans(exp.GetSpans())

	if traceID, spanID, flags := parentParts(t, unsampled.parent); traceID != unsampledTrace || spanID == clientSpanID || flags != "00" {
		t.Errorf("an unsampled client trace went upstream as %q", unsampled.parent)
	}
	freshID, _, flags := parentParts(t, fresh.parent)
	if flags != "00" {
		t.Errorf("a new trace at sample_ratio 0 went upstream sampled: %q", fresh.parent)
	}
	checkPassedOn(t, sampled, "01")
	if n := len(all.inTrace(unsampledTrace)) + len(all.inTrace(freshID)); n != 0 {
		t.Errorf("%d spans of unsampled traces were exported", n)
	}
	if len(all.inTrace(clientTraceID)) < 5 {
		t.Errorf("the sampled client trace exported %d spans, want the request's, its read, plan, call and answer", len(all.inTrace(clientTraceID)))
	}
}

// A reload keeps the tracing settings: one that changes them is refused,
// naming tracing, and one that keeps them is taken.
func TestTracingReloadKeepsSettings(t *testing.T) {
	up := newTraceUpstream(t)
	tr := startTraceRouter(t, up, tracingOn("0.5"), router.Options{SpanExporter: newKeptSpans()})
	for _, c := range []struct {
		tracing string
		refused bool
	}{{tracingOn("0.25"), true}, {"", true}, {tracingOn("0.5"), false}} {
		err := tr.run.Reload(tr.config(t, c.tracing))
		if refused := err != nil && strings.Contains(err.Error(), "tracing: a reload keeps the same tracing settings"); refused != c.refused {
			t.Errorf("reload to %q: %v, want refused %v", c.tracing, err, c.refused)
		}
	}
	if status := tr.send(t, "/v1/systemone", traceSystemOne, "", ""); status != 200 {
		t.Errorf("after the reloads: status %d", status)
	}
}

// A collector that is down costs the requests nothing: they are answered
// as ever, their trace context still goes upstream, and the Router still
// stops cleanly, within its shutdown timeout (the failed export is the
// SDK's error handler's, which vllm-sr serve points at its log).
func TestTracingCollectorDown(t *testing.T) {
	var exportErrors atomic.Int32 // the SDK reports each failed export to otel's handler (serve logs them at WARN)
	otel.SetErrorHandler(otel.ErrorHandlerFunc(func(error) { exportErrors.Add(1) }))
	t.Cleanup(func() { otel.SetErrorHandler(otel.ErrorHandlerFunc(func(err error) { log.Print(err) })) })
	up := newTraceUpstream(t)
	tr := startTraceRouter(t, up, "tracing:\n  otlp_endpoint: http://127.0.0.1:"+freePort(t)+"\n",
		router.Options{Timeouts: front.Timeouts{ShutdownTimeout: 500 * time.Millisecond}})
	for range 3 {
		if status := tr.send(t, "/v1/systemone", traceSystemOne, clientTraceparent, clientTracestate); status != 200 {
			t.Fatalf("status %d with the collector down", status)
		}
	}
	checkPassedOn(t, up.last(t, "/v1/systemone"), "01")
	start := time.Now()
	tr.stop() // fails the test if the stop reports an error
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("the stop took %s with the collector down; the shutdown timeout is 500ms", took)
	}
	if exportErrors.Load() == 0 {
		t.Error("no failed export was reported to otel's error handler")
	}
}
