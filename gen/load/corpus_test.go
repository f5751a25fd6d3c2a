package load

import (
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/vllm-sr/systemone/runtime/jsonvalue"
)

func parseBody(t *testing.T, body string) (jsonvalue.Value, Problems) {
	t.Helper()
	var ps Problems
	doc := "format: srgen-corpus/1\ncases:\n  - name: c\n    kind: legacy_form\n    form: x\n    endpoint: /v1/systemone\n    description: d\n    body:\n" + body
	f, ok := ParseCorpus("c.yaml", []byte(doc), &ps)
	if !ok || len(f.Cases) != 1 {
		return jsonvalue.Value{}, ps
	}
	return f.Cases[0].Body, ps
}

func TestCorpusBodyKeepsOrderAndLiterals(t *testing.T) {
	body := `      z: 1.0
      a: 1e3
      n: -0
      q: "1.50"
      "true": yes-text
      nul: null
      tilde: ~
      t: true
      list: [0.10, "⟦img-1⟧", {b: 2, a: 1}]
      block: |
        two
        lines
`
	v, ps := parseBody(t, body)
	if len(ps) != 0 {
		t.Fatal(ps)
	}
	want := `{"z":1.0,"a":1e3,"n":-0,"q":"1.50","true":"yes-text","nul":null,"tilde":null,"t":true,"list":[0.10,"⟦img-1⟧",{"b":2,"a":1}],"block":"two\nlines\n"}`
	if got := string(jsonvalue.Compact(v)); got != want {
		t.Errorf("body =\n%s\nwant\n%s", got, want)
	}
}

func TestCorpusBodyRefusesWhatJSONCannotSay(t *testing.T) {
	cases := map[string]struct{ body, want string }{
		"hex":           {"      n: 0x1F\n", `c.yaml:9:10: number "0x1F" is not a JSON number literal`},
		"infinity":      {"      n: .inf\n", `number ".inf"`},
		"plus":          {"      n: +1\n", `number "+1"`},
		"bool key":      {"      true: 1\n", `member name "true" is not a string in YAML; quote it`},
		"binary":        {"      b: !!binary aGk=\n", "scalar of tag !!binary"},
		"alias":         {"      a: &x 1\n      b: *x\n", "aliases"},
		"not an object": {"      - 1\n", "body must be an object"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, ps := parseBody(t, tc.body)
			if !strings.Contains(ps.Error(), tc.want) {
				t.Errorf("problems = %q, want one containing %q", ps.Error(), tc.want)
			}
		})
	}
}

func TestLoadCorpusChecksTheFormatSchema(t *testing.T) {
	repoSchema := mustReadRepoFile(t, "../../specs/corpus.schema.json")
	fsys := fstest.MapFS{
		CorpusSchema:             {Data: repoSchema},
		"specs/corpus/good.yaml": {Data: []byte("format: srgen-corpus/1\ncases:\n  - {name: ok, kind: legacy_form, form: x, endpoint: /v1/systemone, description: d, body: {a: 1}}\n")},
		"specs/corpus/bad.yaml":  {Data: []byte("format: srgen-corpus/2\ncases:\n  - {name: Bad Name, kind: other, endpoint: v1, description: d, body: {}}\n")},
	}
	_, err := LoadCorpus(fsys)
	if err == nil {
		t.Fatal("a corpus file that breaks its format schema was accepted")
	}
	for _, want := range []string{"specs/corpus/bad.yaml:1", "specs/corpus/bad.yaml:3"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not name %s:\n%v", want, err)
		}
	}
	if strings.Contains(err.Error(), "good.yaml") {
		t.Errorf("the good file was reported:\n%v", err)
	}
	delete(fsys, "specs/corpus/bad.yaml")
	files, err := LoadCorpus(fsys)
	if err != nil || len(files) != 1 || files[0].Cases[0].Name != "ok" {
		t.Fatalf("LoadCorpus = %+v, %v", files, err)
	}
}

func mustReadRepoFile(t *testing.T, p string) []byte {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
