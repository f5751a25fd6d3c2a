package testkit

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/generated/corpus"
	"github.com/vllm-sr/systemone/runtime/internalwire"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/listener"
)

// ListenerCase is one listener request case: a body, the path it is sent
// to and its headers.
type ListenerCase struct {
	Name   string
	Path   listener.Endpoint
	Header http.Header
	Body   []byte
}

// ListenerCases loads every case under runtime/listener/testdata/requests,
// sorted (as os.ReadDir lists them).
func ListenerCases(t testing.TB) []ListenerCase {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "listener", "testdata", "requests") //vocab:not-spec a testdata directory name
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var cases []ListenerCase
	for _, e := range entries {
		c := ListenerCase{Name: e.Name(), Header: http.Header{}}
		if c.Body, err = os.ReadFile(filepath.Join(dir, e.Name(), "request.json")); err != nil {
			t.Fatal(err)
		}
		c.Body = bytes.TrimRight(c.Body, "\n")
		meta, err := os.ReadFile(filepath.Join(dir, e.Name(), "request.meta"))
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(meta)), "\n") {
			key, value, _ := strings.Cut(line, " ")
			switch key {
			case "path":
				c.Path = listener.Endpoint(value)
			case "header":
				name, v, _ := strings.Cut(value, ": ")
				c.Header.Add(name, v)
			}
		}
		cases = append(cases, c)
	}
	return cases
}

