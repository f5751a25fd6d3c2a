package target_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/registry"
	tc "github.com/vllm-sr/systemone/runtime/target"
	"github.com/vllm-sr/systemone/runtime/testkit"
)

// codecTargetFile is a case's target.json.
type codecTargetFile struct {
	Deployment     string   `json:"deployment"`
	Endpoint       string   `json:"endpoint"`
	Model          string   `json:"model"`
	MaxConcurrency int      `json:"max_concurrency"`
	Capabilities   []string `json:"capabilities"`
	Deviations     []string `json:"deviations"`
}

// codecReplyFile is one reply of a case's replies.json, in call order.
// Err is "deadline" or "transport" for a call that got no reply; Text is a
// body that is not JSON.
type codecReplyFile struct {
	Status int               `json:"status"`
	Header map[string]string `json:"header"`
	Body   json.RawMessage   `json:"body"`
	Text   string            `json:"text"`
	Err    string            `json:"err"`
}

// readBatch reads a vllm-sr/5.0 batch body into the IR with the 5.0
// listener codec.
func readBatch(t testing.TB, body []byte, header http.Header) *ir.Batch {
	t.Helper()
	cr, err := listener.V50.Read(listener.EndpointBatch, body, header)
	if err != nil {
		t.Fatalf("the 5.0 listener refuses the case's request: %v", err)
	}
	return cr.Batch
}

// readCaseBatch reads a case's request: request.json with the 5.0
// listener codec, or request40.json with the 4.0 one (4.0's readings:
// implicit roles, preset-only questions).
func readCaseBatch(t testing.TB, dir string, header http.Header) *ir.Batch {
	t.Helper()
	path := filepath.Join(dir, "request40.json")
	if _, err := os.Stat(path); err != nil {
		return readBatch(t, mustRead(t, filepath.Join(dir, "request.json")), header)
	}
	cr, err := listener.V40.Read(listener.EndpointBatch, mustRead(t, path), header)
	if err != nil {
		t.Fatalf("the 4.0 listener refuses the case's request: %v", err)
	}
	return cr.Batch
}

// Target builds a case's target, defaulted.
func (f codecTargetFile) Target() tc.Target {
	t := tc.Target{Deployment: f.Deployment, Endpoint: f.Endpoint, Model: f.Model,
		MaxConcurrency: f.MaxConcurrency, Deviations: f.Deviations}
	for _, c := range f.Capabilities {
		t.Capabilities = append(t.Capabilities, tc.Capability(c))
	}
	return t
}

// codecDeviations resolves IDs in the built-in schema registry.
func codecDeviations(t testing.TB, ids []string) []tc.Deviation {
	out := make([]tc.Deviation, len(ids))
	for i, id := range ids {
		d, err := registry.BuiltinSchemas().Deviation(id)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = d
	}
	return out
}

// codecGolden runs every target codec case under dir (each a directory
// holding request.json or request40.json, target.json and optionally
// replies.json and header.json) against codec and compares the transcript with the case's
// golden.txt.
func codecGolden(t *testing.T, dir string, codec tc.Codec) {
	cases, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		if !c.IsDir() {
			continue
		}
		t.Run(c.Name(), func(t *testing.T) {
			dir := filepath.Join(dir, c.Name())
			var tf codecTargetFile
			readJSON(t, filepath.Join(dir, "target.json"), &tf)
			var header map[string]string
			readJSONOptional(t, filepath.Join(dir, "header.json"), &header)
			var replies []codecReplyFile
			readJSONOptional(t, filepath.Join(dir, "replies.json"), &replies)
			batch := readCaseBatch(t, dir, headerOf(header))
			testkit.GoldenCheck(t, filepath.Join(dir, "golden.txt"), codecRun(t, codec, batch, tf.Target(), replies))
		})
	}
}

// codecRun plans batch for target, applies the target's deviations, feeds
// the replies (a call past the last reply never answered) and writes the
// transcript.
func codecRun(t testing.TB, codec tc.Codec, batch *ir.Batch, target tc.Target, replies []codecReplyFile) []byte {
	var w strings.Builder
	plan, diags, err := codec.Plan(batch, target, tc.Policy{})
	if err != nil {
		fmt.Fprintf(&w, "== plan error\n%s\n", err)
		return []byte(w.String())
	}
	deviations := codecDeviations(t, target.Deviations)
	devDiags, err := tc.ApplyRequestDeviations(&plan, deviations)
	if err != nil {
		t.Fatalf("deviation: %v", err)
	}
	writePlan(&w, &plan, append(diags, devDiags...))
	if replies == nil {
		return []byte(w.String())
	}
	var results []tc.ItemResult
	for i, call := range plan.Calls {
		if i >= len(replies) {
			break
		}
		reply := replies[i].wire()
		if err := tc.ApplyReplyDeviations(&reply, deviations); err != nil {
			t.Fatalf("reply deviation: %v", err)
		}
		got, err := codec.DecodeReply(plan, call, reply)
		if err != nil {
			t.Fatalf("DecodeReply: %v", err)
		}
		results = append(results, got...)
	}
	writeResults(&w, &plan, results)
	cr := &listener.ClientRequest{Endpoint: listener.EndpointBatch, Batch: batch}
	answer, err := listener.V50.AnswerSuccess(cr, listener.Outcome{Batch: tc.Reassemble(&plan, results)})
	if err != nil {
		t.Fatalf("AnswerSuccess: %v", err)
	}
	fmt.Fprintf(&w, "== client answer (reassembled)\n%s\n", answer)
	if e := tc.FirstFailure(&plan, results); e != nil {
		status, body := listener.V50.AnswerError(cr, e)
		fmt.Fprintf(&w, "== client error (fail-fast)\n%d %s\n", status, body)
	}
	return []byte(w.String())
}

