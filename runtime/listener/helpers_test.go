package listener_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/listener"
)

func fl(x float64) *float64 { return &x }
func str(x string) *string  { return &x }

// casesDir holds the request cases both codecs read: a directory per case
// with request.json (its trailing newline is not part of the body) and
// request.meta (a "path P" line and "header Name: value" lines).
const casesDir = "testdata/requests"

// requestCase is one request case: a body, the path it is sent to and its
// headers.
type requestCase struct {
	Name   string
	Path   listener.Endpoint
	Header http.Header
	Body   []byte
}

// requestCases loads every request case, sorted (as os.ReadDir lists
// them).
func requestCases(t testing.TB) []requestCase {
	t.Helper()
	entries, err := os.ReadDir(casesDir)
	if err != nil {
		t.Fatal(err)
	}
	var cases []requestCase
	for _, e := range entries {
		cases = append(cases, findCase(t, e.Name()))
	}
	return cases
}

// findCase loads the request case named name.
func findCase(t testing.TB, name string) requestCase {
	t.Helper()
	c := requestCase{Name: name, Header: http.Header{}}
	body, err := os.ReadFile(filepath.Join(casesDir, name, "request.json"))
	if err != nil {
		t.Fatal(err)
	}
	c.Body = bytes.TrimRight(body, "\n")
	meta, err := os.ReadFile(filepath.Join(casesDir, name, "request.meta"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(meta)), "\n") {
		key, value, _ := strings.Cut(line, " ")
		switch key {
		case "path":
			c.Path = listener.Endpoint(value)
		case "header":
			field, v, _ := strings.Cut(value, ": ")
			c.Header.Add(field, v)
		}
	}
	return c
}

// accept reads the request case name with codec, which must accept it.
func accept(t *testing.T, codec listener.Codec, name string) *listener.ClientRequest {
	t.Helper()
	c := findCase(t, name)
	cr, err := codec.Read(c.Path, c.Body, c.Header)
	if err != nil {
		t.Fatalf("%s: refused: %v", name, err)
	}
	return cr
}

// refusal reads the request case name with codec, which must refuse it,
// and returns the refusal's body.
func refusal(t *testing.T, codec listener.Codec, name string) ir.ErrorBody {
	t.Helper()
	c := findCase(t, name)
	_, err := codec.Read(c.Path, c.Body, c.Header)
	var r *listener.Refusal
	if !errors.As(err, &r) {
		t.Fatalf("%s: want a refusal, got %v", name, err)
	}
	return r.Body
}

// renderRead renders what a codec's Read gave for a case, deterministic
// text for a golden file: the plan, diagnostics, question failures, media
// readings and the IR dump, or the refusal it answers.
func renderRead(codec listener.Codec, cr *listener.ClientRequest, err error) string {
	var b strings.Builder
	if err != nil {
		var r *listener.Refusal
		if !errors.As(err, &r) {
			return "error (not a Refusal) " + err.Error() + "\n"
		}
		status, body := codec.AnswerError(nil, &r.Body)
		b.WriteString("refused " + strconv.Itoa(status) + "\n")
		b.WriteString(indent(body))
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

// indent pretty-prints a JSON body for a golden file, keeping its member
// order; a body that is not JSON is returned as it is, which a golden diff
// then shows.
func indent(body []byte) string {
	var out bytes.Buffer
	if err := json.Indent(&out, body, "", "  "); err != nil {
		return "NOT JSON: " + string(body) + "\n"
	}
	return out.String() + "\n"
}