// FindListenerCase returns the listener request case named name.
func FindListenerCase(t testing.TB, name string) ListenerCase {
	t.Helper()
	for _, c := range ListenerCases(t) {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no case %q", name)
	return ListenerCase{}
}

// RenderListenerRead renders what a listener codec's Read gave for a case.
func RenderListenerRead(codec listener.Codec, cr *listener.ClientRequest, err error) string {
	var b strings.Builder
	if err != nil {
		var r *listener.Refusal
		if !errors.As(err, &r) {
			return "error (not a Refusal) " + err.Error() + "\n"
		}
		status, body := codec.AnswerError(nil, &r.Body)
		b.WriteString("refused " + strconv.Itoa(status) + "\n")
		b.WriteString(Indent(body))
		return b.String()
	}
	b.WriteString("endpoint " + string(cr.Endpoint) + "\nschema " + string(cr.Schema) + "\nplan " + string(cr.Plan) + "\n")
	for _, d := range cr.Diagnostics {
		b.WriteString("diagnostic " + string(d.Kind) + " " + d.Form + " at " + d.Path.String() + "\n")
	}
	for _, f := range cr.QuestionFailures {
		b.WriteString("failure item " + strconv.Quote(f.Item) + " question " + strconv.Quote(f.Name) + " index " +
			strconv.Itoa(f.Index) + " " + string(f.Error) + " " + f.Reason)
		if f.Limit != nil {
			b.WriteString(" limit " + strconv.FormatInt(*f.Limit, 10))
		}
		b.WriteString("\n  " + f.Message + "\n")
	}
	for _, m := range cr.Media {
		b.WriteString("media item " + strconv.Quote(m.Item) + " in front " + strings.Join(m.Media.Placeholders, " ") +
			" of " + string(jsonvalue.Compact(m.Media.Item)) + "\n")
	}
	if cr.Request != nil {
		b.WriteString(ir.DumpRequest(cr.Request))
	}
	if cr.Batch != nil {
		b.WriteString(ir.DumpBatch(cr.Batch))
	}
	return b.String()
}

// Indent pretty-prints a JSON body for a golden file, keeping its member
// order; a body that is not JSON is returned as it is, which a golden diff
// then shows.
func Indent(body []byte) string {
	var out bytes.Buffer
	if err := json.Indent(&out, body, "", "  "); err != nil {
		return "NOT JSON: " + string(body) + "\n"
	}
	return out.String() + "\n"
}

// ListenerGolden compares got with testdata/<name>, or rewrites it under
// -update or SRGEN_UPDATE_GOLDEN=1 (see GoldenCheck).
func ListenerGolden(t *testing.T, name string, got string) {
	t.Helper()
	GoldenCheck(t, filepath.Join("testdata", name), []byte(got))
}

// overwritingBody is a request whose containers (state, criteria, an
// array) differ from any seed's, read after each accepted one.
var overwritingBody = []byte(`{"state":{"a":["x","y",{"z":1}],"b":"OVERWRITE"},"questions":{"q":{"type":"choice","instructions":"Which?","criteria":{"p":"P!","r":"R!"}}},"options":{"deadline_ms":5}}`)

// SeedListenerFuzz adds the generated round-trip corpus and every
// listener request case's body to a fuzz target.
func SeedListenerFuzz(f *testing.F) {
	for _, c := range corpus.Cases {
		body, err := corpus.FS.ReadFile(c.Path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(body)
	}
	for _, c := range ListenerCases(f) {
		f.Add(c.Body)
	}
}

// CheckListenerRead is the fuzz property of a listener codec's Read on
// path: it never panics; a refusal is a *Refusal with a status, a reason
// and a message, and its body is JSON; an accepted request's internal
// encoding (the request, or the batch as a bundle) re-reads to the same
// IR, and is not changed by a later read; and a pass-through body is one the internal form reads.
func CheckListenerRead(t *testing.T, codec listener.Codec, path listener.Endpoint, body []byte) {
	cr, err := codec.Read(path, body, nil)
	if err != nil {
		var r *listener.Refusal
		if !errors.As(err, &r) || r.Body.Status == 0 || r.Body.Reason == "" || r.Body.Message == "" {
			t.Fatalf("a refusal must be a *Refusal with a status, a reason and a message: %#v", err)
		}
		if _, out := codec.AnswerError(nil, &r.Body); Indent(out)[:3] == "NOT" {
			t.Fatalf("the refusal body is not JSON: %s", out)
		}
		return
	}
	if cr.Plan == listener.PlanPassThrough && cr.Request != nil {
		if _, _, err := internalwire.DecodeRequest(cr.Body); err != nil {
			t.Fatalf("a pass-through the internal form refuses: %v", err)
		}
	}
	switch {
	case cr.Request != nil:
		wire, err := internalwire.EncodeRequest(cr.Request)
		if err != nil {
			t.Fatalf("accepted, then the internal form cannot write it: %v\n%s", err, ir.DumpRequest(cr.Request))
		}
		again, _, err := internalwire.DecodeRequest(wire)
		if err != nil {
			t.Fatalf("the internal encoding does not re-read: %v\n%s", err, wire)
		}
		if !sameRequest(cr.Request, again) {
			t.Fatalf("re-reading gave another IR:\n%s\nthen\n%s", ir.DumpRequest(cr.Request), ir.DumpRequest(again))
		}
		// A later read reuses the decoder memory an earlier one may have
		// borrowed (jsonvalue.DecodeBorrowed): what the IR kept must be its
		// own, so the first request writes the same bytes after it.
		_, _ = codec.Read(path, overwritingBody, nil)
		if after, err := internalwire.EncodeRequest(cr.Request); err != nil || !bytes.Equal(after, wire) {
			t.Fatalf("another read changed an IR read before it (%v):\n%s\nthen\n%s", err, wire, after)
		}
	case cr.Batch != nil:
		wire, err := internalwire.EncodeBundle(listener.BundleOf(cr.Batch))
		if err != nil {
			t.Fatalf("accepted, then the internal form cannot write it: %v", err)
		}
		if _, _, err := internalwire.DecodeBundle(wire); err != nil {
			t.Fatalf("the bundle encoding does not re-read: %v\n%s", err, wire)
		}
	default:
		t.Fatal("accepted with neither a request nor a batch")
	}
}

// sameRequest compares two IRs by their canonical internal encoding with
// layouts dropped: re-reading records a layout the listener never builds.
func sameRequest(a, b *ir.Request) bool {
	ea, errA := internalwire.EncodeRequest(stripLayout(a))
	eb, errB := internalwire.EncodeRequest(stripLayout(b))
	return errA == nil && errB == nil && bytes.Equal(ea, eb) && reflect.DeepEqual(a.Roles, b.Roles)
}

func stripLayout(r *ir.Request) *ir.Request {
	c := *r
	c.Layout = ir.Layout{}
	c.Questions = append([]ir.Question(nil), r.Questions...)
	for i := range c.Questions {
		c.Questions[i].Layout = ir.Layout{}
	}
	c.Assets = append([]ir.Asset(nil), r.Assets...)
	for i := range c.Assets {
		c.Assets[i].Layout = ir.Layout{}
	}
	if r.Options != nil {
		o := *r.Options
		o.Layout = ir.Layout{}
		c.Options = &o
	}
	return &c
}
