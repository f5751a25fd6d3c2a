package configschema

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// testWords stand for the specifications' word lists.
var testWords = map[string][]string{"features": {"noul", "choice"}}

func source(t *testing.T) []byte {
	t.Helper()
	src, err := os.ReadFile("../../" + Source)
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// TestSchemaIsDeterministicJSON: two runs give the same bytes, a JSON
// Schema whose top keys are the file's sections in file.go's order.
func TestSchemaIsDeterministicJSON(t *testing.T) {
	a, err := Schema(source(t), testWords)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Schema(source(t), testWords)
	if !bytes.Equal(a, b) {
		t.Fatal("two runs differ")
	}
	var doc struct {
		Schema     string `json:"$schema"`
		Properties orderedProps
	}
	if err := json.Unmarshal(a, &doc); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, p := range doc.Properties {
		keys = append(keys, p.key)
	}
	if want := "admin_address listeners upstreams deployments pools rules tracing"; doc.Schema != Draft || strings.Join(keys, " ") != want {
		t.Errorf("$schema %q, sections %v; want %q, %s", doc.Schema, keys, Draft, want)
	}
}

// TestSourceMistakesAreErrors: what file.go cannot say is an error
// naming the type and field, not a schema that says less.
func TestSourceMistakesAreErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"type fileForm struct {\n\t// A is a.\n\tA string `yaml:\"a\" schema:\"minimum=1\"`\n}", `fileForm.A: schema tag: unknown item "minimum=1"`},
		{"type fileForm struct {\n\tA string `yaml:\"a\"`\n}", "fileForm.A has no doc comment"},
		{"type fileForm struct {\n\t// A is a.\n\tA string\n}", "needs one name and a tag"},
		{"type fileForm struct {\n\t// A is a.\n\tA uint8 `yaml:\"a\"`\n}", "type uint8 is not a form"},
		{"type fileForm struct {\n\t// A is a.\n\tA fileForm `yaml:\"a\"`\n}", "fileForm holds itself"},
		{"type other struct{}", "no type fileForm"},
		{"type fileForm struct {\n\t// A is a.\n\tA []string `yaml:\"a\" schema:\"enum=@colours\"`\n}", "enum=@colours names no word list"},
		{"type fileForm struct {\n\t// A is a.\n\tA string `yaml:\"a\" schema:\"with=b\"`\n}", "want with=KEY:VALUE"},
	} {
		_, err := Schema([]byte("package routerconfig\n\n"+c.src+"\n"), testWords)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want an error with %q", c.src, err, c.want)
		}
	}
}

// TestPageListsEveryKey: the reference page has a row for every key of
// every object of the schema, and a section per nested object.
func TestPageListsEveryKey(t *testing.T) {
	schema, err := Schema(source(t), testWords)
	if err != nil {
		t.Fatal(err)
	}
	page, err := Page(schema, "<!-- header -->", SchemaFile, Guide)
	if err != nil {
		t.Fatal(err)
	}
	var root rnode
	if err := json.Unmarshal(schema, &root); err != nil {
		t.Fatal(err)
	}
	rows := 0
	var walk func(n *rnode)
	walk = func(n *rnode) {
		for _, p := range n.Properties {
			rows++
			if !bytes.Contains(page, []byte("| `"+p.key+"` |")) {
				t.Errorf("the page has no row for %s", p.key)
			}
			if u := objectUnder(p.node); u != nil {
				walk(u.node)
			}
		}
	}
	walk(&root)
	if got := bytes.Count(page, []byte("\n| `")); got != rows {
		t.Errorf("the page has %d rows; the schema %d keys", got, rows)
	}
	for _, s := range []string{"## `listeners[]`", "## `listeners[].apis.<name>`", "## `deployments.<name>.circuit`", "## `rules.<name>.route`", "## `tracing`"} {
		if !bytes.Contains(page, []byte(s)) {
			t.Errorf("the page has no section %s", s)
		}
	}
}
