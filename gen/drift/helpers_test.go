package drift

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/gen/model"
)

// fixture is a document of the project's own making in the shape of the
// published one (names and structure, our own descriptions). It has one
// deliberate drift: ModelMetadata.release_date may be null. Tests derive
// every other document from it in code; no copy of the published
// document is kept (it carries no license).
const fixture = "testdata/published-3.1.json"

func repoModel(t *testing.T) *model.Model {
	t.Helper()
	m, err := model.LoadDir("../..")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// fixtureDoc decodes the fixture afresh, for a test to change.
func fixtureDoc(t *testing.T) map[string]any {
	t.Helper()
	data, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// cleanDoc is the fixture without its drift: a document our description
// matches in everything it takes from the document.
func cleanDoc(t *testing.T) map[string]any {
	doc := fixtureDoc(t)
	props(t, doc, "ModelMetadata")["release_date"] = obj("type", "string")
	return doc
}

func encode(t *testing.T, doc map[string]any) []byte {
	t.Helper()
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// get walks doc by keys, each step an object.
func get(t *testing.T, doc map[string]any, keys ...string) map[string]any {
	t.Helper()
	cur := doc
	for i, k := range keys {
		next, ok := cur[k].(map[string]any)
		if !ok {
			t.Fatalf("no object at %s", strings.Join(keys[:i+1], "."))
		}
		cur = next
	}
	return cur
}

func schemas(t *testing.T, doc map[string]any) map[string]any {
	return get(t, doc, "components", "schemas")
}

func schema(t *testing.T, doc map[string]any, component string) map[string]any {
	return get(t, doc, "components", "schemas", component)
}

func props(t *testing.T, doc map[string]any, component string) map[string]any {
	return get(t, doc, "components", "schemas", component, "properties")
}

// obj builds a JSON object from key, value pairs.
func obj(kv ...any) map[string]any {
	out := map[string]any{}
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i].(string)] = kv[i+1]
	}
	return out
}

func ref(component string) map[string]any { return obj("$ref", componentPrefix+component) }

func list(v ...any) []any { return v }

// compare runs the comparison on doc, failing the test on an error.
func compare(t *testing.T, m *model.Model, doc map[string]any) Report {
	t.Helper()
	r, err := Compare(m, encode(t, doc), "mutated.json")
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func lines(r Report) []string {
	var out []string
	for _, d := range r.Differences {
		out = append(out, d.String())
	}
	return out
}

func knownLines(r Report) []string {
	var out []string
	for _, k := range r.Known {
		out = append(out, k.String())
	}
	return out
}
