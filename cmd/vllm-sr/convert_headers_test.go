package main

import (
	"strings"
	"testing"
)

// streams records what convert writes to standard output and standard
// error, and in which order.
type streams struct {
	out, err strings.Builder
	order    []string
}

type streamWriter struct {
	s    *streams
	name string
	buf  *strings.Builder
}

func (w streamWriter) Write(p []byte) (int, error) {
	if n := len(w.s.order); n == 0 || w.s.order[n-1] != w.name {
		w.s.order = append(w.s.order, w.name)
	}
	return w.buf.Write(p)
}

// runConvertStreams runs convert in process with separate standard output
// and standard error.
func runConvertStreams(t *testing.T, stdin string, args ...string) (*streams, error) {
	t.Helper()
	s := &streams{}
	root := newRoot()
	root.SetArgs(append([]string{"convert"}, args...))
	root.SetIn(strings.NewReader(stdin))
	root.SetOut(streamWriter{s: s, name: "stdout", buf: &s.out})
	root.SetErr(streamWriter{s: s, name: "stderr", buf: &s.err})
	return s, root.Execute()
}

// A request with an image and options.long_context needs both of the
// standard's danger-zone headers on systemone/0.2.
const dangerZoneBody = `{"model":"vllm-sr/decision3","state":["⟦img-1⟧","What is in the picture?"],` +
	`"images":{"⟦img-1⟧":{"type":"image","format":"png","data_base64":"iVBORw0KGgo="}},` +
	`"questions":{"object":{"type":"choice","instructions":"What does it show?","choices":{"a":"A shape","b":"Anything else"}}},` +
	`"options":{"long_context":true}}`

func TestConvertHeadersFlag(t *testing.T) {
	plain, err := runConvertStreams(t, dangerZoneBody, "--from", "internal", "--to", "systemone/0.2")
	if err != nil {
		t.Fatal(err)
	}
	if plain.err.Len() != 0 {
		t.Errorf("without --headers, standard error holds %q", plain.err.String())
	}
	if strings.Contains(plain.out.String(), "Danger-Zone") || !strings.HasSuffix(plain.out.String(), "}\n") {
		t.Errorf("standard output is not the body alone: %q", plain.out.String())
	}

	with, err := runConvertStreams(t, dangerZoneBody, "--from", "internal", "--to", "systemone/0.2", "--headers")
	if err != nil {
		t.Fatal(err)
	}
	const want = "TypeSafe-Danger-Zone-Images: true\nTypeSafe-Danger-Zone-Long-Context: true\n"
	if got := with.err.String(); got != want {
		t.Errorf("--headers printed %q, want %q", got, want)
	}
	if with.out.String() != plain.out.String() {
		t.Errorf("--headers changed the body:\n%s\nwant\n%s", with.out.String(), plain.out.String())
	}
	if strings.Join(with.order, " ") != "stderr stdout" {
		t.Errorf("written in the order %v; the headers go out before the body", with.order)
	}
}

// A target that needs no extra header prints none, and a refused body
// prints no headers (its error is the command's).
func TestConvertHeadersFlagPrintsOnlyWhatIsNeeded(t *testing.T) {
	body := `{"model":"vllm-sr/vela3","state":"s","questions":{"q":{"type":"noul","instructions":"Urgent?"}}}`
	for _, to := range []string{"systemone/0.2", "vllm-sr/5.0", "internal"} {
		s, err := runConvertStreams(t, body, "--from", "internal", "--to", to, "--headers")
		if err != nil {
			t.Fatalf("--to %s: %v", to, err)
		}
		if s.err.Len() != 0 || s.out.Len() == 0 {
			t.Errorf("--to %s: standard error %q, standard output %q", to, s.err.String(), s.out.String())
		}
	}
	refused := strings.Replace(dangerZoneBody, `"options"`, `"colour":1,"options"`, 1)
	s, err := runConvertStreams(t, refused, "--from", "internal", "--to", "systemone/0.2", "--headers")
	if err == nil || s.err.Len() != 0 || s.out.Len() != 0 {
		t.Errorf("a refused body: error %v, standard error %q, standard output %q", err, s.err.String(), s.out.String())
	}
}
