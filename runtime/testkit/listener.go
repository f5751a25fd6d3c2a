package testkit

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
// sorted.
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
	sort.Slice(cases, func(i, j int) bool { return cases[i].Name < cases[j].Name })
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