func (r codecReplyFile) wire() tc.WireReply {
	switch r.Err {
	case "deadline":
		return tc.WireReply{Err: fmt.Errorf("call: %w", context.DeadlineExceeded)}
	case "transport":
		return tc.WireReply{Err: errors.New("dial tcp: connection refused")}
	}
	body := []byte(r.Body)
	if r.Text != "" {
		body = []byte(r.Text)
	}
	return tc.WireReply{Status: r.Status, Header: headerOf(r.Header), Body: body}
}

func headerOf(fields map[string]string) http.Header {
	h := http.Header{}
	for k, v := range fields {
		h.Set(k, v)
	}
	return h
}

func writePlan(w *strings.Builder, p *tc.Plan, diags ir.Diagnostics) {
	fmt.Fprintf(w, "== plan\nmax_concurrency %d\norder %s\n", p.MaxConcurrency, strings.Join(p.Order, " "))
	for _, it := range p.Items {
		fmt.Fprintf(w, "item %s:", it.Name)
		for _, q := range it.Questions {
			fmt.Fprintf(w, " %s(%s)", q.Name, q.Type)
		}
		w.WriteString("\n")
	}
	for i, c := range p.Calls {
		fmt.Fprintf(w, "call %d: %s %s items [%s]\n", i+1, c.Method, c.URL, strings.Join(c.Items, " "))
		for _, k := range slices.Sorted(maps.Keys(c.Header)) {
			fmt.Fprintf(w, "  %s: %s\n", k, strings.Join(c.Header[k], ", "))
		}
		fmt.Fprintf(w, "  body %s\n", c.Body)
	}
	w.WriteString("== diagnostics\n")
	for _, d := range diags {
		fmt.Fprintf(w, "%s %s %s\n", d.Kind, d.Form, d.Path)
	}
}

func writeResults(w *strings.Builder, p *tc.Plan, results []tc.ItemResult) {
	w.WriteString("== item results\n")
	for _, r := range results {
		switch {
		case r.Response != nil:
			fmt.Fprintf(w, "%s: response with %d answers\n", r.Name, len(r.Response.Answers))
		case r.Error != nil:
			e := r.Error
			fmt.Fprintf(w, "%s: error status %d code %q reason %q question %q state %q retry_after %s message %q",
				r.Name, e.Status, e.Code, e.Reason, e.Question, e.State, r.RetryAfter, e.Message)
			if e.Limit != nil {
				fmt.Fprintf(w, " limit %s", strconv.FormatInt(*e.Limit, 10))
			}
			for _, d := range e.Detail {
				fmt.Fprintf(w, "\n  detail %s %q %q", d.Loc, d.Type, d.Msg)
			}
			w.WriteString("\n")
		}
	}
}

func mustRead(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func readJSON(t testing.TB, path string, v any) {
	t.Helper()
	if err := json.Unmarshal(mustRead(t, path), v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func readJSONOptional(t testing.TB, path string, v any) {
	t.Helper()
	if _, err := os.Stat(path); err == nil {
		readJSON(t, path, v)
	}
}

// fuzzDecodeReply fuzzes codec.DecodeReply with arbitrary statuses and
// bodies for the one call codec plans for target from the request of
// dir's case planCase, a batch of two items. It is seeded with every
// reply of dir's cases. Whatever the reply, DecodeReply answers both
// items, each with a response or an error and never both, and the
// results reassemble.
func fuzzDecodeReply(f *testing.F, dir, planCase string, codec tc.Codec, target tc.Target) {
	seedReplies(f, filepath.Join(dir, "*", "replies.json"))
	raw, _ := os.ReadFile(filepath.Join(dir, planCase, "request.json"))
	plan, _, err := codec.Plan(readBatch(f, raw, nil), target, tc.Policy{})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, status int, body []byte) {
		results, err := codec.DecodeReply(plan, plan.Calls[0], tc.WireReply{Status: status, Body: body})
		if err != nil || len(results) != 2 {
			t.Fatalf("results %d, %v", len(results), err)
		}
		for _, r := range results {
			if (r.Response == nil) == (r.Error == nil) {
				t.Fatalf("result %+v", r)
			}
		}
		_ = tc.Reassemble(&plan, results)
	})
}

// seedReplies adds every reply of the replies.json files matching glob to
// f's corpus.
func seedReplies(f *testing.F, glob string) {
	files, _ := filepath.Glob(glob)
	for _, file := range files {
		raw, _ := os.ReadFile(file)
		var replies []codecReplyFile
		_ = json.Unmarshal(raw, &replies)
		for _, r := range replies {
			f.Add(r.Status, []byte(r.Body))
		}
	}
}
