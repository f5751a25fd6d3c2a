package docsite

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/runtime/testkit"
)

// openAPIPages renders the pages of one document, and its sidebar
// category as sidebar.json, by path under reference/.
func openAPIPages(t *testing.T, name, file, source string) map[string][]byte {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	d, err := loadAPIDoc(name, data, source)
	if err != nil {
		t.Fatal(err)
	}
	files, it, err := d.pages()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]byte{}
	for _, f := range files {
		rel, ok := strings.CutPrefix(f.Path, ReferenceDir+"/")
		if !ok || got[rel] != nil {
			t.Fatalf("page %s: not under %s/, or written twice", f.Path, ReferenceDir)
		}
		got[rel] = f.Data
	}
	sidebar, err := json.MarshalIndent(it, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got["sidebar.json"] = append(sidebar, '\n')
	return got
}

// TestOpenAPIPagesGolden pins the pages of a small document that has every
// construct the pages render, and of the frozen vllm-sr/4.0 contract
// (frozen, so its pages change only with the renderer). Update with
// SRGEN_UPDATE_GOLDEN=1 and review the diff.
func TestOpenAPIPagesGolden(t *testing.T) {
	for _, c := range []struct{ name, file, source, golden string }{
		{"small-1.0.openapi.yaml", "testdata/openapi/small.openapi.yaml", "", "testdata/openapi/small"},
		{"vllm-sr-4.0.openapi.yaml", "../../specs/systemone/vllm-sr-4.0.openapi.yaml", "specs/systemone/vllm-sr-4.0.openapi.yaml",
			"testdata/openapi/vllm-sr-4.0"},
	} {
		t.Run(c.name, func(t *testing.T) {
			testkit.GoldenCheckTree(t, c.golden, openAPIPages(t, c.name, c.file, c.source))
		})
	}
}

// TestOpenAPIPagesAreDeterministic: the pages walk Go maps (kin-openapi's),
// so each run must order them the same way.
func TestOpenAPIPagesAreDeterministic(t *testing.T) {
	const doc = "../../docs/reference/vllm-sr-5.0.openapi.yaml"
	first := openAPIPages(t, "vllm-sr-5.0.openapi.yaml", doc, "")
	for range 5 {
		again := openAPIPages(t, "vllm-sr-5.0.openapi.yaml", doc, "")
		if len(again) != len(first) {
			t.Fatalf("%d pages, then %d", len(first), len(again))
		}
		for name, data := range first {
			if !bytes.Equal(again[name], data) {
				t.Fatalf("%s differs between two runs", name)
			}
		}
	}
}

// TestOpenAPILoadRefusals: a document kin-openapi refuses, or one without
// x-srgen-schema, gets no pages and an error naming it.
func TestOpenAPILoadRefusals(t *testing.T) {
	for _, c := range []struct{ doc, want string }{
		{"openapi: 3.1.0\ninfo: {title: t, version: \"1\"}\npaths: {}\n", "x-srgen-schema"},
		{"openapi: 3.1.0\ninfo: {title: t}\nx-srgen-schema: s\npaths: {}\n", "not a valid OpenAPI document"},
		{"openapi: 3.1.0\ninfo: {title: t, version: \"1\"}\nx-srgen-schema: s\npaths:\n  /a:\n    get:\n      responses:\n" +
			"        \"200\": {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Missing'}}}}\n", "x.openapi.yaml"},
	} {
		_, err := loadAPIDoc("x.openapi.yaml", []byte(c.doc), "")
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "x.openapi.yaml") {
			t.Errorf("%q: %v; want an error naming x.openapi.yaml and containing %q", c.doc, err, c.want)
		}
	}
}
