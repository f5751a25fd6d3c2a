// Package listenertest is the listener codecs' shared test support: the
// request cases under runtime/listener/testdata/requests, a deterministic
// text rendering of what a codec's Read gives (plan, diagnostics, question
// failures, media readings and the IR dump, or the refusal it answers),
// golden files with -update / SRGEN_UPDATE_GOLDEN=1 (through runtime/golden),
// and the check that scorer answers carry only members a schema defines.
package listenertest

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/runtime/golden"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/listener"
)

// Case is one request case: a body, the path it is sent to and its headers.
type Case struct {
	Name   string
	Path   listener.Endpoint
	Header http.Header
	Body   []byte
}

// Cases loads every case under runtime/listener/testdata/requests, sorted.
func Cases(t testing.TB) []Case {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "testdata", "requests")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var cases []Case
	for _, e := range entries {
		c := Case{Name: e.Name(), Header: http.Header{}}
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
	sort.Slice(cases, func(i, j int) bool { return cases[i].Name < cases[j].Name })
	return cases
}

// Find returns the case named name.
func Find(t testing.TB, name string) Case {
	t.Helper()
	for _, c := range Cases(t) {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no case %q", name)
	return Case{}
}

// RenderRead renders what codec.Read gave for a case.
func RenderRead(codec listener.Codec, cr *listener.ClientRequest, err error) string {
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

// Golden compares got with testdata/<name>, or rewrites it under -update
// or SRGEN_UPDATE_GOLDEN=1 (see runtime/golden).
func Golden(t *testing.T, name string, got string) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name), []byte(got))
}
